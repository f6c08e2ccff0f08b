// The @fastify/rate-limit store adapter over the auth counters: a route with its own budget (as POST /tools/test
// has) counts in its own namespace, apart from the global budget, on both stores.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { sharedRateLimitStore } from '../../../src/http/rate-limit-store.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';

for (const store of storeKinds()) {
  describe(`rate-limit store adapter on ${store}`, () => {
    let server: TestServer;
    let api: FastifyInstance;
    let url: string;
    before(async () => {
      server = await startServer({ store });
      api = Fastify();
      await api.register(rateLimit, { global: true, max: 4, timeWindow: 60_000, store: sharedRateLimitStore(server.app.auth), keyGenerator: () => 'client' });
      api.get('/plain', async () => 'ok');
      api.post('/run', { config: { rateLimit: { max: 2, timeWindow: 60_000 } } }, async () => 'ran');
      url = await api.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await api.close();
      await server.close();
    });

    it('keeps a route budget apart from the global one', async () => {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) runs.push((await fetch(`${url}/run`, { method: 'POST' })).status);
      assert.deepEqual(runs, [200, 200, 429]);
      const plain: number[] = [];
      for (let i = 0; i < 5; i++) plain.push((await fetch(`${url}/plain`)).status);
      assert.deepEqual(plain, [200, 200, 200, 200, 429], 'the route budget did not use up the global one');
      const limited = await fetch(`${url}/plain`);
      const reset = Number(limited.headers.get('x-ratelimit-reset'));
      assert.ok(reset > 50 && reset <= 60, `window of a minute (${reset} s left)`);
    });
  });
}
