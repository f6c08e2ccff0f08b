// What packages declare public, as the coverage bench counts it, read with the real parsers from small sources.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declaredGoApi, declaredNpmApi, declaredPythonApi, declaredRustApi } from '../../../src/docs/extract/declared-api.ts';
import { hasExplanation } from '../../../src/docs/extract/evidence.ts';
import { loadParsers } from '../../../src/docs/extract/treesitter.ts';

describe('declared public API', () => {
  it('npm: the exports of the entry points, and the properties of an `export =` value', async () => {
    const named = await declaredNpmApi(new Map([
      ['package.json', JSON.stringify({ exports: { '.': { types: './index.d.ts' } } })],
      ['index.d.ts', 'export declare function expand(s: string): string[];\nexport interface Options { max: number }\nexport declare const _internal: number;\nexport { helper } from "./helper.js";\n'],
      ['helper.d.ts', 'export declare function helper(): void;\n'],
    ]));
    assert.deepEqual(named.map((i) => i.name).sort(), ['Options', 'expand', 'helper']);
    const assigned = await declaredNpmApi(new Map([
      ['package.json', JSON.stringify({ types: 'index.d.ts' })],
      ['index.d.ts', 'export = _;\ndeclare const _: _.Static;\ndeclare namespace _ {\n  interface Static { debounce(f: () => void): () => void; throttle(f: () => void): () => void }\n}\n'],
    ]));
    assert.ok(['debounce', 'throttle', 'Static'].every((n) => assigned.some((i) => i.name === n)), JSON.stringify(assigned));
    // An entry of `/// <reference>`s to `declare module "x"` files (@types/node): those modules' exports, `node:x` once.
    const ambient = await declaredNpmApi(new Map([
      ['package.json', JSON.stringify({ types: 'index.d.ts' })],
      ['index.d.ts', '/// <reference path="util.d.ts" />\n'],
      ['util.d.ts', 'declare module "util" {\n  export function parseArgs(): void;\n  export function styleText(): string;\n}\ndeclare module "node:util" {\n  export * from "util";\n}\n'],
    ]));
    assert.deepEqual(ambient, [{ name: 'parseArgs', where: 'util' }, { name: 'styleText', where: 'util' }]);
  });

  it('PyPI: __all__, else public names, else the public submodules', async () => {
    const parsers = await loadParsers(['python']);
    const all = declaredPythonApi(parsers, new Map([['pkg/__init__.py', 'from .core import a, b\n__all__ = ["a", "__version__"]\n']]), 'pkg');
    assert.deepEqual(all.map((i) => i.name), ['a']);
    const names = declaredPythonApi(parsers, new Map([['src/pkg/__init__.py', 'import os\nfrom .core import Session as Session\ndef get(url):\n    pass\n_private = 1\ntry:\n    from ._speedups import fast\nexcept ImportError:\n    def fast():\n        inner = 1\n']]), 'pkg');
    assert.deepEqual(names.map((i) => i.name).sort(), ['Session', 'fast', 'get']);
    const submodules = declaredPythonApi(parsers, new Map([['pkg/__init__.py', ''], ['pkg/version.py', 'class Version:\n    pass\ndef _parse():\n    pass\n'], ['pkg/_impl.py', 'def hidden():\n    pass\n']]), 'pkg');
    assert.deepEqual(submodules, [{ name: 'Version', where: 'pkg.version' }]);
  });

  it('crates: pub items from the crate root, not trait implementations or private modules', async () => {
    const parsers = await loadParsers(['rust']);
    const items = await declaredRustApi(parsers, new Map([
      ['src/lib.rs', 'mod private;\npub mod public;\npub struct Buffer;\nimpl Buffer { pub fn format(&mut self) -> &str { "" } }\nimpl Default for Buffer { fn default() -> Self { Buffer } }\n'],
      ['src/public.rs', 'pub fn visible() {}\nfn hidden() {}\n'],
      ['src/private.rs', 'pub fn unreachable() {}\n'],
    ]), 'fx');
    assert.ok(items.some((i) => i.where === 'fx::Buffer::format'));
    assert.ok(items.some((i) => i.where === 'fx::public::visible'));
    assert.ok(!items.some((i) => i.name === 'default' || i.name === 'unreachable' || i.name === 'hidden'));
  });

  it('Go: exported identifiers of non-internal library packages', async () => {
    const parsers = await loadParsers(['go']);
    const items = declaredGoApi(parsers, new Map([
      ['router.go', 'package fx\n\ntype Router struct{}\nfunc (r *Router) Handle() {}\nfunc (r *Router) serve() {}\nfunc New() *Router { return nil }\nconst (\n\tMax = 1\n\tmin = 0\n)\n'],
      ['internal/x/x.go', 'package x\nfunc Hidden() {}\n'],
      ['cmd/tool/main.go', 'package main\nfunc Run() {}\n'],
      ['router_test.go', 'package fx\nfunc TestRouter() {}\n'],
    ]));
    assert.deepEqual(items.map((i) => i.name).sort(), ['fx.Max', 'fx.New', 'fx.Router', 'fx.Router.Handle']);
  });

  it('a passage explains when it has prose beyond its code', () => {
    assert.equal(hasExplanation('```ts\ncancel(message?: string): void\n```'), false);
    assert.equal(hasExplanation('```ts\ncancel(message?: string): void\n```\n\nCancels the request in flight.'), true);
    assert.equal(hasExplanation('`x`'), false);
  });
});

