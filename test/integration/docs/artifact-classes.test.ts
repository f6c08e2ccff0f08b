// Classes of documentation the registries' artifacts carry outside the files docs search first read, each through its
// registry source against a fake on 127.0.0.1 and extracted with the real parsers: a PyPI release's guides in the
// sdist with its generated module and `.pyi` stub in the wheel; a Go module's `Example…` functions and doc.go; a
// crate whose docs come from `#![doc = include_str!("../README.md")]` and `#[doc = include_str!(…)]`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { passagesFromArtifact } from '../../../src/docs/documents.ts';
import { exampleTarget } from '../../../src/docs/extract/golang.ts';
import { cratesSource } from '../../../src/docs/sources/crates.ts';
import { goSource } from '../../../src/docs/sources/gomod.ts';
import { pypiSource } from '../../../src/docs/sources/pypi.ts';
import { makeTgz } from './fixtures.ts';

const text = (value: string) => Buffer.from(value);
const sdist = makeTgz([
  { name: 'fxdocs-2.0.0/PKG-INFO', body: 'Metadata-Version: 2.1\nName: fxdocs\nVersion: 2.0.0\n' },
  { name: 'fxdocs-2.0.0/README.md', body: '# fxdocs\n\nWidgets from Python.\n' },
  { name: 'fxdocs-2.0.0/docs/retries.rst', body: 'Retrying widgets\n================\n\nCall ``fxdocs.retry`` with a backoff to retry a widget that failed to frobnicate.\n' },
  { name: 'fxdocs-2.0.0/lib/fxdocs/__init__.py', body: '"""Widgets."""\nfrom fxdocs.core import retry\nfrom fxdocs._speedups import frob\n__all__ = ["retry", "frob"]\n' },
  { name: 'fxdocs-2.0.0/lib/fxdocs/core.py', body: 'def retry(backoff):\n    """Retry a failed widget after ``backoff`` seconds."""\n' },
]);
const pyWheel = zipSync({
  'fxdocs/__init__.py': text('"""Widgets."""\nfrom fxdocs.core import retry\nfrom fxdocs._speedups import frob\n__all__ = ["retry", "frob"]\n'),
  'fxdocs/core.py': text('def retry(backoff):\n    """Retry a failed widget after ``backoff`` seconds."""\n'),
  'fxdocs/_version.py': text('version = "2.0.0"\n'),
  'fxdocs/_speedups.pyi': text('def frob(widget: bytes, times: int = 1) -> bytes:\n    """Frobnicate a widget in compiled code, many times faster."""\n    ...\n'),
  'fxdocs/_speedups.cpython-312-x86_64-linux-gnu.so': text('\u0000ELF'),
  'fxdocs-2.0.0.dist-info/METADATA': text('Metadata-Version: 2.1\nName: fxdocs\nVersion: 2.0.0\n'),
  'fxdocs-2.0.0.dist-info/top_level.txt': text('fxdocs\n'),
});
const goZip = zipSync({
  'example.com/fxgo@v1.0.0/go.mod': text('module example.com/fxgo\n\ngo 1.21\n'),
  'example.com/fxgo@v1.0.0/doc.go': text('// Package fxgo routes widgets to handlers.\n//\n// Start with New and register routes with Router.Handle.\npackage fxgo\n'),
  'example.com/fxgo@v1.0.0/fxgo.go': text('// fxgo internals.\npackage fxgo\n\n// Router routes widgets.\ntype Router struct{}\n\n// New returns a router.\nfunc New() *Router { return &Router{} }\n\nfunc (r *Router) Handle(pattern string) {}\n'),
  'example.com/fxgo@v1.0.0/example_test.go': text('package fxgo_test\n\nimport "example.com/fxgo"\n\n// Routes are registered on the router a program creates once.\nfunc ExampleRouter_Handle() {\n\tr := fxgo.New()\n\tr.Handle("/widgets")\n\t// Output:\n}\n\nfunc Example_quickstart() {\n\tfxgo.New()\n}\n'),
  'example.com/fxgo@v1.0.0/router_test.go': text('package fxgo\n\nimport "testing"\n\nfunc TestHandle(t *testing.T) {}\n'),
});
const crate = makeTgz([
  { name: 'fxinc-0.1.0/Cargo.toml', body: '[package]\nname = "fxinc"\nversion = "0.1.0"\nedition = "2021"\n' },
  { name: 'fxinc-0.1.0/README.md', body: '# fxinc\n\nThe readme, included as the crate docs.\n\n## Throttling widgets\n\nWrap a widget in `Throttle` to frobnicate it at most once per interval.\n' },
  { name: 'fxinc-0.1.0/docs/throttle.md', body: 'Limits how often a widget is frobnicated: at most once per `interval`.\n' },
  { name: 'fxinc-0.1.0/src/lib.rs', body: '#![doc = include_str!("../README.md")]\n\n#[doc = include_str!("../docs/throttle.md")]\npub struct Throttle { interval: u64 }\n' },
]);

