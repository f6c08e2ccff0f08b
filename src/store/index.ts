// Opens the configured store (PGlite in TOOLDEX_HOME, or PostgreSQL at DATABASE_URL) and migrates it.
// Each capability owns its tables (its own migration files) and its queries; this module owns neither.
import type { Config } from '../config.ts';
import { migrate } from './migrate.ts';
import { openPglite, type EmbeddedStore } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Store } from './types.ts';

export type { Queryable, SqlParam, Store } from './types.ts';
export type { EmbeddedStore } from './pglite.ts';
export { readLock } from './lock.ts';

export async function openStore(config: Pick<Config, 'DATABASE_URL' | 'TOOLDEX_HOME'>): Promise<Store> {
  const store = config.DATABASE_URL ? await openPostgres(config.DATABASE_URL) : await openPglite(config.TOOLDEX_HOME);
  try {
    await migrate(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

export function isEmbedded(store: Store): store is EmbeddedStore {
  return store.kind === 'pglite';
}
