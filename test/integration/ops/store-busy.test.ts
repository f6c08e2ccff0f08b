// Every pooled connection busy is load, not an outage: the call that waited too long gets 503 store_unavailable
// ("busy"), but the store is not marked away, so the next call after the load passes is served at once. Under a
// loaded CI machine, a pool wait used to mark the whole store away and fail unrelated calls.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openPostgres } from '../../../src/store/postgres.ts';
import type { Store } from '../../../src/store/types.ts';
import { freshPostgresUrl } from '../../helpers/stores.ts';

describe('a busy PostgreSQL pool', { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' }, () => {
  let database: Awaited<ReturnType<typeof freshPostgresUrl>>;
  let store: Store;
  before(async () => {
    database = await freshPostgresUrl();
    store = await openPostgres(database.url);
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  it('refuses the call that found no free connection, and keeps serving once one is free', async () => {
    // Hold every connection of the pool (10) for longer than the pool's 5 s wait.
    const sleepers = Array.from({ length: 10 }, () => store.query('select pg_sleep(7)'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await assert.rejects(store.query('select 1'), (error: { code?: string; status?: number; message: string }) =>
      error.code === 'store_unavailable' && error.status === 503 && /busy/.test(error.message));
    await Promise.all(sleepers);
    const started = Date.now();
    assert.deepEqual(await store.query<{ one: number }>('select 1 as one'), [{ one: 1 }], 'served, not refused as away');
    assert.ok(Date.now() - started < 1000, 'without waiting for an availability probe');
  });
});
