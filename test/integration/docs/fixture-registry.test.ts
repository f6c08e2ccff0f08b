// Faults and sharing through the front door, with a fake npm registry on 127.0.0.1 serving archives the test built:
// one ingestion for concurrent first questions, hostile tarballs refused, timeouts, stale cache, revalidation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addTools } from './catalog-fixture.ts';
import { EXTRACTOR_VERSIONS } from '../../../src/docs/extraction.ts';
import { goodPackage, makeTar, makeTgz, startFakeRegistry, type FakeRegistry } from './fixtures.ts';

const tarballHits = (registry: FakeRegistry, name: string) =>
  [...registry.hits].filter(([path]) => path.startsWith(`/${name}/-/`)).reduce((n, [, count]) => n + count, 0);

describe('docs with a fake npm registry (pglite)', () => {
  let registry: FakeRegistry;
  let server: TestServer;
  const get = (path: string) => fetch(`${server.url}${path}`);
  const names = ['fx-good', 'fx-shared', 'fx-traversal', 'fx-symlink', 'fx-bomb', 'fx-huge', 'fx-many', 'fx-evolving', 'fx-down', 'fx-slow', 'fx-reindex', 'fx-deprecated', 'fx-per-ecosystem'];

  before(async () => {
    registry = await startFakeRegistry([
      { name: 'fx-good', versions: { '1.0.0': goodPackage('fx-good', '1.0.0'), '1.1.0': goodPackage('fx-good', '1.1.0') } },
      { name: 'fx-shared', versions: { '2.0.0': goodPackage('fx-shared', '2.0.0') } },
      { name: 'fx-traversal', versions: { '1.0.0': makeTgz([{ name: 'package/README.md', body: '# t\n\nfine text here' }, { name: 'package/../../../etc/cron.d/x', body: 'evil' }]) } },
      { name: 'fx-symlink', versions: { '1.0.0': makeTgz([{ name: 'package/README.md', body: '# s\n\nThe readme of the symlink fixture package.' }, { name: 'package/docs/passwd.md', type: 'symlink', linkname: '/etc/passwd' }]) } },
      { name: 'fx-bomb', versions: { '1.0.0': zlib.gzipSync(makeTar([{ name: 'package/README.md', body: Buffer.alloc(300 * 1024 * 1024, 0x20) }]), { level: 9 }) } },
      { name: 'fx-huge', versions: { '1.0.0': Buffer.concat([makeTgz([{ name: 'package/README.md', body: '# h' }]), Buffer.alloc(1_200_000)]) } },
      { name: 'fx-many', versions: { '1.0.0': makeTgz(Array.from({ length: 20_050 }, (_, i) => ({ name: `package/d/${i}.md`, body: '' }))) } },
      { name: 'fx-evolving', versions: { '1.0.0': goodPackage('fx-evolving', '1.0.0') } },
      { name: 'fx-down', versions: { '1.0.0': goodPackage('fx-down', '1.0.0') } },
      { name: 'fx-reindex', versions: { '1.0.0': goodPackage('fx-reindex', '1.0.0') } },
      { name: 'fx-per-ecosystem', versions: { '1.0.0': goodPackage('fx-per-ecosystem', '1.0.0') } },
      { name: 'fx-deprecated', versions: { '1.0.0': makeTgz([
        { name: 'package/package.json', body: JSON.stringify({ name: 'fx-deprecated', version: '1.0.0', types: 'index.d.ts' }) },
        { name: 'package/README.md', body: '# fx-deprecated\n\n## Cancelling a request\n\n### AbortController\n\nPass an AbortController signal to cancel a request in flight.\n\n### CancelToken `deprecated`\n\nCancel a request in flight with a CancelToken from the source.\n' },
        { name: 'package/index.d.ts', body: '/** Cancels the request in flight.\n * @deprecated use an AbortController signal */\nexport declare function cancelRequest(id: string): void;\n/** Sends a request. */\nexport declare function sendRequest(url: string): Promise<string>;\n' },
      ]) } },
    ]);
    server = await startServer({ config: {
      TOOLDEX_NPM_REGISTRY: registry.url, TOOLDEX_DOCS_SITES: 'off', TOOLDEX_DOCS_MAX_ARTIFACT_MB: 1,
      TOOLDEX_FETCH_TIMEOUT_MS: 3000, TOOLDEX_RATE_LIMIT_RPM: 10_000,
    } });
    await addTools(server, names.map((name) => ({ slug: `npm-${name}`, ecosystem: 'npm' as const, name, homepage: `https://${name}.example.invalid/docs` })));
  });
  after(async () => {
    await server?.close();
    await registry?.close();
  });

  it('indexes README, guides and declarations, with passage URLs pinned to the version', async () => {
    const body = await (await get('/tools/docs/fx-good@1.0.0?q=dark%20colour%20theme')).json();
    assert.equal(body.version, '1.0.0');
    assert.equal(body.latestVersion, '1.1.0');
    assert.equal(body.docsUrl, 'https://fx-good.example.invalid/docs');
    assert.equal(body.results[0].title, 'Colour themes');
    assert.deepEqual(body.results[0].headings, ['Configuration guide', 'Colour themes']);
    assert.match(body.results[0].url, /^https:\/\/unpkg\.com\/fx-good@1\.0\.0\/docs\/guide\.md#L\d+$/);
    const api = await (await get('/tools/docs/fx-good@1.0.0?q=setMaxRetries')).json();
    assert.equal(api.results[0].title, 'Widget.setMaxRetries');
    assert.match(api.results[0].content, /setMaxRetries\(count: number\): this/);
    const spaced = await (await get('/tools/docs/fx-good@1.0.0?q=set%20max%20retries')).json();
    assert.equal(spaced.results[0].title, 'Widget.setMaxRetries', 'camelCase identifiers meet plain words');
  });

  it('says which passages document deprecated API: a README section headed so, and `@deprecated` declarations', async () => {
    const body = await (await get('/tools/docs/fx-deprecated@1.0.0?q=cancel%20a%20request%20in%20flight&limit=10')).json();
    const flags = Object.fromEntries(body.results.map((p: { title: string; deprecated?: boolean }) => [p.title, p.deprecated ?? false]));
    assert.equal(flags['CancelToken `deprecated`'], true);
    assert.equal(flags.cancelRequest, true);
    assert.equal(flags.AbortController, false);
    assert.equal(flags.sendRequest, false);
  });

  it('serves the latest version when none is named, and the context with facts from package.json', async () => {
    const body = await (await get('/tools/context/fx-good')).json();
    assert.equal(body.version, '1.1.0');
    assert.equal(body.typesIncluded, true);
    assert.deepEqual(body.requirements, { node: '>=18' });
    assert.deepEqual(body.entryPoints, ['.', './extra']);
    assert.deepEqual(body.imports, ["import { frobnicate } from 'fx-good';"]);
    assert.equal(body.quickstart.language, 'js');
    assert.equal(body.testRequest.files[0].path, 'index.mjs');
  });

  it('shares one ingestion between concurrent first questions', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => get('/tools/docs/fx-shared?q=retry%20a%20failed%20widget')));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    for (const body of bodies) assert.equal(body.results[0].title, 'Retrying failed widgets');
    assert.equal(tarballHits(registry, 'fx-shared'), 1, 'the tarball was downloaded once');
    await server.app.docs.stored();
    const rows = await server.app.store.query<{ n: number }>("select count(*)::int as n from docs_versions where slug = 'npm-fx-shared'");
    assert.equal(rows[0]!.n, 1);
  });

  const hostile: Array<[string, RegExp]> = [
    ['fx-traversal', /outside its root/],
    ['fx-bomb', /decompression bomb/],
    ['fx-huge', /larger than the 1024 KB cap/],
    ['fx-many', /more than 20000 entries/],
  ];
  for (const [name, message] of hostile) {
    it(`refuses the hostile artifact ${name} with 502 artifact_refused, and does not download it again`, async () => {
      const first = await get(`/tools/docs/${name}?q=anything`);
      assert.equal(first.status, 502);
      const body = await first.json();
      assert.equal(body.error.code, 'artifact_refused');
      assert.match(body.error.message, message);
      const hits = tarballHits(registry, name);
      const again = await get(`/tools/docs/${name}?q=anything`);
      assert.equal(again.status, 502);
      assert.equal(tarballHits(registry, name), hits, 'a refused artifact is remembered');
    });
  }

  it('tries a refused artifact once more when its ecosystem\'s extractor changes, then remembers the refusal again', async () => {
    const versions = EXTRACTOR_VERSIONS as Record<string, number>;
    const saved = versions.npm!;
    try {
      assert.equal((await get('/tools/docs/fx-huge?q=anything')).status, 502);
      const hits = tarballHits(registry, 'fx-huge');
      versions.npm = saved + 1;
      const retried = await get('/tools/docs/fx-huge?q=anything');
      assert.equal(retried.status, 502);
      assert.equal((await retried.json()).error.code, 'artifact_refused');
      assert.equal(tarballHits(registry, 'fx-huge'), hits + 1, 'the newer extractor downloads it once');
      assert.equal((await get('/tools/docs/fx-huge?q=anything')).status, 502);
      assert.equal(tarballHits(registry, 'fx-huge'), hits + 1, 'and remembers its refusal');
    } finally {
      versions.npm = saved;
    }
  });

  it('indexes a package with a symlink but never follows the link', async () => {
    const response = await get('/tools/docs/fx-symlink?q=passwd%20root');
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.ok(body.results.every((r: { content: string }) => !/root:/.test(r.content)));
    await server.app.docs.stored(); // the passages are written after the answer
    const all = await server.app.store.query<{ source: string }>("select source from docs_passages where slug = 'npm-fx-symlink'");
    assert.deepEqual(all.map((r) => r.source), ['README.md']);
  });

  it('answers 503 upstream_unavailable with Retry-After when the registry hangs, within the fetch timeout', async () => {
    registry.mode = 'hang';
    try {
      const started = Date.now();
      const response = await get('/tools/docs/fx-slow?q=x');
      assert.equal(response.status, 503);
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms (fetch timeout 3 s)`);
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
      assert.equal((await response.json()).error.code, 'upstream_unavailable');
    } finally {
      registry.mode = 'ok';
    }
  });

  it('serves cached docs marked stale when the registry fails, and 503 for a version never cached', async () => {
    const fresh = await (await get('/tools/docs/fx-down?q=frobnicate')).json();
    assert.equal(fresh.stale, undefined);
    // Age the release check past the refresh window, as hours passing would.
    await server.app.store.query("update docs_releases set checked_at = now() - interval '7 days' where slug = 'npm-fx-down'");
    registry.mode = 'fail';
    try {
      const cached = await get('/tools/docs/fx-down?q=frobnicate');
      assert.equal(cached.status, 200);
      const body = await cached.json();
      assert.equal(body.stale, true);
      assert.equal(body.version, '1.0.0');
      assert.ok(body.results.length > 0);
      const pinnedUnknown = await get('/tools/docs/fx-evolving@1.0.0?q=x');
      assert.equal(pinnedUnknown.status, 503);
      assert.equal((await pinnedUnknown.json()).error.code, 'upstream_unavailable');
    } finally {
      registry.mode = 'ok';
    }
  });

  it('revalidates in the background and moves to a newly published version', async () => {
    const before = await (await get('/tools/docs/fx-evolving?q=frobnicate')).json();
    assert.equal(before.version, '1.0.0');
    registry.publish({ name: 'fx-evolving', versions: { '1.0.0': goodPackage('fx-evolving', '1.0.0'), '2.0.0': goodPackage('fx-evolving', '2.0.0', '\n\n## Streaming\n\nWidgets now stream their frobnication results as they are produced.') } });
    await server.app.store.query("update docs_releases set checked_at = now() - interval '7 days' where slug = 'npm-fx-evolving'");
    const stale = await (await get('/tools/docs/fx-evolving?q=frobnicate')).json();
    assert.equal(stale.version, '1.0.0', 'the cached version answers at once');
    assert.equal(stale.stale, true);
    let after: { version: string; results: Array<{ title: string }> } | undefined;
    for (let i = 0; i < 50; i++) {
      after = await (await get('/tools/docs/fx-evolving?q=streaming')).json();
      if (after!.version === '2.0.0') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(after?.version, '2.0.0');
    assert.equal(after?.results[0]?.title, 'Streaming');
  });

  it('indexes a version again when an older extractor made its passages, and keeps them when that fails', async () => {
    const row = async () => {
      await server.app.docs.stored(); // the passages are written after the answer
      return (await server.app.store.query<{ extractor: number; indexed_at: Date | string; status: string }>(
        "select extractor, indexed_at, status from docs_versions where slug = 'npm-fx-reindex' and version = '1.0.0'"))[0]!;
    };
    const ask = async () => (await get('/tools/docs/fx-reindex@1.0.0?q=frobnicate')).json() as Promise<{ results: unknown[] }>;
    assert.ok((await ask()).results.length > 0);
    const first = await row();
    assert.equal(first.extractor, EXTRACTOR_VERSIONS.npm);
    const downloads = tarballHits(registry, 'fx-reindex');

    // As if an earlier release of tooldex had indexed it: the next question indexes it again (once the server's
    // 5-second memory of the version row has passed, as it has after any restart into a new release).
    const forgetHotRows = () => new Promise((resolve) => setTimeout(resolve, 5100));
    await server.app.store.query("update docs_versions set extractor = 0 where slug = 'npm-fx-reindex'");
    await forgetHotRows();
    assert.ok((await ask()).results.length > 0);
    const again = await row();
    assert.equal(again.extractor, EXTRACTOR_VERSIONS.npm);
    assert.ok(new Date(again.indexed_at).getTime() > new Date(first.indexed_at).getTime(), 'indexed again');
    assert.equal(tarballHits(registry, 'fx-reindex'), downloads + 1);

    // When the registry fails meanwhile, the earlier passages stay ready and answer.
    await server.app.store.query("update docs_versions set extractor = 0 where slug = 'npm-fx-reindex'");
    await forgetHotRows();
    const registryHits = () => [...registry.hits].filter(([path]) => path.startsWith('/fx-reindex')).reduce((n, [, count]) => n + count, 0);
    const asked = registryHits();
    registry.mode = 'fail';
    try {
      const answer = await get('/tools/docs/fx-reindex@1.0.0?q=frobnicate');
      assert.equal(answer.status, 200);
      assert.ok(((await answer.json()) as { results: unknown[] }).results.length > 0);
      assert.ok(registryHits() > asked, 'it tried the registry');
      const kept = await row();
      assert.equal(kept.status, 'ready');
      assert.equal(kept.extractor, 0, 'still the earlier extraction; tried again on a later question');
    } finally {
      registry.mode = 'ok';
    }
  });

  it('indexes again only when its own ecosystem\'s extractor version grows, not another\'s', async () => {
    const version = async () => {
      await server.app.docs.stored(); // the passages are written after the answer
      return (await server.app.store.query<{ extractor: number }>(
        "select extractor from docs_versions where slug = 'npm-fx-per-ecosystem' and version = '1.0.0'"))[0]!.extractor;
    };
    const ask = async () => (await get('/tools/docs/fx-per-ecosystem@1.0.0?q=frobnicate')).json() as Promise<{ results: unknown[] }>;
    const forgetHotRows = () => new Promise((resolve) => setTimeout(resolve, 5100));
    const versions = EXTRACTOR_VERSIONS as Record<string, number>;
    const saved = { ...versions };
    try {
      assert.ok((await ask()).results.length > 0);
      const downloads = tarballHits(registry, 'fx-per-ecosystem');
      // A Go-only extractor change: npm packages keep their passages.
      versions.go = saved.go! + 1;
      await forgetHotRows();
      assert.ok((await ask()).results.length > 0);
      assert.equal(tarballHits(registry, 'fx-per-ecosystem'), downloads, 'not downloaded again');
      assert.equal(await version(), saved.npm);
      // An npm extractor change: indexed again, recorded with npm's new version.
      versions.npm = saved.npm! + 1;
      await forgetHotRows();
      assert.ok((await ask()).results.length > 0);
      assert.equal(tarballHits(registry, 'fx-per-ecosystem'), downloads + 1);
      assert.equal(await version(), saved.npm! + 1);
    } finally {
      Object.assign(versions, saved);
    }
  });
});
