// Opens the configured store (PGlite in TOOLDEX_HOME, or PostgreSQL at DATABASE_URL) and migrates it.
// Each capability owns its tables (its own migration files) and its queries; this module owns neither.
import type { Config } from '../config.ts';
import { migrate } from './migrate.ts';
import { openPglite, type EmbeddedStore } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Store } from './types.ts';
import { DEFAULT_WAIT } from './wait.ts';
import type { Logger } from '../log.ts';

export type { Queryable, SqlParam, Store } from './types.ts';
export type { EmbeddedStore } from './pglite.ts';
export { readLock } from './lock.ts';
export { storableText, storableJsonText, storableValue } from './sanitise.ts';
export { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from './faults.ts';
export type { AvailabilityState } from './availability.ts';

type StoreConfig = Pick<Config, 'DATABASE_URL' | 'TOOLDEX_HOME'> & Partial<Pick<Config, 'TOOLDEX_STORE_WAIT_MS' | 'TOOLDEX_STORE_BACKOFF_MAX_MS'>>;

/**
 * With a logger (a server, `tooldex mcp`) a PostgreSQL that is not there yet is waited for, as TOOLDEX_STORE_WAIT_MS
 * says, and the wait is logged; without one (a one-shot CLI command) it is tried once and fails with the cause.
 */
export async function openStore(config: StoreConfig, logger?: Logger): Promise<Store> {
  const store = config.DATABASE_URL
    ? await openPostgres(config.DATABASE_URL, {
      logger,
      wait: {
        maxMs: logger ? config.TOOLDEX_STORE_WAIT_MS ?? DEFAULT_WAIT.maxMs : 0,
        maxBackoffMs: config.TOOLDEX_STORE_BACKOFF_MAX_MS ?? DEFAULT_WAIT.maxBackoffMs,
      },
    })
    : await openPglite(config.TOOLDEX_HOME);
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
