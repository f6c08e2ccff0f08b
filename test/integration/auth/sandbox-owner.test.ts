// API keys meet the sandbox: a session belongs to the organisation of the key that made it, so another
// organisation's key gets 404 for it; test runs are counted per key for the usage panel.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { DashboardClient } from './dashboard-client.ts';

const run = (base: string, key: string, body: Record<string, unknown>) => fetch(`${base}/tools/test`, {
  method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
});

describe('sandbox sessions are scoped to the key\'s organisation', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ config: { TOOLDEX_AUTH: 'required' } });
  });
  after(() => server.close());

  it("answers 404 when one organisation's key names another organisation's session, and counts test runs", async (t) => {
    const alice = new DashboardClient(server.url);
    await alice.signUp('alice.sandbox@example.com');
    const aliceOrg = await alice.createOrg('Sandbox Alice');
    const aliceKey = await alice.createKey(aliceOrg, 'runner');
    const bob = new DashboardClient(server.url);
    await bob.signUp('bob.sandbox@example.com');
    const bobKey = await bob.createKey(await bob.createOrg('Sandbox Bob'), 'runner');

    const first = await run(server.url, aliceKey.key, { language: 'javascript', runtime: 'node', files: [{ path: 'index.js', code: 'console.log(6 * 7)' }] });
    assert.equal(first.status, 200);
    const result = await first.json();
    if (result.status === 'unavailable') return t.skip(`sandbox unavailable here: ${result.error?.message ?? ''}`);
    assert.equal(result.ok, true, JSON.stringify(result).slice(0, 400));
    assert.ok(result.sessionId);

    const stolen = await run(server.url, bobKey.key, { language: 'javascript', runtime: 'node', sessionId: result.sessionId, entry: 'index.js' });
    assert.equal(stolen.status, 404);
    assert.equal((await stolen.json()).error.code, 'session_not_found');

    const reused = await run(server.url, aliceKey.key, { language: 'javascript', runtime: 'node', sessionId: result.sessionId, entry: 'index.js' });
    assert.equal(reused.status, 200, 'the owner can reuse it');

    const usage = await alice.call('GET', `/dashboard/api/orgs/${aliceOrg}/keys/${aliceKey.id}/usage?days=1`);
    assert.deepEqual(usage.body.days.map((d: { requests: number; testRuns: number }) => [d.requests, d.testRuns]), [[2, 2]]);
  });
});
