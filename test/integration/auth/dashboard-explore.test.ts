// Dashboard API rules found in use, through the front door: organisation names are unique per user and never
// reveal another customer's; a key needs a name; the explorer's session paths (auth required) run as the user's
// organisation with its own test budget; the web pages (explorer at /, dashboard, shared assets) are served.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';
import { run } from '../mcp/fixtures.ts';
import { bin, cleanEnv } from '../mcp/fixtures.ts';
import { DashboardClient } from './dashboard-client.ts';

for (const store of storeKinds()) {
  describe(`dashboard API rules and the explorer's session paths on ${store}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ store, config: { TOOLDEX_AUTH: 'required', TOOLDEX_TEST_RPM: 2 } });
    });
    after(() => server.close());

    it('organisation names are unique per user: a name another customer uses is free, one of your own is refused', async () => {
      const ada = new DashboardClient(server.url);
      await ada.signUp('ada@example.com');
      const first = await ada.createOrg('Acme Robotics');

      const bob = new DashboardClient(server.url);
      await bob.signUp('bob@example.com');
      const bobs = await bob.call('POST', '/dashboard/api/orgs', { name: 'acme robotics' });
      assert.equal(bobs.status, 201, 'another customer may use the same name: nothing tells Bob that Ada has one');
      assert.notEqual(bobs.body.id, first);

      const again = await ada.call('POST', '/dashboard/api/orgs', { name: 'ACME Robotics' });
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, 'org_name_taken');
      assert.equal(again.body.error.field, 'name');
      assert.match(again.body.error.message, /^You already have an organisation named/);

      // A name you hold by invitation counts as yours too (two of one name in one picker could not be told apart).
      const invite = await bob.call('POST', `/dashboard/api/orgs/${bobs.body.id}/invites`, { email: 'cy@example.com' });
      const cy = new DashboardClient(server.url);
      await cy.signUp('cy@example.com');
      await cy.call('POST', '/dashboard/api/invites/accept', { token: String(invite.body.link).split('/invite/')[1] });
      assert.equal((await cy.call('POST', '/dashboard/api/orgs', { name: 'Acme robotics' })).status, 409);
      assert.equal((await cy.call('POST', '/dashboard/api/orgs', { name: 'Cy Labs' })).status, 201);
    });

    it('operators name an organisation by id when several share its name (the CLI sees every organisation)', async () => {
      const env = cleanEnv(store === 'postgres' ? { DATABASE_URL: server.app.config.DATABASE_URL! } : { TOOLDEX_HOME: server.home });
      // The embedded store is held by the test server: the CLI would need its admin socket, so call the capability.
      const ambiguous = await server.app.auth.keys.createForOrgName({ org: 'acme robotics', name: 'ci', createdBy: 'operator' }).catch((error: Error & { code?: string }) => error);
      assert.equal((ambiguous as { code?: string }).code, 'org_name_ambiguous');
      assert.match((ambiguous as Error).message, /2 organisations are named "acme robotics": org_\S+ \(owner ada@example\.com\), org_\S+ \(owner bob@example\.com\); pass --org with the id/);
      const ids = (ambiguous as unknown as { details: { ids: string[] } }).details.ids;
      const created = await server.app.auth.keys.createForOrgName({ org: ids[1]!, name: 'ci', createdBy: 'operator' });
      assert.equal(created.orgId, ids[1]);
      if (store === 'postgres') {
        const listed = await run(process.execPath, [bin, 'keys', 'list', '--org', ids[1]!, '--json'], { env });
        assert.equal(listed.code, 0, listed.stderr);
        assert.deepEqual((JSON.parse(listed.stdout) as { keys: Array<{ id: string }> }).keys.map((k) => k.id), [created.id]);
      }
    });

    it('a new key needs a name: an empty one is refused naming the field, not created as "default"', async () => {
      const dee = new DashboardClient(server.url);
      await dee.signUp('dee@example.com');
      const org = await dee.createOrg('Dee');
      const empty = await dee.call('POST', `/dashboard/api/orgs/${org}/keys`, { name: '   ' });
      assert.equal(empty.status, 422);
      assert.equal(empty.body.error.field, 'name');
      assert.equal((await dee.call('GET', `/dashboard/api/orgs/${org}/keys`)).body.keys.length, 0);
    });

    it('tells any page the auth mode and test budget without a session', async () => {
      const info = await fetch(`${server.url}/dashboard/api/server`);
      assert.equal(info.status, 200);
      assert.deepEqual(await info.json(), { auth: 'required', testRunsPerMinute: 2 });
    });

    it('serves the explorer at /, the dashboard at /dashboard/, and their shared assets, with strict headers', async () => {
      for (const path of ['/', '/dashboard/']) {
        const page = await fetch(`${server.url}${path}`);
        assert.equal(page.status, 200, path);
        assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'.*frame-ancestors 'none'/);
        const html = await page.text();
        assert.match(html, path === '/' ? /<title>tooldex explorer<\/title>/ : /<title>tooldex dashboard<\/title>/);
        for (const asset of html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) {
          const response = await fetch(`${server.url}${asset[1]}`);
          assert.equal(response.status, 200, asset[1]);
          assert.match(response.headers.get('cache-control') ?? '', /immutable/);
        }
      }
      const missing = await fetch(`${server.url}/assets/nope.js`);
      assert.equal(missing.status, 404);
    });

    it('the explorer paths need a session; with one they answer as /tools/* does, and runs belong to the organisation', async () => {
      assert.equal((await fetch(`${server.url}/dashboard/api/tools/search?q=zod`)).status, 401);
      const eve = new DashboardClient(server.url);
      await eve.signUp('eve@example.com');
      const org = await eve.createOrg('Eve Corp');
      const key = await eve.createKey(org, 'rest');

      const viaSession = await eve.call('GET', '/dashboard/api/tools/search?q=http%20client&limit=3');
      assert.equal(viaSession.status, 200);
      const viaKey = await (await fetch(`${server.url}/tools/search?q=http%20client&limit=3`, { headers: { authorization: `Bearer ${key.key}` } })).json();
      assert.deepEqual(viaSession.body, viaKey);
      const invalid = await eve.call('GET', '/dashboard/api/tools/search?q=');
      assert.equal(invalid.status, 422);
      assert.equal(invalid.body.error.code, 'invalid_query');

      const request = { language: 'javascript', runtime: 'node', files: [{ path: 'index.js', code: 'console.log("from the explorer")' }] };
      const noCsrf = await eve.call('POST', `/dashboard/api/orgs/${org}/tools/test`, request, { 'x-csrf-token': 'stale' });
      assert.equal(noCsrf.status, 403);
      assert.equal(noCsrf.body.error.code, 'csrf_failed');
      const ran = await eve.call('POST', `/dashboard/api/orgs/${org}/tools/test`, request);
      assert.equal(ran.status, 200, JSON.stringify(ran.body).slice(0, 300));
      assert.equal(ran.body.status, 'ran');
      assert.match(ran.body.stdout, /from the explorer/);

      // The session belongs to the organisation: its API key reuses it over REST.
      const reused = await (await fetch(`${server.url}/tools/test`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}` },
        body: JSON.stringify({ language: 'javascript', runtime: 'node', files: [], sessionId: ran.body.sessionId, entry: 'index.js' }),
      })).json();
      assert.equal(reused.sessionReused, true, JSON.stringify(reused).slice(0, 300));

      // Another user cannot run as Eve's organisation (not found, as for its keys).
      const mallory = new DashboardClient(server.url);
      await mallory.signUp('mallory@example.com');
      assert.equal((await mallory.call('POST', `/dashboard/api/orgs/${org}/tools/test`, request)).status, 404);

      // TOOLDEX_TEST_RPM (2 here) per organisation: the third run within the minute is 429 with Retry-After.
      await eve.call('POST', `/dashboard/api/orgs/${org}/tools/test`, request);
      const limited = await eve.call('POST', `/dashboard/api/orgs/${org}/tools/test`, request);
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    });
  });
}
