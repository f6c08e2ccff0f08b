// The auth area through the front door: API-key enforcement, the dashboard API (accounts, organisations,
// invites, keys, usage), CSRF, cross-organisation access, brute-force throttling and per-key rate limits.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateApiKey } from '../../../src/auth/key-format.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';
import { DashboardClient, search } from './dashboard-client.ts';

const unique = () => Math.random().toString(36).slice(2, 10);

for (const store of storeKinds()) {
  describe(`auth and dashboard API on ${store}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ store, config: { TOOLDEX_AUTH: 'required', TOOLDEX_RATE_LIMIT_RPM: 1000 } });
    });
    after(() => server.close());

    it('answers 401 missing_api_key without a key and 403 invalid_api_key for bad ones', async () => {
      const missing = await search(server.url);
      assert.equal(missing.status, 401);
      assert.equal((await missing.json()).error.code, 'missing_api_key');
      const typo = generateApiKey().replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
      for (const authorization of ['Bearer nonsense', `Bearer ${generateApiKey()}`, `Bearer ${typo}`, 'Basic dXNlcjpwYXNz', 'Bearer']) {
        const response = await search(server.url, undefined, authorization);
        assert.equal(response.status, 403, authorization.slice(0, 12));
        const body = await response.json();
        assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'status']);
        assert.equal(body.error.code, 'invalid_api_key');
      }
      const mcp = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(mcp.status, 401, '/mcp is protected');
    });

    it('keeps /healthz, /openapi.json, /icons and the dashboard open', async () => {
      for (const path of ['/healthz', '/openapi.json', '/icons/npm.svg']) {
        assert.equal((await fetch(`${server.url}${path}`)).status, 200, path);
      }
      const dashboard = await fetch(`${server.url}/dashboard`, { redirect: 'manual' });
      assert.equal(dashboard.status, 302);
      const page = await fetch(`${server.url}/dashboard/`);
      assert.equal(page.status, 200, 'built by the pretest step (npm run build:web)');
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'.*frame-ancestors 'none'/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
      assert.ok(asset, 'the page loads its bundle from /assets/ (shared with the explorer at /)');
      const bundle = await fetch(`${server.url}${asset}`);
      assert.equal(bundle.status, 200);
      assert.match(bundle.headers.get('cache-control') ?? '', /immutable/);
    });

    it('signs up with an HttpOnly SameSite cookie, and refuses duplicate emails and weak passwords per field', async () => {
      const email = `Ada.${unique()}@Example.com`;
      const client = new DashboardClient(server.url);
      const created = await client.signUp(email);
      assert.equal(created.status, 201);
      assert.equal(created.body.user.email, email.toLowerCase());
      assert.ok(!('passwordHash' in created.body.user) && !JSON.stringify(created.body).includes('scrypt'));
      const cookie = created.headers.get('set-cookie') ?? '';
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, /SameSite=Strict/i);
      assert.doesNotMatch(cookie, /Secure/i, 'plain http: no Secure flag');
      const me = await client.call('GET', '/dashboard/api/me');
      assert.equal(me.status, 200);
      assert.equal(me.body.user.email, email.toLowerCase());

      const again = await new DashboardClient(server.url).signUp(email.toUpperCase());
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, 'email_taken');
      assert.equal(again.body.error.field, 'email');

      const weak = await new DashboardClient(server.url).signUp(`b.${unique()}@example.com`, 'short');
      assert.equal(weak.status, 422);
      assert.equal(weak.body.error.field, 'password');
      assert.match(weak.body.error.message, /at least 10 characters/);

      const badEmail = await new DashboardClient(server.url).signUp('not-an-email');
      assert.equal(badEmail.status, 422);
      assert.equal(badEmail.body.error.field, 'email');
    });

    it('sets Secure on the cookie behind TLS (X-Forwarded-Proto: https)', async () => {
      const client = new DashboardClient(server.url);
      const response = await client.call('POST', '/dashboard/api/signup', { email: `tls.${unique()}@example.com`, password: 'correct horse battery' },
        { 'x-forwarded-proto': 'https' });
      assert.equal(response.status, 201);
      assert.match(response.headers.get('set-cookie') ?? '', /; Secure/i);
    });

    it('refuses state changes without the CSRF token and cross-site sign-ins', async () => {
      const client = new DashboardClient(server.url);
      await client.signUp(`csrf.${unique()}@example.com`);
      const token = client.csrf;
      client.csrf = '';
      const noToken = await client.call('POST', '/dashboard/api/orgs', { name: `org ${unique()}` });
      assert.equal(noToken.status, 403);
      assert.equal(noToken.body.error.code, 'csrf_failed');
      client.csrf = 'x'.repeat(token.length);
      assert.equal((await client.call('POST', '/dashboard/api/orgs', { name: `org ${unique()}` })).status, 403);
      client.csrf = token;
      assert.equal((await client.call('POST', '/dashboard/api/orgs', { name: `org ${unique()}` })).status, 201);

      const crossSite = await new DashboardClient(server.url).call('POST', '/dashboard/api/signup',
        { email: `x.${unique()}@example.com`, password: 'correct horse battery' }, { origin: 'https://evil.example' });
      assert.equal(crossSite.status, 403);
      assert.equal(crossSite.body.error.code, 'csrf_failed');
      for (const origin of ['null', 'not a url']) {
        const odd = await new DashboardClient(server.url).call('POST', '/dashboard/api/login',
          { email: 'x@example.com', password: 'whatever password' }, { origin });
        assert.equal(odd.status, 403, origin);
      }
      const anonymous = await new DashboardClient(server.url).call('GET', '/dashboard/api/me');
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, 'not_signed_in');
    });

    it('creates a key shown once, authenticates with it, records usage, and rejects it right after revocation', async () => {
      const client = new DashboardClient(server.url);
      await client.signUp(`keys.${unique()}@example.com`);
      const orgId = await client.createOrg(`Keys ${unique()}`);
      const created = await client.createKey(orgId, 'ci');
      assert.match(created.key, /^tdx_[0-9A-Za-z]{38}$/);

      for (let i = 0; i < 3; i++) assert.equal((await search(server.url, created.key)).status, 200);
      const listed = await client.call('GET', `/dashboard/api/orgs/${orgId}/keys`);
      assert.equal(listed.status, 200);
      const [info] = listed.body.keys;
      assert.equal(info.id, created.id);
      assert.equal(info.name, 'ci');
      assert.ok(created.key.startsWith(info.prefix) && info.prefix.length < 16);
      assert.ok(!JSON.stringify(listed.body).includes(created.key), 'the key is never shown again');
      assert.match(info.createdBy, /^keys\./);

      const usage = await client.call('GET', `/dashboard/api/orgs/${orgId}/keys/${created.id}/usage?days=7`);
      assert.equal(usage.status, 200);
      assert.equal(usage.body.days.length, 7);
      assert.equal(usage.body.days.at(-1).requests, 3);
      assert.equal(usage.body.days.at(-1).testRuns, 0);
      assert.ok(usage.body.key.lastUsedAt, 'last used is set');

      const revoked = await client.call('POST', `/dashboard/api/orgs/${orgId}/keys/${created.id}/revoke`);
      assert.equal(revoked.status, 200);
      assert.ok(revoked.body.revokedAt);
      const after = await search(server.url, created.key);
      assert.equal(after.status, 403);
      assert.equal((await after.json()).error.code, 'invalid_api_key');
    });

    it("answers 404 for another organisation's keys, members and invites", async () => {
      const alice = new DashboardClient(server.url);
      await alice.signUp(`alice.${unique()}@example.com`);
      const aliceOrg = await alice.createOrg(`Alice ${unique()}`);
      const aliceKey = await alice.createKey(aliceOrg);
      const mallory = new DashboardClient(server.url);
      await mallory.signUp(`mallory.${unique()}@example.com`);
      const malloryOrg = await mallory.createOrg(`Mallory ${unique()}`);

      const attempts: Array<[string, string, unknown?]> = [
        ['GET', `/dashboard/api/orgs/${aliceOrg}/keys`],
        ['GET', `/dashboard/api/orgs/${aliceOrg}/members`],
        ['POST', `/dashboard/api/orgs/${aliceOrg}/keys`, { name: 'stolen' }],
        ['POST', `/dashboard/api/orgs/${aliceOrg}/keys/${aliceKey.id}/revoke`],
        ['POST', `/dashboard/api/orgs/${malloryOrg}/keys/${aliceKey.id}/revoke`],
        ['GET', `/dashboard/api/orgs/${malloryOrg}/keys/${aliceKey.id}/usage`],
        ['POST', `/dashboard/api/orgs/${aliceOrg}/invites`, { email: 'm2@example.com' }],
      ];
      for (const [method, path, body] of attempts) {
        const response = await mallory.call(method, path, body);
        assert.equal(response.status, 404, `${method} ${path}`);
        assert.equal(response.body.error.code, 'not_found');
      }
      assert.equal((await search(server.url, aliceKey.key)).status, 200, "Alice's key still works");
      const nonsense = await mallory.call('GET', '/dashboard/api/orgs/not-an-id/keys');
      assert.equal(nonsense.status, 422);
      assert.equal(nonsense.body.error.field, 'orgId');
    });

    it('invites by link: accepted once by the invited address; reused, expired and wrong-account links refused', async () => {
      const owner = new DashboardClient(server.url);
      await owner.signUp(`owner.${unique()}@example.com`);
      const orgId = await owner.createOrg(`Team ${unique()}`);
      const inviteeEmail = `invitee.${unique()}@example.com`;
      const invite = await owner.call('POST', `/dashboard/api/orgs/${orgId}/invites`, { email: inviteeEmail });
      assert.equal(invite.status, 201);
      const token = /#\/invite\/([\w-]+)$/.exec(invite.body.link)?.[1];
      assert.ok(token, invite.body.link);

      const stranger = new DashboardClient(server.url);
      await stranger.signUp(`stranger.${unique()}@example.com`);
      const wrong = await stranger.call('POST', '/dashboard/api/invites/accept', { token });
      assert.equal(wrong.status, 403);
      assert.equal(wrong.body.error.code, 'invite_wrong_account');

      const invitee = new DashboardClient(server.url);
      await invitee.signUp(inviteeEmail);
      const accepted = await invitee.call('POST', '/dashboard/api/invites/accept', { token });
      assert.equal(accepted.status, 200);
      assert.equal(accepted.body.id, orgId);
      const members = await invitee.call('GET', `/dashboard/api/orgs/${orgId}/members`);
      assert.deepEqual(members.body.members.map((m: { role: string }) => m.role), ['owner', 'member']);

      const reused = await invitee.call('POST', '/dashboard/api/invites/accept', { token });
      assert.equal(reused.status, 410);
      assert.equal(reused.body.error.code, 'invite_used');

      const second = await owner.call('POST', `/dashboard/api/orgs/${orgId}/invites`, { email: `late.${unique()}@example.com` });
      await server.app.store.query("update invites set expires_at = now() - interval '1 minute' where id = $1", [second.body.id]);
      const late = new DashboardClient(server.url);
      await late.signUp(second.body.email);
      const expired = await late.call('POST', '/dashboard/api/invites/accept', { token: /#\/invite\/([\w-]+)$/.exec(second.body.link)?.[1] });
      assert.equal(expired.status, 410);
      assert.equal(expired.body.error.code, 'invite_expired');
      const unknown = await late.call('POST', '/dashboard/api/invites/accept', { token: 'A'.repeat(43) });
      assert.equal(unknown.status, 404);
    });

    it('throttles brute-force sign-in: after 5 failures even the right password is refused with 429', async () => {
      const email = `brute.${unique()}@example.com`;
      const password = 'correct horse battery';
      await new DashboardClient(server.url).signUp(email, password);
      const ok = await new DashboardClient(server.url).call('POST', '/dashboard/api/login', { email, password });
      assert.equal(ok.status, 200);
      for (let i = 0; i < 5; i++) {
        const wrong = await new DashboardClient(server.url).call('POST', '/dashboard/api/login', { email, password: `wrong-${i}-password` });
        assert.equal(wrong.status, 401);
        assert.equal(wrong.body.error.code, 'invalid_credentials');
      }
      const locked = await new DashboardClient(server.url).call('POST', '/dashboard/api/login', { email, password });
      assert.equal(locked.status, 429);
      assert.equal(locked.body.error.code, 'too_many_attempts');
      assert.ok(Number(locked.headers.get('retry-after')) > 60);
      const unknownUser = await new DashboardClient(server.url).call('POST', '/dashboard/api/login', { email: `nobody.${unique()}@example.com`, password });
      assert.equal(unknownUser.status, 401, 'unknown email answers like a wrong password');
    });

    it('logs out: the session cookie stops working', async () => {
      const client = new DashboardClient(server.url);
      await client.signUp(`bye.${unique()}@example.com`);
      const stale = { ...client } as DashboardClient;
      assert.equal((await client.call('POST', '/dashboard/api/logout')).status, 204);
      const me = await DashboardClient.prototype.call.call(stale, 'GET', '/dashboard/api/me');
      assert.equal(me.status, 401);
    });
  });
}
