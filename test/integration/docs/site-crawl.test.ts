// The docs-site source through the front door: small documentation sites served on 127.0.0.1 and crawled via a
// plain same-origin crawl (robots.txt honoured, caps applied), llms.txt and sitemap.xml; private hosts denied by default.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addTools } from './catalog-fixture.ts';
import { goodPackage, startFakeRegistry, startFakeSite, type FakeRegistry, type FakeSite } from './fixtures.ts';

const html = (title: string, main: string) => `<!doctype html><html><head><title>${title} | Site</title></head><body><nav><a href="/docs/">Home</a></nav><main>${main}</main><footer>footer text</footer></body></html>`;

describe('docs sites on loopback', () => {
  let registry: FakeRegistry;
  let crawlSite: FakeSite, llmsSite: FakeSite, mapSite: FakeSite, deniedSite: FakeSite;
  let server: TestServer;
  let denying: TestServer;
  const get = (s: TestServer, path: string) => fetch(`${s.url}${path}`).then((r) => r.json());

  before(async () => {
    crawlSite = await startFakeSite({
      '/robots.txt': ['text/plain', 'User-agent: *\nDisallow: /docs/private/\n'],
      '/docs/': ['text/html', html('Welcome', '<h1 id="welcome">Welcome</h1><p>Welcome to the widget documentation site for crawling.</p><a href="a.html">A</a> <a href="private/secret.html">S</a> <a href="big.html">B</a> <a href="/outside.html">O</a> <a href="https://example.invalid/x">X</a> <a href="moved.html">M</a>')],
      '/docs/a.html': ['text/html', html('Limits', '<h1 id="limits">Limits</h1><p>Intro to limits of the widget service.</p><h2 id="rate-limits">Rate limiting</h2><p>Configure rate limiting with <code>maxRequestsPerMinute</code> on the client.</p><pre><code>client.configure({ maxRequestsPerMinute: 60 })</code></pre>')],
      '/docs/moved.html': ['redirect', '/docs/b.html'],
      '/docs/b.html': ['text/html', html('Webhooks', '<h1 id="hooks">Webhooks</h1><p>Register webhook endpoints to receive widget events as they happen.</p>')],
      '/docs/private/secret.html': ['text/html', html('Secret', '<p>SECRET-TOKEN should never be crawled.</p>')],
      '/docs/big.html': ['text/html', html('Big', `<p>${'BIGPAGE '.repeat(400_000)}</p>`)],
      '/outside.html': ['text/html', html('Outside', '<p>Outside the docs path.</p>')],
    });
    llmsSite = await startFakeSite({
      '/llms.txt': ['text/plain', '# Widget\n\n> Widget docs for LLMs.\n\n- [Guide](/guide.md): the guide\n- [API](/api.html): reference\n'],
      '/guide.md': ['text/markdown', '# Guide\n\n## Caching\n\nEnable response caching with `cache: true` to avoid refetching widgets.\n'],
      '/api.html': ['text/html', html('API', '<h1 id="api">API</h1><h2 id="fetch-widget">fetchWidget</h2><p>Fetches one widget by its identifier from the service.</p>')],
    });
    mapSite = await startFakeSite({
      '/sitemap.xml': ['application/xml', '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>PLACEHOLDER/docs/one.html</loc></url><url><loc>PLACEHOLDER/docs/two.html</loc></url><url><loc>PLACEHOLDER/blog/post.html</loc></url></urlset>'],
      '/docs/one.html': ['text/html', html('One', '<h1>One</h1><p>Page one explains installation of the widget toolkit.</p>')],
      '/docs/two.html': ['text/html', html('Two', '<h1>Two</h1><h2 id="migrating">Migrating from v1</h2><p>Migration notes: rename frobnicate to widgetize when upgrading.</p>')],
      '/blog/post.html': ['text/html', html('Blog', '<p>A blog post outside the docs path.</p>')],
    });
    deniedSite = await startFakeSite({ '/docs/': ['text/html', html('Denied', '<p>Should never be fetched by a default server.</p>')] });
    registry = await startFakeRegistry(['fx-crawl', 'fx-llms', 'fx-map', 'fx-denied'].map((name) => ({ name, versions: { '1.0.0': goodPackage(name, '1.0.0') } })));
    // A sitemap names absolute URLs of its own origin, known only once the site listens.
    mapSite.pages['/sitemap.xml'] = ['application/xml', mapSite.pages['/sitemap.xml']![1].toString().replaceAll('PLACEHOLDER', mapSite.url)];
    const config = { TOOLDEX_NPM_REGISTRY: registry.url, TOOLDEX_RATE_LIMIT_RPM: 10_000, TOOLDEX_FETCH_TIMEOUT_MS: 3000 };
    server = await startServer({ config: { ...config, TOOLDEX_DOCS_SITES: 'inline', TOOLDEX_DOCS_PRIVATE_SITES: 'allow', TOOLDEX_DOCS_MAX_PAGES: 10 } });
    const tools = [
      { slug: 'npm-fx-crawl', ecosystem: 'npm' as const, name: 'fx-crawl', docsUrl: `${crawlSite.url}/docs/` },
      { slug: 'npm-fx-llms', ecosystem: 'npm' as const, name: 'fx-llms', docsUrl: `${llmsSite.url}/` },
      { slug: 'npm-fx-map', ecosystem: 'npm' as const, name: 'fx-map', homepage: `${mapSite.url}/docs/` },
      { slug: 'npm-fx-denied', ecosystem: 'npm' as const, name: 'fx-denied', docsUrl: `${deniedSite.url}/docs/` },
    ];
    await addTools(server, tools);
    denying = await startServer({ config: { ...config, TOOLDEX_DOCS_SITES: 'background' } });
    await addTools(denying, tools);
  });
  after(async () => {
    await server?.close();
    await denying?.close();
    for (const s of [registry, crawlSite, llmsSite, mapSite, deniedSite]) await s?.close();
  });

  it('crawls the same-origin docs path, honours robots.txt, follows same-origin redirects and skips oversized pages', async () => {
    const body = await get(server, '/tools/docs/fx-crawl?q=configure%20rate%20limiting');
    assert.equal(body.docsUrl, `${crawlSite.url}/docs/`);
    assert.equal(body.results[0].url, `${crawlSite.url}/docs/a.html#rate-limits`);
    assert.equal(body.results[0].title, 'Rate limiting');
    assert.match(body.results[0].content, /client\.configure\(\{ maxRequestsPerMinute: 60 \}\)/);
    const hooks = await get(server, '/tools/docs/fx-crawl?q=webhook%20endpoints');
    assert.equal(hooks.results[0].url, `${crawlSite.url}/docs/b.html#hooks`);
    assert.equal(crawlSite.hits.get('/docs/private/secret.html'), undefined, 'robots.txt disallows it');
    assert.equal(crawlSite.hits.get('/outside.html'), undefined, 'outside the docs path');
    assert.equal(crawlSite.hits.get('/docs/big.html'), 1);
    await server.app.docs.stored(); // the passages are written after the answer
    const rows = await server.app.store.query<{ content: string }>("select content from docs_passages where slug = 'npm-fx-crawl'");
    assert.ok(rows.every((r) => !/SECRET-TOKEN|BIGPAGE|footer text/.test(r.content)));
    assert.ok(rows.some((r) => /frobnicat/i.test(r.content)), 'the artifact passages are there too');
  });

  it('reads llms.txt and the pages it links, Markdown as is', async () => {
    const body = await get(server, '/tools/docs/fx-llms?q=enable%20caching');
    assert.equal(body.results[0].url, `${llmsSite.url}/guide.md#caching`);
    const api = await get(server, '/tools/docs/fx-llms?q=fetchWidget');
    assert.equal(api.results[0].url, `${llmsSite.url}/api.html#fetch-widget`);
  });

  it('reads sitemap.xml, keeping pages under the docs path', async () => {
    const body = await get(server, '/tools/docs/fx-map?q=migrating%20from%20v1');
    assert.equal(body.results[0].url, `${mapSite.url}/docs/two.html#migrating`);
    assert.equal(mapSite.hits.get('/blog/post.html'), undefined);
  });

  it('denies loopback and private docs sites by default (SSRF), still answering from the artifact', async () => {
    const body = await get(denying, '/tools/docs/fx-denied?q=frobnicate');
    assert.ok(body.results.length > 0);
    await denying.app.docs.stored(); // the version is written after the answer; its crawl after that
    let status = '';
    for (let i = 0; i < 50 && !['failed', 'off'].includes(status); i++) {
      const rows = await denying.app.store.query<{ site_status: string }>("select site_status from docs_versions where slug = 'npm-fx-denied'");
      status = rows[0]?.site_status ?? '';
      if (status === 'pending') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(status, 'failed');
    assert.equal(deniedSite.hits.size, 0, 'not one request reached the private site');
  });
});
