// Server store: a PostgreSQL connection pool behind the same query layer as the embedded store. A database that
// goes away never crashes the process: calls answer 503 store_unavailable until the availability probe sees it back.
import pg from 'pg';
import type { Logger } from '../log.ts';
import { StoreAvailability } from './availability.ts';
import { inputFault, isConnectionFault, isPoolWaitTimeout, isStoreUnavailable, storeBusy } from './faults.ts';
import { storableParams } from './sanitise.ts';
import type { Queryable, SqlParam, Store } from './types.ts';
import { waitForDatabase, type StartupWait } from './wait.ts';

export interface PostgresOptions {
  logger?: Logger;
  /** How long start-up waits for the database to answer, with backoff (0: fail at once). */
  wait?: StartupWait;
}

const POOL_SIZE = 10;

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url, max: POOL_SIZE,
    // A database host that drops packets must not hold requests for the kernel's TCP timeout.
    connectionTimeoutMillis: 5000, keepAlive: true, idleTimeoutMillis: 30_000,
  });
  const availability = new StoreAvailability(async () => {
    await pool.query('select 1');
  }, options.logger);
  // An idle connection the server closed (restart, failover, admin shutdown) is reported here; unhandled, it
  // would crash the process.
  pool.on('error', (error) => {
    if (isConnectionFault(error)) availability.reportFault(error);
    else options.logger?.warn({ err: error }, 'idle database connection failed');
  });
  try {
    await waitForDatabase(() => pool.query('select 1').then(() => undefined), url, options.wait, options.logger);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }

  /** Runs one call against the database, translating faults: connection → 503 (and probing), NUL byte → 422. */
  async function guarded<T>(work: () => Promise<T>): Promise<T> {
    if (!availability.available) throw availability.error();
    try {
      return await work();
    } catch (error) {
      // pg-pool says "timeout exceeded when trying to connect" both when a new connection does not open and when
      // every connection is busy and the wait for one ran out: the latter is load, not an outage, so this call gets
      // a 503 but the store is not marked away (which would refuse every other call until the probe).
      if (isPoolWaitTimeout(error) && pool.totalCount >= POOL_SIZE) throw storeBusy();
      if (isConnectionFault(error)) {
        availability.reportFault(error);
        throw availability.error();
      }
      throw inputFault(error) ?? error;
    }
  }

  const asQueryable = (target: Pick<pg.Pool, 'query'>): Queryable => ({
    query<Row>(sql: string, params: SqlParam[] = []) {
      return guarded(async () => (await target.query(sql, storableParams(sql, params))).rows as Row[]);
    },
  });
  return {
    kind: 'postgres',
    ...asQueryable(pool),
    exec: (sql) => guarded(async () => {
      await pool.query(sql);
    }),
    async transaction(work) {
      const client = await guarded(() => pool.connect());
      // Between statements a checked-out connection has no query to report a fault to: listen, or it crashes us.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
        if (isConnectionFault(error)) availability.reportFault(error);
      };
      client.on('error', onError);
      try {
        const tx = asQueryable(client);
        await tx.query('begin');
        const result = await work(tx);
        await tx.query('commit');
        return result;
      } catch (error) {
        if (isStoreUnavailable(error)) broken ??= error as Error;
        await client.query('rollback').catch((rollbackError: Error) => {
          broken ??= rollbackError;
        });
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken ?? false); // a broken connection is destroyed, not returned to the pool
      }
    },
    availability: () => availability.state(),
    async close() {
      availability.close();
      await pool.end();
    },
  };
}
