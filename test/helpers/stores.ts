// Real stores for tests: a fresh PGlite folder copied from a template built once per run,
// and, when TEST_DATABASE_URL points at a PostgreSQL server, a fresh database on it per call.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { createApp } from '../../src/app.ts';
import { createLogger } from '../../src/log.ts';
import { openStore, type Store } from '../../src/store/index.ts';

export type StoreKind = 'pglite' | 'postgres';

/** The store kinds this run can test: PGlite always, PostgreSQL when CI (or you) set TEST_DATABASE_URL. */
export function storeKinds(): StoreKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

function templateKey(): string {
  const hash = crypto.createHash('sha256');
  const migrations = path.join(repoRoot, 'src/store/migrations');
  for (const file of fs.readdirSync(migrations).sort()) hash.update(file).update(fs.readFileSync(path.join(migrations, file)));
  const snapshot = path.join(repoRoot, 'data/catalog.jsonl.gz');
  if (fs.existsSync(snapshot)) hash.update(String(fs.statSync(snapshot).size)).update(String(fs.statSync(snapshot).mtimeMs));
  return hash.digest('hex').slice(0, 16);
}

/** A TOOLDEX_HOME with a migrated embedded store holding the shipped catalog; each call gets its own copy. */
export async function freshHome(): Promise<string> {
  const template = path.join(os.tmpdir(), `tooldex-template-${templateKey()}`);
  const lockDir = `${template}.lock`;
  while (!fs.existsSync(path.join(template, 'ready'))) {
    try {
      fs.mkdirSync(lockDir);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250)); // another test file is building it
      continue;
    }
    try {
      fs.rmSync(template, { recursive: true, force: true });
      const app = await createApp(loadConfig({ TOOLDEX_HOME: template, LOG_LEVEL: 'silent' }), createLogger('silent'));
      await app.close();
      fs.writeFileSync(path.join(template, 'ready'), '');
    } finally {
      fs.rmSync(lockDir, { recursive: true, force: true });
    }
  }
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-test-'));
  fs.cpSync(path.join(template, 'pgdata'), path.join(home, 'pgdata'), { recursive: true });
  if (fs.existsSync(path.join(template, 'cache'))) fs.cpSync(path.join(template, 'cache'), path.join(home, 'cache'), { recursive: true });
  return home;
}

/** A new, empty database on the test PostgreSQL server; dropped by the returned cleanup. */
export async function freshPostgresUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `tooldex_test_${crypto.randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A fresh, migrated store of `kind` (an empty PGlite folder, or a new PostgreSQL database) and what removes it. */
export async function freshStore(kind: StoreKind): Promise<{ store: Store; close(): Promise<void> }> {
  if (kind === 'postgres') {
    const database = await freshPostgresUrl();
    const store = await openStore({ DATABASE_URL: database.url, TOOLDEX_HOME: os.tmpdir() });
    return { store, async close() { await store.close(); await database.drop(); } };
  }
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-store-'));
  const store = await openStore({ DATABASE_URL: undefined, TOOLDEX_HOME: home });
  return { store, async close() { await store.close(); fs.rmSync(home, { recursive: true, force: true }); } };
}
