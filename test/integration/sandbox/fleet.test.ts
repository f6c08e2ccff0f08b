// Sandbox sessions across two instances on one PostgreSQL, through POST /tools/test: a call for a session held by the
// other instance is forwarded there; eviction touches each instance's own sessions only; a session whose instance has
// been gone for a minute is taken over (its packages installed again, its files asked for again).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createApp, type App } from '../../../src/app.ts';
import { loadConfig, type ConfigOverrides } from '../../../src/config.ts';
import { buildServer, type Server } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/log.ts';
import type { TestServer } from '../../helpers/server.ts';
import { freshHome, freshPostgresUrl } from '../../helpers/stores.ts';
import { file, postTest, SHARED_CACHE } from './helpers.ts';

interface Instance { url: string; app: App; server: Server; home: string; close(): Promise<void> }

async function startInstance(databaseUrl: string, overrides: ConfigOverrides = {}): Promise<Instance> {
  const home = await freshHome();
  const config = loadConfig({
    TOOLDEX_HOME: home, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', TOOLDEX_TEST_RPM: 1000, TOOLDEX_DOCS_SITES: 'off',
    TOOLDEX_SANDBOX_CACHE_DIR: SHARED_CACHE, ...overrides,
  }, {});
  const app = await createApp(config, createLogger('silent'));
  const server = await buildServer(app);
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  await app.sandbox.advertise(url);
  let closed = false;
  return {
    url, app, server, home,
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
      await app.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** postTest needs only the server's URL. */
const at = (instance: Instance) => ({ url: instance.url }) as unknown as TestServer;

const skip = process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (two instances share one PostgreSQL)';

describe('sandbox sessions across two instances on one PostgreSQL', { skip }, () => {
  let database: Awaited<ReturnType<typeof freshPostgresUrl>>;
  let a: Instance;
  let b: Instance;
  before(async () => {
    database = await freshPostgresUrl();
    // One redaction key for the fleet (it also signs forwarded calls); B has a small disk budget.
    const key = 'ab'.repeat(32);
    a = await startInstance(database.url, { TOOLDEX_SANDBOX_SECRET_KEY: key });
    b = await startInstance(database.url, { TOOLDEX_SANDBOX_SECRET_KEY: key, TOOLDEX_SANDBOX_DISK_MB: 16 });
  });
  after(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });
  const imageOf = (instance: Instance, id: string) => path.join(instance.home, 'sandbox', 'sessions', `${id}.img`);

  let sessionId = '';
  it('a session made on A answers on B (forwarded to A, which holds its files and packages), secrets stay redacted', async () => {
    const made = await postTest(at(a), {
      language: 'javascript', runtime: 'node', packages: ['is-number@7.0.0'],
      files: [file('keep.js', 'console.log(require("is-number")(4), require("fs").readFileSync("note.txt", "utf8"))'), file('note.txt', 'kept on A')],
      env: [{ name: 'TOKEN', secret: 'fleet-secret-4471' }], entry: 'keep.js',
    });
    assert.equal(made.body.status, 'ran', made.text);
    sessionId = made.body.sessionId;
    const leak = await postTest(at(a), {
      language: 'javascript', runtime: 'node', sessionId, files: [file('leak.js', 'require("fs").writeFileSync("t.txt", process.env.TOKEN); console.log(process.env.TOKEN)')],
      env: [{ name: 'TOKEN', secret: 'fleet-secret-4471' }], entry: 'leak.js',
    });
    assert.equal(leak.body.stdout, '[REDACTED]\n');
    const onB = await postTest(at(b), { language: 'javascript', runtime: 'node', sessionId, entry: 'keep.js', files: [] });
    assert.equal(onB.body.status, 'ran', onB.text);
    assert.equal(onB.body.stdout, 'true kept on A\n');
    assert.equal(onB.body.sessionReused, true);
    assert.equal(onB.body.phases.installMs, 0);
    assert.equal(fs.existsSync(imageOf(b, sessionId)), false, 'B holds no copy');
    const secretOnB = await postTest(at(b), { language: 'javascript', runtime: 'node', sessionId, entry: 'r.js', files: [file('r.js', 'console.log(require("fs").readFileSync("t.txt", "utf8"))')] });
    assert.equal(secretOnB.body.stdout, '[REDACTED]\n', 'a later call through B is redacted too');
  });

  it('B evicts only its own sessions past its budget; A\'s session stays', async () => {
    const fill = await postTest(at(b), { language: 'javascript', runtime: 'node', files: [file('f.js', 'require("fs").writeFileSync("blob", Buffer.alloc(12 << 20, 1))')] });
    assert.equal(fill.body.status, 'ran', fill.text);
    const again = await postTest(at(b), { language: 'javascript', runtime: 'node', files: [file('g.js', 'require("fs").writeFileSync("blob", Buffer.alloc(12 << 20, 1))')] });
    assert.equal(again.body.status, 'ran', again.text);
    await b.app.sandbox.settled();
    assert.equal((await postTest(at(b), { language: 'javascript', runtime: 'node', sessionId: fill.body.sessionId, entry: 'f.js', files: [] })).status, 404, 'B evicted its older session');
    assert.ok(fs.existsSync(imageOf(a, sessionId)), 'A\'s volume is untouched');
    const rows = await b.app.store.query<{ id: string }>('select id from sandbox_sessions where id = $1', [sessionId]);
    assert.equal(rows.length, 1, 'A\'s row is untouched');
  });

  it('a session whose instance has been gone a minute is taken over: packages again, files asked for again', async () => {
    await a.close();
    // A minute of silence, without waiting for it: A's last heartbeat is moved back.
    await b.app.store.query("update sandbox_instances set seen_at = now() - interval '5 minutes' where url = $1", [a.url]);
    const withoutFiles = await postTest(at(b), { language: 'javascript', runtime: 'node', sessionId, entry: 'keep.js', files: [] });
    assert.equal(withoutFiles.status, 422, withoutFiles.text);
    assert.equal(withoutFiles.body.error.code, 'entry_not_found');
    assert.match(withoutFiles.body.error.message, /the instance that held this session's files is gone/);
    const withFiles = await postTest(at(b), {
      language: 'javascript', runtime: 'node', sessionId, entry: 'keep.js',
      files: [file('keep.js', 'console.log(require("is-number")(4), process.env.TOKEN)')], env: [{ name: 'TOKEN', secret: 'fleet-secret-4471' }],
    });
    assert.equal(withFiles.body.status, 'ran', withFiles.text);
    assert.equal(withFiles.body.stdout, 'true [REDACTED]\n');
    assert.ok(withFiles.body.phases.installMs > 0, 'the session\'s pin was installed again');
    assert.match(withFiles.body.stderr, /this session's instance is gone/);
    assert.ok(fs.existsSync(imageOf(b, sessionId)));
  });

  it('refuses a forwarded call that the fleet did not sign', async () => {
    const response = await fetch(`${b.url}/internal/sandbox/test`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-tooldex-fleet-signature': '0'.repeat(64) },
      body: JSON.stringify({ request: { language: 'javascript', runtime: 'node', files: [{ path: 'a.js', code: '1' }] }, owner: 'ip:127.0.0.1', at: Date.now() }),
    });
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'forbidden');
  });
});
