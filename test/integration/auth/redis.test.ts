// REDIS_URL: rate-limit counters in Redis, shared by two instances that have separate stores; a Redis that
// goes away lets requests through instead of failing them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { startServer, type TestServer } from '../../helpers/server.ts';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const search = (base: string) => fetch(`${base}/tools/search?q=http%20client&limit=1`);

describe('rate-limit counters in Redis', { skip: !hasRedis && 'redis-server is not installed (scripts/setup.sh installs it)' }, () => {
  let redis: ChildProcess;
  let url: string;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let attempt = 0; ; attempt++) {
      const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
      client.on('error', () => undefined);
      const pong = await client.connect().then(() => client.ping(), () => undefined);
      client.disconnect();
      if (pong === 'PONG') break;
      if (attempt > 100) throw new Error(`redis-server did not start on ${url}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const config = { REDIS_URL: url, TOOLDEX_RATE_LIMIT_RPM: 6 };
    a = await startServer({ config });
    b = await startServer({ config });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    redis?.kill('SIGTERM');
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
    redis.kill('SIGKILL');
    await new Promise((resolve) => redis.once('exit', resolve));
    const response = await search(a.url);
    assert.equal(response.status, 200, 'served unlimited rather than failed');
  });
});
