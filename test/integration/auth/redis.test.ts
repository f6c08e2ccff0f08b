// REDIS_URL: rate-limit counters in Redis, shared by two instances that have separate stores; a Redis that
// goes away lets requests through instead of failing them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { hasRedisServer, startOwnRedis, type OwnRedis } from '../../helpers/processes.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';

const hasRedis = hasRedisServer();

const search = (base: string) => fetch(`${base}/tools/search?q=http%20client&limit=1`);

describe('rate-limit counters in Redis', { skip: !hasRedis && 'redis-server is not installed (scripts/setup.sh installs it)' }, () => {
  let redis: OwnRedis;
  let url: string;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    redis = await startOwnRedis();
    url = redis.url;
    const config = { REDIS_URL: url, TOOLDEX_RATE_LIMIT_RPM: 6 };
    a = await startServer({ config });
    b = await startServer({ config });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await redis?.dispose();
  });

  it('shares one budget across two instances with separate stores', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await search(i % 2 ? b.url : a.url)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429]);
    const client = new Redis(url);
    const keys = await client.keys('tooldex:rl:*');
    const ttl = await client.pttl(keys[0] ?? '');
    client.disconnect();
    assert.deepEqual(keys, ['tooldex:rl:all|ip:127.0.0.1']);
    assert.ok(ttl > 50_000 && ttl <= 60_000, `a one-minute window (${ttl} ms left)`);
    const rows = await a.app.store.query('select * from rate_limit_counters');
    assert.equal(rows.length, 0, 'nothing counted in the store');
  });

  it('lets requests through when Redis goes away', async () => {
    await redis.stop(); // SIGKILL
    const response = await search(a.url);
    assert.equal(response.status, 200, 'served unlimited rather than failed');
  });
});
