// A Redis (REDIS_URL, shared rate-limit counters) that goes away and comes back under a real tooldex process:
// nothing crashes or fails, limits keep holding per instance meanwhile, the log says once gone and once back.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Redis } from 'ioredis';
import { freshHome } from '../../helpers/stores.ts';
import { hasRedisServer, startOwnRedis, startTooldex, type OwnRedis, type TooldexProcess } from '../../helpers/processes.ts';

const LIMIT = 5;
const search = (base: string) => fetch(`${base}/tools/search?q=http%20client&limit=1`).then((r) => r.status);
const burst = async (base: string, n: number) => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push(await search(base));
  return statuses;
};
const keysIn = async (url: string) => {
  const client = new Redis(url);
  try {
    return await client.keys('tooldex:rl:*');
  } finally {
    client.disconnect();
  }
};

describe('Redis outage under a running instance', { skip: !hasRedisServer() && 'redis-server is not installed (scripts/setup.sh)' }, () => {
  let redis: OwnRedis;
  let instance: TooldexProcess;
  let home: string;

  before(async () => {
    redis = await startOwnRedis();
    home = await freshHome();
    instance = await startTooldex({ TOOLDEX_HOME: home, REDIS_URL: redis.url, TOOLDEX_RATE_LIMIT_RPM: String(LIMIT) });
  });
  after(async () => {
    await instance?.dispose();
    await redis?.dispose();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('degrades to per-instance limits while Redis is away, and shares them again when it is back', async () => {
    assert.deepEqual(await burst(instance.url, LIMIT + 1), [...Array(LIMIT).fill(200), 429], 'limit counted in Redis');
    assert.equal((await keysIn(redis.url)).length, 1);

    await redis.stop();
    await instance.waitForLog((line) => line.msg.startsWith('redis unavailable'), 10_000);
    // Counted in this instance's memory now: served, and still limited.
    assert.deepEqual(await burst(instance.url, LIMIT + 1), [...Array(LIMIT).fill(200), 429]);
    assert.equal((await fetch(`${instance.url}/healthz`)).status, 200, 'Redis is not needed to be ready');

    await redis.start();
    await instance.waitForLog((line) => line.msg.startsWith('redis available again'), 15_000);
    assert.equal(await search(instance.url), 200);
    assert.equal((await keysIn(redis.url)).length, 1, 'counting in Redis again');
    assert.equal(instance.child.exitCode, null, 'still running');
    assert.equal(instance.logs.filter((line) => line.msg.startsWith('redis unavailable')).length, 1, 'logged once gone');
    assert.equal(instance.logs.filter((line) => line.msg.startsWith('redis available again')).length, 1, 'logged once back');
    assert.ok(!instance.logs.some((line) => line.level >= 50), 'no error lines');
  });
});
