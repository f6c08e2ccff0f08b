// Several tooldex instances over one PostgreSQL: concurrent first questions on both share one ingestion
// (the lease row in docs_versions), and each serves the other's index. Runs when TEST_DATABASE_URL is set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp, type App } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { buildServer, type Server } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/log.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addTools } from './catalog-fixture.ts';
import { goodPackage, startFakeRegistry, type FakeRegistry } from './fixtures.ts';

describe('docs ingestion shared by two instances over PostgreSQL', { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' }, () => {
  let registry: FakeRegistry;
  let first: TestServer;
  let second: { app: App; server: Server; url: string; home: string };

  before(async () => {
    registry = await startFakeRegistry([{ name: 'fx-multi', versions: { '3.0.0': goodPackage('fx-multi', '3.0.0') } }]);
    registry.tarballDelayMs = 400;
    const config = { TOOLDEX_NPM_REGISTRY: registry.url, TOOLDEX_DOCS_SITES: 'off' as const, TOOLDEX_RATE_LIMIT_RPM: 10_000 };
    first = await startServer({ store: 'postgres', config });
    await addTools(first, [{ slug: 'npm-fx-multi', ecosystem: 'npm', name: 'fx-multi' }]);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-second-'));
    const app = await createApp(loadConfig({ ...config, TOOLDEX_HOME: home, DATABASE_URL: first.app.config.DATABASE_URL, LOG_LEVEL: 'silent' }, {}), createLogger('silent'));
    const server = await buildServer(app);
    second = { app, server, home, url: await server.listen({ port: 0, host: '127.0.0.1' }) };
  });
  after(async () => {
    await second?.server.close();
    await second?.app.close();
    if (second) fs.rmSync(second.home, { recursive: true, force: true });
    await first?.close();
    await registry?.close();
  });

  it('downloads and indexes once while both instances answer the first questions', async () => {
    const urls = [first.url, second.url, first.url, second.url];
    const bodies = await Promise.all(urls.map((url) => fetch(`${url}/tools/docs/fx-multi?q=retry%20failed%20widget`).then((r) => r.json())));
    for (const body of bodies) {
      assert.equal(body.version, '3.0.0');
      assert.equal(body.results[0].title, 'Retrying failed widgets');
    }
    const downloads = [...registry.hits].filter(([p]) => p.startsWith('/fx-multi/-/')).reduce((n, [, c]) => n + c, 0);
    assert.equal(downloads, 1);
    await Promise.all([first.app.docs.stored(), second.app.docs.stored()]); // the passages are written after the answer
    const rows = await first.app.store.query<{ n: number }>("select count(distinct ord)::int as n from docs_passages where slug = 'npm-fx-multi'");
    const total = await first.app.store.query<{ n: number }>("select count(*)::int as n from docs_passages where slug = 'npm-fx-multi'");
    assert.equal(rows[0]!.n, total[0]!.n, 'no passage was inserted twice');
  });
});
