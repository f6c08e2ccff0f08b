// Shared by the MCP and CLI integration tests: a small catalog snapshot made by code (loaded only into an
// empty store, so with the shipped snapshot present the real catalog answers), and a spawner for the bin.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSnapshot } from '../../../src/catalog/snapshot.ts';
import type { ToolRecord } from '../../../src/catalog/index.ts';

export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
export const bin = path.join(repoRoot, 'bin/tooldex.js');

const tool = (ecosystem: ToolRecord['ecosystem'], name: string, description: string, languages: string[]): ToolRecord => ({
  slug: `${ecosystem}-${name}`, ecosystem, name, version: '1.0.0', description, shortDescription: description,
  keywords: description.toLowerCase().split(/\W+/), languages, frameworks: [], categories: ['validation'],
  license: 'MIT', homepage: null, repository: null, docsUrl: null, popularity: 0.9, downloads: 1000,
  updatedAt: '2026-01-01T00:00:00.000Z', extra: {},
});

/** A gzipped JSONL snapshot with a few tools; returns its path. */
export async function fixtureSnapshot(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-mcp-fixture-'));
  const file = path.join(dir, 'catalog.jsonl.gz');
  await writeSnapshot(file, [
    tool('npm', 'zod', 'TypeScript-first schema validation with static type inference', ['TypeScript', 'JavaScript']),
    tool('pypi', 'pydantic', 'Data validation using Python type hints', ['Python']),
    tool('crates', 'serde', 'A generic serialization/deserialization framework', ['Rust']),
    tool('npm', 'yup', 'Dead simple object schema validation', ['JavaScript']),
  ]);
  return file;
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (with a hard timeout), capturing stdout and stderr separately. */
export function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? os.tmpdir(), env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** The environment of a spawned bin: no inherited tooldex settings, quiet logs, no colour forcing. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // CI: Node's tty.hasColors() reports no colour whenever CI is set, and these tests play a user's terminal.
    if (name.startsWith('TOOLDEX_') || ['DATABASE_URL', 'NO_COLOR', 'FORCE_COLOR', 'PORT', 'HOST', 'LOG_LEVEL', 'CI'].includes(name)) continue;
    if (name.startsWith('NODE_TEST') || name === 'NODE_OPTIONS') continue;
    env[name] = value;
  }
  // Docs-site crawling reaches packages' public homepages; tests keep to registries and loopback.
  return { ...env, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', ...extra };
}

/** A loopback port nothing listens on (bound, then released), for "server unreachable" cases. */
export async function closedPort(): Promise<number> {
  const net = await import('node:net');
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
