// `ingestCatalog` against the real registries (a few names each) and a RubyGems API served on loopback:
// records land in the store with progress rows, a second run resumes by skipping fresh names, and an
// unreachable RubyGems falls back to the seed list.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { ingestCatalog } from '../../../src/catalog/ingest.ts';
import { discoverCrates } from '../../../src/catalog/registries/popularity.ts';
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
      // The same loopback server plays npm's downloads API and crates.io's API (neither is reachable from tests).
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname.startsWith('/downloads/point/last-month/')) {
        const names = decodeURIComponent(url.pathname.split('/').pop() ?? '').split(',');
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(Object.fromEntries(names.map((name) => [name, { downloads: name === 'semver' ? 1234 : 5 }]))));
      } else if (url.pathname === '/api/v1/crates') {
        response.setHeader('content-type', 'application/json');
        const ids = url.searchParams.getAll('ids[]');
        const crates = ids.length ? ids.map((id) => ({ id, downloads: 100, recent_downloads: id === 'syn' ? 777 : 7 }))
          : url.searchParams.get('page') === '1' ? [{ id: 'tooldex-discovered', description: 'Found by downloads', recent_downloads: 99 }] : [];
        response.end(JSON.stringify({ crates }));
      } else if (request.url === '/api/v1/gems/rake.json') {
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
    const config = loadConfig({ TOOLDEX_HOME: home, TOOLDEX_RUBYGEMS_URL: gemsUrl, TOOLDEX_NPM_DOWNLOADS_URL: gemsUrl, TOOLDEX_CRATES_URL: gemsUrl }, {});
    const summaries = await ingestCatalog(store, config, createLogger('silent'), { top: 2, concurrency: 4 });
    for (const summary of summaries.filter((s) => s.ecosystem !== 'rubygems')) {
      assert.equal(summary.fetched + summary.skipped, 2, `${summary.ecosystem}: ${JSON.stringify(summary)}`);
    }
    const gemSummary = summaries.find((s) => s.ecosystem === 'rubygems');
    assert.deepEqual([gemSummary?.fetched, gemSummary?.missing], [1, 1], 'a gem the API answers 404 for is left out');
    const semver = await getTool(store, 'npm-semver');
    assert.ok(semver?.version && semver.description.length > 5 && semver.updatedAt);
    assert.equal(semver?.downloads, 1234, 'monthly downloads measured by the (loopback) npm downloads API');
    const ansi = await getTool(store, 'npm-ansi-styles');
    assert.ok(semver!.popularity > ansi!.popularity, 'and the ranking follows them');
    const rake = await getTool(store, 'rubygems-rake');
    assert.equal(rake?.version, '13.9.9', 'read from the (loopback) RubyGems API');
    assert.equal(rake?.license, 'MIT');
    const go = (await store.query<{ slug: string; version: string }>("select slug, version from tools where slug = 'go-github.com__stretchr__testify'"))[0];
    assert.match(go?.version ?? '', /^v\d+\.\d+\.\d+/);
    const progress = await store.query<{ n: number }>("select count(*)::int as n from ingest_progress where status = 'ok'");
    assert.equal(progress[0]?.n, 9, 'one row per fetched name: 2 npm, 2 PyPI, 2 crates, 2 Go, 1 gem');
  });

  it('discovers crates by crates.io\'s download ranking when its API answers, and nothing when it does not', async () => {
    const logger = createLogger('silent');
    const urls = { TOOLDEX_NPM_DOWNLOADS_URL: gemsUrl, TOOLDEX_CRATES_URL: gemsUrl, TOOLDEX_FETCH_TIMEOUT_MS: 2000 };
    assert.deepEqual((await discoverCrates(5, urls, logger)).map((seed) => [seed.name, seed.summary]), [['tooldex-discovered', 'Found by downloads']]);
    assert.deepEqual(await discoverCrates(5, { ...urls, TOOLDEX_CRATES_URL: 'http://127.0.0.1:9' }, logger), []);
  });

  it('resumes: names fetched within the window are skipped', async () => {
    const config = loadConfig({ TOOLDEX_HOME: home, TOOLDEX_RUBYGEMS_URL: gemsUrl, TOOLDEX_NPM_DOWNLOADS_URL: gemsUrl, TOOLDEX_CRATES_URL: gemsUrl }, {});
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
    const config = loadConfig({ TOOLDEX_HOME: home, TOOLDEX_RUBYGEMS_URL: `http://127.0.0.1:${port}`, TOOLDEX_FETCH_TIMEOUT_MS: 2000,
      TOOLDEX_NPM_DOWNLOADS_URL: gemsUrl, TOOLDEX_CRATES_URL: gemsUrl }, {});
    const [summary] = await ingestCatalog(store, config, createLogger('silent'), { top: 3, ecosystems: ['rubygems'] });
    assert.equal(summary?.fetched, 3);
    const rails = await getTool(store, 'rubygems-rails');
    assert.equal(rails?.version, null);
    assert.match(rails?.description ?? '', /web framework/i);
    assert.ok(String(rails?.extra.source).includes('seed list'));
  });

  it('offline: builds records from the shipped seed lists for names the store lacks, and keeps fetched records', async () => {
    const config = loadConfig({ TOOLDEX_HOME: home }, {});
    await store.query("delete from tools where slug in ('crates-jiff', 'rubygems-aasm')");
    const before = await getTool(store, 'npm-semver');
    const summaries = await ingestCatalog(store, config, createLogger('silent'), {
      offline: true, ecosystems: ['crates', 'rubygems', 'npm'], names: { crates: ['jiff'], rubygems: ['aasm'], npm: ['semver'] },
    });
    assert.deepEqual(summaries.map((s) => [s.ecosystem, s.fromSeed, s.skipped]), [['crates', 1, 0], ['rubygems', 1, 0], ['npm', 0, 1]]);
    const jiff = await getTool(store, 'crates-jiff');
    assert.match(jiff?.description ?? '', /time zone/i);
    assert.equal(jiff?.extra.source, 'seed list');
    assert.deepEqual(jiff?.languages, ['Rust']);
    const aasm = await getTool(store, 'rubygems-aasm');
    assert.ok(aasm?.categories.length && aasm.popularity > 0);
    const semver = await getTool(store, 'npm-semver');
    assert.equal(semver?.description, before?.description, 'a fetched record is kept');
  });
});
