// TOML files (poetry.lock, uv.lock, Pipfile, pyproject.toml, Cargo.lock, Cargo.toml) through smol-toml, with the
// line of a syntax error kept for the 422 answer.
import { parse, TomlError } from 'smol-toml';
import { ManifestError } from '../types.ts';

export type Toml = Record<string, unknown>;

export function parseTomlFile(file: string, text: string): Toml {
  try {
    return parse(text) as Toml;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : undefined;
    throw new ManifestError(file, `not valid TOML: ${(error as Error).message.split('\n')[0]}`, line);
  }
}

export const isTable = (value: unknown): value is Toml => typeof value === 'object' && value !== null && !Array.isArray(value);
export const tables = (value: unknown): Toml[] => (Array.isArray(value) ? value.filter(isTable) : []);
export const tableEntries = (value: unknown): [string, unknown][] => (isTable(value) ? Object.entries(value) : []);