describe('documentation classes of real artifact layouts (fakes on loopback)', () => {
  let fake: http.Server;
  let base = '';
  const limits = { timeoutMs: 5000, maxBytes: 1 << 24 };
  before(async () => {
    fake = http.createServer((request, response) => {
      const path = request.url ?? '/';
      const bytes = (value: Uint8Array) => response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(value));
      const files = [
        { packagetype: 'sdist', url: '/files/fxdocs-2.0.0.tar.gz', size: sdist.length, filename: 'fxdocs-2.0.0.tar.gz' },
        { packagetype: 'bdist_wheel', url: '/files/fxdocs-2.0.0-cp312-cp312-manylinux_2_17_x86_64.whl', size: pyWheel.length, filename: 'fxdocs-2.0.0-cp312-cp312-manylinux_2_17_x86_64.whl' },
      ];
      if (path === '/pypi/fxdocs/2.0.0/json') return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ info: { version: '2.0.0' }, urls: files }));
      if (path === '/files/fxdocs-2.0.0.tar.gz') return bytes(sdist);
      if (path === files[1]!.url) return bytes(pyWheel);
      if (path === '/proxy/example.com/fxgo/@v/v1.0.0.zip') return bytes(goZip);
      if (path === '/crates/fxinc/fxinc-0.1.0.crate') return bytes(crate);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  it('PyPI: guides from the sdist, the compiled module from its .pyi stub in the wheel', async () => {
    const artifact = await pypiSource({ baseUrl: base, limits, artifactLimits: limits }).artifact('fxdocs', '2.0.0');
    const paths = artifact.files.map((f) => f.path);
    assert.ok(paths.includes('docs/retries.rst'), 'the sdist guide');
    assert.ok(paths.includes('fxdocs/_speedups.pyi'), 'the stub only the wheel has');
    assert.ok(!paths.includes('fxdocs/core.py') && !paths.includes('fxdocs/__init__.py'), "the wheel's copy of a module the sdist has under lib/ is not read twice");
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'pypi', name: 'fxdocs', version: '2.0.0' });
    const guide = passages.find((p) => p.source === 'docs/retries.rst');
    assert.match(guide?.content ?? '', /retry a widget that failed/);
    assert.match(guide!.url, /fxdocs-2\.0\.0\.tar\.gz\/fxdocs-2\.0\.0\/docs\/retries\.rst/);
    const frob = passages.find((p) => p.symbol === 'fxdocs.frob');
    assert.ok(frob, 'the re-exported function documented in the stub');
    assert.match(frob.content, /Frobnicate a widget in compiled code/);
    assert.match(frob.url, /manylinux_2_17_x86_64\.whl\/fxdocs\/_speedups\.pyi#line\.1$/);
    assert.ok(passages.some((p) => p.symbol === 'fxdocs.retry' && p.source === 'lib/fxdocs/core.py'));
  });

  it('Go: Example functions are usage passages of the item they exemplify; doc.go is the package doc', async () => {
    const artifact = await goSource({ baseUrl: `${base}/proxy`, limits, artifactLimits: limits }).artifact('example.com/fxgo', 'v1.0.0');
    assert.ok(!artifact.files.some((f) => f.path === 'router_test.go'), 'test files without examples stay out');
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'go', name: 'example.com/fxgo', version: 'v1.0.0' });
    const example = passages.find((p) => p.symbol === 'fxgo.Router.Handle' && p.source === 'example_test.go');
    assert.ok(example, 'ExampleRouter_Handle exemplifies Router.Handle (which has no doc comment of its own)');
    assert.match(example.content, /Routes are registered on the router/);
    assert.match(example.content, /```go\nr := fxgo\.New\(\)\nr\.Handle\("\/widgets"\)/);
    assert.match(example.url, /#example-Router\.Handle$/);
    const quickstart = passages.find((p) => p.url.endsWith('#example-package-quickstart'));
    assert.ok(quickstart && quickstart.symbol === undefined, 'a package example is a section of its own');
    assert.ok(!passages.some((p) => p.content.includes('TestHandle')));
    const overview = passages.find((p) => p.symbol === 'example.com/fxgo');
    assert.equal(overview?.source, 'doc.go');
    assert.match(overview!.content, /routes widgets to handlers/);
    assert.deepEqual(exampleTarget('ExampleT_M_suffix'), { item: 'T.M', suffix: 'suffix' });
    assert.deepEqual(exampleTarget('ExampleT_suffix'), { item: 'T', suffix: 'suffix' });
    assert.equal(exampleTarget('Examples'), undefined);
  });

  it('crates: include_str! doc attributes, crate-level and on items', async () => {
    const artifact = await cratesSource({ baseUrl: base, indexUrl: `${base}/index`, downloadUrl: `${base}/crates`, limits, artifactLimits: limits }).artifact('fxinc', '0.1.0');
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'crates', name: 'fxinc', version: '0.1.0' });
    const throttle = passages.find((p) => p.symbol === 'fxinc::Throttle');
    assert.match(throttle?.content ?? '', /at most once per `interval`/);
    assert.ok(passages.some((p) => /frobnicate it at most once per interval/.test(p.content)), "the README's sections, as guide or crate docs");
  });
});
