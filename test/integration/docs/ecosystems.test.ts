// PyPI, crates.io, the Go module proxy and RubyGems through the front door, each served by a fake on 127.0.0.1
// with artifacts the test builds (wheel, .crate, module zip, .gem): passages, pinned URLs and context facts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addTools } from './catalog-fixture.ts';
import { makeTar, makeTgz } from './fixtures.ts';

const text = (value: string) => Buffer.from(value);

const wheel = zipSync({
  'fxpy/__init__.py': text('"""Fxpy makes widgets from Python, quickly and without ceremony."""\nfrom fxpy._core import Widget\n'),
  'fxpy/_core.py': text('class Widget:\n    """A widget."""\n\n    def frobnicate(self, times=1):\n        """Frobnicate the widget the given number of times."""\n        return times\n\n    def _hidden(self):\n        """Private."""\n'),
  'fxpy/py.typed': text(''),
  'fxpy-1.0.0.dist-info/METADATA': text('Metadata-Version: 2.1\nName: fxpy\nVersion: 1.0.0\nDescription-Content-Type: text/markdown\n\n# fxpy\n\n## Usage\n\n```python\nimport fxpy\nfxpy.Widget().frobnicate(2)\n```\n'),
  'fxpy-1.0.0.dist-info/top_level.txt': text('fxpy\n'),
});
const crate = makeTgz([
  { name: 'fxcrate-0.3.1/Cargo.toml', body: '[package]\nname = "fxcrate"\nversion = "0.3.1"\nedition = "2021"\nrust-version = "1.70"\ndescription = "Widgets for Rust"\nlicense = "MIT"\n' },
  { name: 'fxcrate-0.3.1/README.md', body: '# fxcrate\n\n## Example\n\n```rust\nuse fxcrate::Widget;\nlet w = Widget::new(3);\nprintln!("{:?}", w);\n```\n' },
  { name: 'fxcrate-0.3.1/src/lib.rs', body: '//! Widgets for Rust programs, built from frobnicators of any size.\n\n/// A widget.\npub struct Widget { n: u32 }\n\nimpl Widget {\n    /// Builds a widget that can be frobnicated repeatedly.\n    pub fn new(n: u32) -> Self { Widget { n } }\n}\n' },
]);
const goZip = zipSync({
  'example.com/fxmod@v1.2.0/go.mod': text('module example.com/fxmod\n\ngo 1.21\n'),
  'example.com/fxmod@v1.2.0/README.md': text('# fxmod\n\nGo widgets.\n\n```go\npackage main\n\nimport "example.com/fxmod"\n\nfunc main() { fxmod.New() }\n```\n'),
  'example.com/fxmod@v1.2.0/fxmod.go': text('// Package fxmod builds widgets.\npackage fxmod\n\n// New returns a widget ready to be frobnicated by a router.\nfunc New() *Widget { return nil }\n\n// Widget is a widget.\ntype Widget struct{}\n'),
  'example.com/fxmod@v1.2.0/fxmod_test.go': text('package fxmod\n\n// TestSecret is a test.\nfunc TestSecret() {}\n'),
});
const gem = makeTar([
  { name: 'metadata.gz', body: zlib.gzipSync('--- !ruby/object:Gem::Specification\nname: fxgem\n') },
  { name: 'data.tar.gz', body: makeTgz([{ name: 'README.md', body: '# fxgem\n\n## Usage\n\n```ruby\nrequire \'fxgem\'\nFxgem.frobnicate\n```\n\nFxgem frobnicates widgets for Ruby applications.\n' }]) },
]);

