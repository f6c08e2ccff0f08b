// Package spec checks shared by the runtime adapters: a registry name and an optional version, nothing else
// (no URLs, paths, git refs or installer flags, which could redirect an install away from the registry).
import { invalidInput } from '../../errors.ts';

export function badPackage(raw: string, runtime: string, example: string): never {
  throw invalidInput('invalid_package',
    `Package "${raw.slice(0, 100)}" is not a plain ${runtime} registry package (name with an optional version, e.g. ${example}).`,
    { field: 'packages' });
}

/** Version text: digits, letters, dots, ranges and operators; never a path, URL or flag. */
export const VERSION = /^[0-9A-Za-z.*^~<>=!|+_, -]{1,64}$/;
