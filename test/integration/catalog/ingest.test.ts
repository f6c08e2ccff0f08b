// `ingestCatalog` against the real registries (a few names each) and a RubyGems API served on loopback:
// records land in the store with progress rows, a second run resumes by skipping fresh names, and an
// unreachable RubyGems falls back to the seed list.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { ingestCatalog } from '../../../src/catalog/ingest.ts';
import { getTool } from '../../../src/catalog/repository.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import { openStore, type Store } from '../../../src/store/index.ts';
import { freshHome } from '../../helpers/stores.ts';

describe('catalog ingest', () => {
  let home: string;
  let store: Store;
  let gems: http.Server;
  let gemsUrl: string;
  before(async () => {
    home = await freshHome();
    store = await openStore({ TOOLDEX_HOME: home });
    gems = http.createServer((request, response) => {
      if (request.url === '/api/v1/gems/rake.json') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ name: 'rake', version: '13.9.9', info: 'Make-like build tool served on loopback.', licenses: ['MIT'], version_created_at: '2026-01-02T03:04:05Z', downloads: 42 }));
      } else {
        response.statusCode = 404;
        response.end('{}');
      }
    });
    await new Promise<void>((resolve) => gems.listen(0, '127.0.0.1', resolve));
    gemsUrl = `http://127.0.0.1:${(gems.address() as AddressInfo).port}`;
  });
  after(async () => {
    await store.close();
    gems.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('fetches the most popular names of every registry and records progress', async () => {
    const config = loadConfig({ TOOLDEX_HOME: home, TOOLDEX_RUBYGEMS_URL: gemsUrl }, {});
    const summaries = await ingestCatalog(store, config, createLogger('silent'), { top: 2, concurrency: 4 });
    for (const summary of summaries.filter((s) => s.ecosystem !== 'rubygems')) {
      assert.equal(summary.fetched + summary.skipped, 2, `${summary.ecosystem}: ${JSON.stringify(summary)}`);
    }
    const gemSummary = summaries.find((s) => s.ecosystem === 'rubygems');
    assert.deepEqual([gemSummary?.fetched, gemSummary?.missing], [1, 1], 'a gem the API answers 404 for is left out');
    const semver = await getTool(store, 'npm-semver');
    assert.ok(semver?.version && semver.description.length > 5 && semver.updatedAt);
    const rake = await getTool(store, 'rubygems-rake');
    assert.equal(rake?.version, '13.9.9', 'read from the (loopback) RubyGems API');
    assert.equal(rake?.license, 'MIT');
    const go = (await store.query<{ slug: string; version: string }>("select slug, version from tools where slug = 'go-github.com__stretchr__testify'"))[0];
    assert.match(go?.version ?? '', /^v\d+\.\d+\.\d+/);
    const progress = await store.query<{ n: number }>("select count(*)::int as n from ingest_progress where status = 'ok'");
    assert.equal(progress[0]?.n, 9, 'one row per fetched name: 2 npm, 2 PyPI, 2 crates, 2 Go, 1 gem');
  });

  it('resumes: names fetched within the window are skipped', async () => {
    const config = loadConfig({ TOOLDEX_HOME: home, TOOLDEX_RUBYGEMS_URL: gemsUrl }, {});
    const summaries = await ingestCatalog(store, config, createLogger('silent'), { top: 3, ecosystems: ['npm', 'crates'], skipFreshHours: 1 });
    for (const summary of summaries) {
      assert.equal(summary.skipped, 2, 'the two names of the first run');
      assert.equal(summary.fetched, 1, 'only the third name is fetched');
    }
  });

  it('falls back to the seed list when RubyGems cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve)); // nothing listens there now
    const config = loadConfig({ TOOLDEX_HOME: home, TOOLDEX_RUBYGEMS_URL: `http://127.0.0.1:${port}`, TOOLDEX_FETCH_TIMEOUT_MS: 2000 }, {});
    const [summary] = await ingestCatalog(store, config, createLogger('silent'), { top: 3, ecosystems: ['rubygems'] });
    assert.equal(summary?.fetched, 3);
    const rails = await getTool(store, 'rubygems-rails');
    assert.equal(rails?.version, null);
    assert.match(rails?.description ?? '', /web framework/i);
    assert.ok(String(rails?.extra.source).includes('seed list'));
  });
});
