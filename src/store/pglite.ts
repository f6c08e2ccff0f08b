// Embedded store: PostgreSQL compiled to WASM (PGlite) with pg_trgm, in TOOLDEX_HOME/pgdata.
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { inputFault } from './faults.ts';
import { acquireLock } from './lock.ts';
import { storableParams } from './sanitise.ts';
import type { Queryable, SqlParam, Store } from './types.ts';

export interface EmbeddedStore extends Store {
  /** Records the admin socket in the lock file so other processes know to go through this one. */
  advertiseAdminSocket(socketPath: string): void;
  /** Records the server's HTTP URL in the lock file (read by `tooldex mcp` to relay to this server). */
  advertiseUrl(url: string): void;
}

export async function openPglite(home: string): Promise<EmbeddedStore> {
  const lock = acquireLock(home);
  let db: PGlite;
  try {
    db = await PGlite.create(path.join(home, 'pgdata'), { extensions: { pg_trgm } });
  } catch (error) {
    lock.release();
    throw error;
  }
  const asQueryable = (target: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(sql: string, params: SqlParam[] = []) {
      try {
        return (await target.query<Row>(sql, storableParams(sql, params))).rows;
      } catch (error) {
        throw inputFault(error) ?? error; // a NUL byte in a value is the caller's input, not a server fault
      }
    },
  });
  return {
    kind: 'pglite',
    ...asQueryable(db),
    async exec(sql) {
      await db.exec(sql);
    },
    transaction: (work) => db.transaction((tx) => work(asQueryable(tx))),
    async close() {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    },
    advertiseAdminSocket: (socketPath) => lock.update({ adminSocket: socketPath }),
    advertiseUrl: (url) => lock.update({ url }),
  };
}
