// Server store: a PostgreSQL connection pool behind the same query layer as the embedded store.
import pg from 'pg';
import type { Queryable, SqlParam, Store } from './types.ts';

export async function openPostgres(url: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query('select 1'); // fail fast with the server's own message
  const asQueryable = (target: Pick<pg.Pool, 'query'>): Queryable => ({
    async query<Row>(sql: string, params: SqlParam[] = []) {
      return (await target.query(sql, params)).rows as Row[];
    },
  });
  return {
    kind: 'postgres',
    ...asQueryable(pool),
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(asQueryable(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
