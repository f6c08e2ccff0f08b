// Plain SQL migrations, applied in file-name order on both stores, each once, inside a transaction.
// On PostgreSQL an advisory lock keeps several starting instances from migrating at the same time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './types.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const ADVISORY_LOCK_ID = 7_424_243;

export async function migrate(store: Store): Promise<string[]> {
  const files = fs.readdirSync(migrationsDir).filter((name) => name.endsWith('.sql')).sort();
  await store.exec('create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())');
  return store.transaction(async (tx) => {
    if (store.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCK_ID]);
    const done = new Set((await tx.query<{ name: string }>('select name from schema_migrations')).map((row) => row.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = fs.readFileSync(path.join(migrationsDir, file), 'utf8');
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('insert into schema_migrations (name) values ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
}

/** Splits on semicolons at line ends; migrations keep one statement per `;`-terminated block (no $$ bodies with inner `;\n`). */
function splitStatements(sql: string): string[] {
  return sql
    .replace(/^\s*--.*$/gm, '')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
}
