// Docs answers name the public API, through the front door: real packages from the real registries (one per
// ecosystem, each a case the old extractors missed) and, on loopback, a package too large to index whole.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addTools } from './catalog-fixture.ts';
import { makeTgz, startFakeRegistry, type FakeRegistry } from './fixtures.ts';

interface Passage { title: string; symbol?: string; source: string; url: string; content: string; internal?: boolean }
const ask = async (server: TestServer, tool: string, q: string, limit = 5) => {
  const response = await fetch(`${server.url}/tools/docs/${encodeURIComponent(tool)}?q=${encodeURIComponent(q)}&limit=${limit}`);
  const body = await response.json() as { results: Passage[]; partial?: { indexedPassages: number; foundPassages: number; message: string } };
  assert.equal(response.status, 200, JSON.stringify(body));
  return body;
};
const symbols = (results: Passage[]) => results.map((r) => r.symbol ?? r.title).join(', ');

describe('docs name the public API of real packages (registries)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ config: { TOOLDEX_DOCS_SITES: 'off', TOOLDEX_RATE_LIMIT_RPM: 10_000 } });
    await addTools(server, [
      { slug: 'npm-nanoid', ecosystem: 'npm', name: 'nanoid' }, { slug: 'crates-itertools', ecosystem: 'crates', name: 'itertools' },
      { slug: 'pypi-pydantic', ecosystem: 'pypi', name: 'pydantic' }, { slug: 'go-github.com__go-chi__chi__v5', ecosystem: 'go', name: 'github.com/go-chi/chi/v5' },
    ]);
  });
  after(() => server.close());

  it('npm: a declaration file without semicolons keeps each JSDoc with its own function (nanoid)', async () => {
    const { results } = await ask(server, 'npm:nanoid@6.0.2', 'generate ids from my own alphabet');
    const hit = results.find((r) => r.symbol === 'nanoid.customAlphabet');
    assert.ok(hit, symbols(results));
    assert.match(hit.content, /custom alphabet/);
    assert.equal(hit.source, 'index.d.ts');
    const plain = results.find((r) => r.symbol === 'nanoid.nanoid');
    if (plain) assert.doesNotMatch(plain.content, /custom alphabet/);
  });

  it('crates: methods of a public trait are indexed though they carry no `pub` (itertools)', async () => {
    const { results } = await ask(server, 'crates:itertools@0.15.0', 'group consecutive elements by a key');
    const hit = results.find((r) => r.symbol === 'itertools::Itertools::chunk_by');
    assert.ok(hit, symbols(results));
    assert.match(hit.url, /^https:\/\/docs\.rs\/crate\/itertools\/0\.15\.0\/source\/src\/lib\.rs#\d+$/);
  });

  it('PyPI: attribute docstrings under their public path, private modules kept out (pydantic)', async () => {
    const { results } = await ask(server, 'pypi:pydantic@2.14.3', 'forbid extra fields in a model');
    const hit = results.find((r) => r.symbol === 'pydantic.ConfigDict.extra');
    assert.ok(hit, symbols(results));
    assert.match(hit.content, /forbid/);
    await server.app.docs.stored(); // the passages are written after the answer
    const internal = await server.app.store.query<{ n: number }>(
      "select count(*)::int as n from docs_passages where slug = 'pypi-pydantic' and source like 'pydantic/_internal/%'");
    assert.equal(internal[0]!.n, 0);
  });

  it('Go: exported identifiers as package.Name (chi)', async () => {
    const { results } = await ask(server, 'go:github.com/go-chi/chi/v5@v5.5.0', 'read a URL parameter');
    const hit = results.find((r) => r.symbol === 'chi.URLParam');
    assert.ok(hit, symbols(results));
    assert.equal(hit.url, 'https://pkg.go.dev/github.com/go-chi/chi/v5@v5.5.0#URLParam');
  });
});

describe('a package too large to index whole (loopback registry)', () => {
  let registry: FakeRegistry;
  let server: TestServer;
  // 4,200 documented functions: more passages than the per-package cap (4,000) can hold.
  const declarations = Array.from({ length: 4200 }, (_, i) => `/** Computes checksum variant ${i} of a buffer. */\nexport declare function checksum${i}(data: Uint8Array): number;\n`).join('');
  before(async () => {
    registry = await startFakeRegistry([{ name: 'fx-huge', versions: { '1.0.0': makeTgz([
      { name: 'package/package.json', body: JSON.stringify({ name: 'fx-huge', version: '1.0.0', types: 'index.d.ts' }) },
      { name: 'package/README.md', body: '# fx-huge\n\n## Streaming checksums\n\nUse `createHasher()` to hash a stream of buffers without holding them in memory.\n' },
      { name: 'package/index.d.ts', body: declarations },
    ]) } }]);
    server = await startServer({ config: { TOOLDEX_NPM_REGISTRY: registry.url, TOOLDEX_DOCS_SITES: 'off', TOOLDEX_RATE_LIMIT_RPM: 10_000 } });
    await addTools(server, [{ slug: 'npm-fx-huge', ecosystem: 'npm', name: 'fx-huge' }]);
  });
  after(async () => { await server?.close(); await registry?.close(); });

  it('fills the cap by importance (the README stays) and says so in the answer', async () => {
    const body = await ask(server, 'fx-huge', 'hash a stream of buffers');
    assert.ok(body.partial, 'partial coverage reported');
    assert.equal(body.partial.indexedPassages, 4000);
    assert.equal(body.partial.foundPassages, 4201);
    assert.match(body.partial.message, /too large to index whole/);
    assert.equal(body.results[0]!.title, 'Streaming checksums');
  });
});