describe('PyPI import name without top_level.txt', () => {
  it('prefers the package directory named like the distribution, then a public one', async () => {
    const { importNameOf } = await import('../../../src/docs/sources/pypi.ts');
    assert.equal(importNameOf('cryptography', undefined, ['_cffi_src', 'cryptography']), 'cryptography');
    assert.equal(importNameOf('python-dateutil', undefined, ['tests', 'dateutil']), 'dateutil');
    assert.equal(importNameOf('fx', undefined, ['_build', 'zeta', 'alpha_long']), 'zeta');
  });

  it('reads every public top-level package a distribution ships (attrs: attr and attrs), not tests or private ones', async () => {
    const { topLevelPackages } = await import('../../../src/docs/sources/pypi.ts');
    assert.deepEqual(topLevelPackages(['attr/__init__.py', 'attr/_make.py', 'attrs/__init__.py', 'attrs/__init__.pyi', 'tests/__init__.py', '_private/__init__.py', 'README.md']), ['attr', 'attrs']);
    assert.deepEqual(topLevelPackages(['src/pkg/__init__.py', 'lib/other/__init__.py', 'src/pkg/sub/__init__.py']), ['pkg', 'other']);
  });

  it('extracts the API of a distribution whose definitions live in a sibling package it re-exports from', async () => {
    const { apiFromPythonPackage } = await import('../../../src/docs/extract/python.ts');
    const files = new Map([
      ['attr/__init__.py', 'from ._make import define\n__all__ = ["define"]\n'],
      ['attr/_make.py', 'def define(maybe_cls=None):\n    """Define an attrs class."""\n    return maybe_cls\n'],
      ['attrs/__init__.py', 'from attr import define\n__all__ = ["define"]\n'],
    ]);
    const parsers = await loadParsers(['python']);
    const alone = await apiFromPythonPackage(parsers, { files, importNames: ['attrs'], locate: () => 'u' });
    const both = await apiFromPythonPackage(parsers, { files, importNames: ['attrs', 'attr'], locate: () => 'u' });
    assert.ok(both.some((p) => p.symbol?.endsWith('define') && /Define an attrs class/.test(p.content)), JSON.stringify(both.map((p) => p.symbol)));
    assert.ok(!alone.some((p) => /Define an attrs class/.test(p.content)), 'with only the re-exporting package the definition is not found (the bug)');
  });
});