describe('docs for PyPI, crates, Go and RubyGems (fakes on loopback)', () => {
  let fake: http.Server;
  let base = '';
  let server: TestServer;
  const get = (path: string) => fetch(`${server.url}${path}`).then(async (r) => ({ status: r.status, body: await r.json() }));

  before(async () => {
    fake = http.createServer((request, response) => {
      const path = request.url ?? '/';
      const json = (value: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const bytes = (value: Uint8Array) => response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(value));
      const release = [{ packagetype: 'bdist_wheel', url: '../../files/fxpy-1.0.0-py3-none-any.whl', size: wheel.length, filename: 'fxpy-1.0.0-py3-none-any.whl', requires_python: '>=3.9' }];
      if (path === '/pypi/fxpy/json') return json({ info: { version: '1.0.0', summary: 'Widgets', requires_python: '>=3.9', project_urls: { Documentation: 'https://fxpy.example.invalid/' } }, releases: { '1.0.0': release, '0.9.0': release }, urls: release });
      if (path === '/pypi/fxpy/1.0.0/json') return response.writeHead(404).end();
      if (path === '/files/fxpy-1.0.0-py3-none-any.whl') return bytes(wheel);
      if (path === '/index/fx/cr/fxcrate') return response.writeHead(200).end(['0.2.0', '0.3.1', '0.4.0-alpha.1'].map((vers) => JSON.stringify({ name: 'fxcrate', vers, yanked: false })).join('\n'));
      if (path === '/crates/fxcrate/fxcrate-0.3.1.crate') return bytes(crate);
      if (path === '/proxy/example.com/fxmod/@v/list') return response.writeHead(200).end('v1.1.0\nv1.2.0\n');
      if (path === '/proxy/example.com/fxmod/@v/v1.2.0.zip') return bytes(goZip);
      if (path === '/gems-api/api/v1/versions/fxgem.json') return json([{ number: '2.0.0', prerelease: false, ruby_version: '>= 3.0', licenses: ['MIT'], summary: 'Ruby widgets' }]);
      if (path === '/gems-api/gems/fxgem-2.0.0.gem') return bytes(gem);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    server = await startServer({ config: {
      TOOLDEX_DOCS_SITES: 'off', TOOLDEX_RATE_LIMIT_RPM: 10_000, TOOLDEX_PYPI_URL: base, TOOLDEX_CRATES_INDEX_URL: `${base}/index`,
      TOOLDEX_CRATES_DOWNLOAD_URL: `${base}/crates`, TOOLDEX_GOPROXY: `${base}/proxy`, TOOLDEX_RUBYGEMS_URL: `${base}/gems-api`,
    } });
    await addTools(server, [
      { slug: 'pypi-fxpy', ecosystem: 'pypi', name: 'fxpy' }, { slug: 'crates-fxcrate', ecosystem: 'crates', name: 'fxcrate' },
      { slug: 'go-example.com__fxmod', ecosystem: 'go', name: 'example.com/fxmod' }, { slug: 'rubygems-fxgem', ecosystem: 'rubygems', name: 'fxgem' },
    ]);
  });
  after(async () => {
    await server?.close();
    await new Promise((resolve) => fake?.close(resolve));
  });

  it('PyPI: docstrings of public API (also from private modules), METADATA readme, inspector URLs, python_requires', async () => {
    const { status, body } = await get('/tools/docs/pypi:fxpy?q=frobnicate%20the%20widget');
    assert.equal(status, 200);
    assert.equal(body.version, '1.0.0');
    assert.equal(body.docsUrl, 'https://fxpy.example.invalid/');
    assert.equal(body.results[0].title, 'fxpy.Widget.frobnicate');
    assert.match(body.results[0].url, /^https:\/\/inspector\.pypi\.io\/project\/fxpy\/1\.0\.0\/files\/fxpy-1\.0\.0-py3-none-any\.whl\/fxpy\/_core\.py#line\.4$/);
    assert.ok(!body.results.some((r: { title: string }) => /_hidden/.test(r.title)));
    const context = (await get('/tools/context/pypi-fxpy')).body;
    assert.deepEqual(context.requirements, { python: '>=3.9' });
    assert.deepEqual(context.imports, ['import fxpy']);
    assert.equal(context.typesIncluded, true);
    assert.equal(context.quickstart.code, 'import fxpy\nfxpy.Widget().frobnicate(2)');
    assert.deepEqual(context.install.map((i: { manager: string }) => i.manager), ['pip', 'uv', 'poetry']);
    assert.equal(context.testRequest.runtime, 'python');
  });

  it('crates: version from the sparse index (stable latest), item docs, docs.rs source URLs, MSRV', async () => {
    const { body } = await get('/tools/docs/crates:fxcrate?q=build%20a%20widget');
    assert.equal(body.version, '0.3.1');
    // The constructor and its type answer "build a widget" in nearly the same words; the README's Example section, whose
    // code builds one, may stand between them (at the fusion weight rrf 0.5, round 14): the constructor in the top 2,
    // the type in the top 3.
    const titles = body.results.map((r: { title: string }) => r.title);
    assert.ok(titles.slice(0, 2).includes('fxcrate::Widget::new'), titles.join(', '));
    assert.ok(titles.slice(0, 3).includes('fxcrate::Widget'), titles.join(', '));
    assert.equal(body.results.find((r: { title: string }) => r.title === 'fxcrate::Widget::new').url, 'https://docs.rs/crate/fxcrate/0.3.1/source/src/lib.rs#8');
    const context = (await get('/tools/context/crates-fxcrate@0.3')).body;
    assert.deepEqual(context.requirements, { rust: '1.70', edition: '2021' });
    assert.equal(context.install[0].command, 'cargo add fxcrate@0.3.1');
    assert.match(context.testRequest.files[0].code, /^use fxcrate::Widget;\n\nfn main\(\) \{/);
  });

  it('Go: exported identifiers (tests skipped), pkg.go.dev URLs, go version, a whole-program quickstart', async () => {
    const { body } = await get('/tools/docs/go:example.com%2Ffxmod?q=new%20widget%20ready%20to%20frobnicate');
    assert.equal(body.version, 'v1.2.0');
    assert.equal(body.results[0].title, 'fxmod.New');
    assert.equal(body.results[0].symbol, 'fxmod.New');
    assert.equal(body.results[0].url, 'https://pkg.go.dev/example.com/fxmod@v1.2.0#New');
    await server.app.docs.stored(); // the passages are written after the answer
    const all = await server.app.store.query<{ title: string }>("select title from docs_passages where slug = 'go-example.com__fxmod'");
    assert.ok(!all.some((r) => r.title === 'TestSecret'));
    const context = (await get('/tools/context/go-example.com__fxmod')).body;
    assert.deepEqual(context.requirements, { go: '1.21' });
    assert.equal(context.install[0].command, 'go get example.com/fxmod@v1.2.0');
    assert.equal(context.testRequest.files[0].path, 'main.go');
  });

  it('RubyGems: the README inside the .gem, rubydoc URLs, ruby requirement', async () => {
    const { body } = await get('/tools/docs/gem:fxgem?q=frobnicates%20widgets');
    assert.equal(body.version, '2.0.0');
    assert.match(body.results[0].url, /^https:\/\/www\.rubydoc\.info\/gems\/fxgem\/2\.0\.0\/file\/README\.md#L\d+$/);
    const context = (await get('/tools/context/rubygems-fxgem')).body;
    assert.deepEqual(context.requirements, { ruby: '>= 3.0' });
    assert.deepEqual(context.install.map((i: { command: string }) => i.command), ['gem install fxgem -v 2.0.0', 'bundle add fxgem --version 2.0.0']);
    assert.equal(context.quickstart.code, "require 'fxgem'\nFxgem.frobnicate");
  });
});
