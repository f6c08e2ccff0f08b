// State that must hold across requests and instances: rate limits counted per API key in the database,
// and, with several instances over one PostgreSQL, shared sessions, shared counters and instant revocation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { freshPostgresUrl, storeKinds } from '../../helpers/stores.ts';
import { DashboardClient, search } from './dashboard-client.ts';

const RPM = 8;

for (const store of storeKinds()) {
  describe(`per-key rate limits on ${store}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ store, config: { TOOLDEX_AUTH: 'required', TOOLDEX_RATE_LIMIT_RPM: RPM } });
    });
    after(() => server.close());

    it(`limits each key on its own budget, counted ${store === 'postgres' ? 'in the database' : 'in the one process'}`, async () => {
      const client = new DashboardClient(server.url);
      await client.signUp(`rl.${Date.now()}@example.com`);
      const orgId = await client.createOrg(`Rate ${Date.now()}`);
      const first = await client.createKey(orgId, 'first');
      const second = await client.createKey(orgId, 'second');
      const statuses: number[] = [];
      for (let i = 0; i < RPM + 1; i++) statuses.push((await search(server.url, first.key)).status);
      assert.deepEqual(statuses, [...Array(RPM).fill(200), 429]);
      const limited = await search(server.url, first.key);
      assert.equal((await limited.json()).error.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.equal((await search(server.url, second.key)).status, 200, 'another key has its own budget');
      const rows = await server.app.store.query<{ hits: number }>("select hits from rate_limit_counters where bucket like $1", [`%key:${first.id}`]);
      if (store === 'postgres') assert.equal(rows[0]?.hits, RPM + 2, 'the counter lives in the shared database');
      else assert.equal(rows.length, 0, 'the embedded store (one process) counts in memory, not with a write per request');
    });
  });
}

describe('two instances over one PostgreSQL', { skip: !process.env.TEST_DATABASE_URL && 'set TEST_DATABASE_URL' }, () => {
  let database: Awaited<ReturnType<typeof freshPostgresUrl>>;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    database = await freshPostgresUrl();
    const config = { DATABASE_URL: database.url, TOOLDEX_AUTH: 'required' as const, TOOLDEX_RATE_LIMIT_RPM: 10 };
    a = await startServer({ config });
    b = await startServer({ config });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it('shares sessions, and a key revoked on one instance is refused by the other on its next request', async () => {
    const onA = new DashboardClient(a.url);
    await onA.signUp(`multi.${Date.now()}@example.com`);
    const orgId = await onA.createOrg(`Multi ${Date.now()}`);
    const { id, key } = await onA.createKey(orgId);
    assert.equal((await search(b.url, key)).status, 200, 'B accepts a key created on A');

    const onB = Object.assign(Object.create(DashboardClient.prototype), onA, { base: b.url }) as DashboardClient;
    const revoked = await onB.call('POST', `/dashboard/api/orgs/${orgId}/keys/${id}/revoke`);
    assert.equal(revoked.status, 200, 'the session made on A works on B');
    assert.equal((await search(a.url, key)).status, 403, 'A refuses it at once');
    assert.equal((await search(b.url, key)).status, 403);
  });

  it('counts one budget across both instances', async () => {
    const client = new DashboardClient(a.url);
    await client.signUp(`budget.${Date.now()}@example.com`);
    const { key } = await client.createKey(await client.createOrg(`Budget ${Date.now()}`));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await search(i % 2 === 0 ? a.url : b.url, key)).status);
    assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
  });
});
