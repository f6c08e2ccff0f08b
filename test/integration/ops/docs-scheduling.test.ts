// Docs ingestion that one slow registry cannot block: slots per registry, an answer within the request deadline
// (the ingestion goes on), remembered failures with backoff, and leases of a dead process released at start.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { freshHome } from '../../helpers/stores.ts';
import { smallSnapshot, startTooldex, type TooldexProcess } from '../../helpers/processes.ts';
import { addTools } from '../docs/catalog-fixture.ts';
import { startFakePypi, startGatedNpm, type GatedNpm } from './fakes.ts';

const ask = async (base: string, slug: string) => {
  const started = Date.now();
  const response = await fetch(`${base}/tools/docs/${slug}?q=frobnicate%20widgets`);
  const body = await response.json() as { error?: { code: string; message: string }; results?: unknown[] };
  return { status: response.status, body, retryAfter: response.headers.get('retry-after'), ms: Date.now() - started };
};

describe('docs ingestion scheduling (embedded store)', () => {
  let npm: GatedNpm;
  let pypi: Awaited<ReturnType<typeof startFakePypi>>;
  let server: TestServer;

  before(async () => {
    npm = await startGatedNpm(['fx-a', 'fx-b', 'fx-c', 'fx-d']);
    pypi = await startFakePypi();
    server = await startServer({
      config: {
        TOOLDEX_NPM_REGISTRY: npm.url, TOOLDEX_PYPI_URL: pypi.url, TOOLDEX_RATE_LIMIT_RPM: 10_000,
        // The deadline leaves a real first ingestion time to finish on a loaded machine; the fetch timeout is far beyond it.
        TOOLDEX_DOCS_DEADLINE_MS: 10_000, TOOLDEX_FETCH_TIMEOUT_MS: 120_000, TOOLDEX_DOCS_INGESTIONS_PER_REGISTRY: 2,
      },
    });
    await addTools(server, [
      ...['fx-a', 'fx-b', 'fx-c', 'fx-d'].map((name) => ({ slug: `npm-${name}`, ecosystem: 'npm' as const, name })),
      { slug: 'pypi-fxpy', ecosystem: 'pypi', name: 'fxpy' },
    ]);
  });
  after(async () => {
    npm?.release();
    await server?.close();
    await npm?.close();
    await pypi?.close();
  });

  it('answers within the deadline while a registry hangs, and serves another registry meanwhile', async () => {
    const slow = ['fx-a', 'fx-b', 'fx-c'].map((name) => ask(server.url, name));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const python = await ask(server.url, 'pypi:fxpy');
    assert.equal(python.status, 200, JSON.stringify(python.body));
    assert.ok(python.ms < 10_000, `PyPI did not wait behind npm's busy slots (${python.ms} ms)`);
    for (const answer of await Promise.all(slow)) {
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.equal(answer.body.error?.code, 'upstream_unavailable');
      assert.ok(Number(answer.retryAfter) >= 1);
      assert.ok(answer.ms < 60_000, `answered at the 10 s deadline, not after the 120 s fetch timeout (${answer.ms} ms)`);
    }
    // The ingestions went on in the background: once the registry answers, the next question finds them done.
    npm.release();
    for (let attempt = 0; attempt < 50 && server.app.inflight.list().some((work) => work.kind === 'docs-ingestion'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const again = await ask(server.url, 'fx-a');
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(npm.hits.get('/fx-a/-/fx-a-1.0.0.tgz'), 1, 'downloaded once');
  });

  it('remembers a failing registry and backs off instead of asking it on every question', async () => {
    npm.mode = 'fail';
    const first = await ask(server.url, 'fx-d');
    const second = await ask(server.url, 'fx-d');
    const asked = npm.hits.get('/fx-d') ?? 0;
    const third = await ask(server.url, 'fx-d');
    for (const answer of [first, second, third]) {
      assert.equal(answer.status, 503);
      assert.equal(answer.body.error?.code, 'upstream_unavailable');
    }
    assert.equal(asked, 2);
    assert.equal(npm.hits.get('/fx-d') ?? 0, asked, 'the third question did not reach the failing registry');
    assert.match(third.body.error?.message ?? '', /not trying again for \d+ s/);
    assert.ok(Number(third.retryAfter) >= 1);
    npm.mode = 'ok';
  });
});

describe('an ingestion lease left by a killed process (embedded store)', () => {
  it('is released when the store is opened again, so the next question is answered', async () => {
    const npm = await startGatedNpm(['ms'], '2.1.3');
    const home = await freshHome();
    const env = { TOOLDEX_HOME: home, TOOLDEX_NPM_REGISTRY: npm.url, TOOLDEX_FETCH_TIMEOUT_MS: '60000' };
    let first: TooldexProcess | undefined;
    let second: TooldexProcess | undefined;
    try {
      first = await startTooldex(env);
      const pending = fetch(`${first.url}/tools/docs/ms?q=frobnicate`).catch(() => undefined);
      for (let i = 0; i < 100 && !npm.hits.get('/ms/-/ms-2.1.3.tgz'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(npm.hits.get('/ms/-/ms-2.1.3.tgz'), 1, 'the ingestion holds its lease while the download hangs');
      first.signal('SIGKILL');
      await first.exited;
      await pending;

      npm.release();
      second = await startTooldex(env);
      const answer = await ask(second.url, 'ms');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.ok(second.logs.some((line) => line.msg === 'released docs ingestion leases of a process that is gone'));
    } finally {
      await first?.dispose(); // also when an assertion failed before the kill: no process outlives the test
      await second?.dispose();
      await npm.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('an ingestion lease held by an instance that died (PostgreSQL, two instances)', { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' }, () => {
  it('is released by the next instance to start, while a live instance\'s lease is kept', async () => {
    const npm = await startGatedNpm(['fx-ghost', 'fx-live']);
    npm.release();
    const config = { TOOLDEX_NPM_REGISTRY: npm.url, TOOLDEX_RATE_LIMIT_RPM: 10_000, TOOLDEX_SNAPSHOT: await smallSnapshot(50) };
    const first = await startServer({ store: 'postgres', config });
    let second: TestServer | undefined;
    try {
      await addTools(first, [{ slug: 'npm-fx-ghost', ecosystem: 'npm', name: 'fx-ghost' }, { slug: 'npm-fx-live', ecosystem: 'npm', name: 'fx-live' }]);
      const [live] = await first.app.store.query<{ id: string }>('select id from instances limit 1');
      assert.ok(live, 'the first instance has a heartbeat row');
      // A lease taken by an instance that crashed (no heartbeat row), and one taken by the live first instance.
      await first.app.store.query(
        `insert into docs_versions (slug, version, status, lease_until, lease_owner) values
           ('npm-fx-ghost', '1.0.0', 'indexing', now() + interval '2 minutes', 'crashed-host:1234:dead'),
           ('npm-fx-live', '1.0.0', 'indexing', now() + interval '2 minutes', $1)`, [live.id]);
      second = await startServer({ store: 'postgres', config: { ...config, DATABASE_URL: first.app.config.DATABASE_URL } });
      const answer = await ask(second.url, 'fx-ghost');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const [kept] = await first.app.store.query<{ lease_owner: string | null }>("select lease_owner from docs_versions where slug = 'npm-fx-live'");
      assert.equal(kept?.lease_owner, live.id, 'a live instance keeps its lease');
    } finally {
      await second?.server.close();
      await second?.app.close();
      await first.close();
      await npm.close();
    }
  });
});
