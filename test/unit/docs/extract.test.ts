// API extractors on real snippets (trimmed from the published tokio, itertools, clap, pydantic, FastAPI, httpx, cobra,
// testify, nanoid, vitest and hono artifacts): what is indexed, under which public symbol, with which doc text.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromNpmPackage, cleanJsDoc, typeEntries } from '../../../src/docs/extract/dts.ts';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { apiFromPythonPackage } from '../../../src/docs/extract/python.ts';
import { apiFromRustCrate } from '../../../src/docs/extract/rust.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';

const locate = (file: string, where: { line?: number; anchor?: string }) => `${file}#${where.line ?? where.anchor ?? ''}`;
const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

interface Expect { symbol: string; has?: RegExp; lacks?: RegExp; internal?: boolean; source?: string }
interface Case { name: string; extract(parsers: Parsers): Promise<PassageDraft[]>; expect: Expect[]; absent?: RegExp[] }

const rust = (crate: string, sources: Record<string, string>) => (parsers: Parsers) => apiFromRustCrate(parsers, { crate, files: files(sources), locate });
const python = (names: string[], sources: Record<string, string>) => (parsers: Parsers) => apiFromPythonPackage(parsers, { files: files(sources), importNames: names, locate });
const go = (module: string, sources: Record<string, string>) => (parsers: Parsers) => apiFromGoModule(parsers, { module, files: files(sources), locate });
const npm = (name: string, manifest: Record<string, unknown>, sources: Record<string, string>) => () =>
  apiFromNpmPackage({ name, manifest, files: files({ 'package.json': JSON.stringify(manifest), ...sources }), locate });

const cases: Case[] = [
  {
    name: 'Rust: every item of a public trait is API, though trait items carry no `pub` (itertools)',
    extract: rust('itertools', {
      'src/lib.rs': 'pub trait Itertools: Iterator {\n    /// Return an *iterable* that can group iterator elements.\n    /// Consecutive elements that map to the same key ("runs"), are assigned to the same group.\n    fn chunk_by<K, F>(self, key: F) -> ChunkBy<K, Self, F>\n    where\n        Self: Sized,\n        F: FnMut(&Self::Item) -> K,\n    {\n        chunk_by::new(self, key)\n    }\n}\n',
    }),
    expect: [{ symbol: 'itertools::Itertools::chunk_by', has: /fn chunk_by<K, F>\(self, key: F\) -> ChunkBy<K, Self, F> where/ }],
  },
  {
    name: 'Rust: a multi-line attribute between the doc and the item keeps the doc (tokio mpsc::channel)',
    extract: rust('tokio', {
      'src/lib.rs': 'pub mod sync;\n',
      'src/sync/mod.rs': 'pub mod mpsc;\n',
      'src/sync/mpsc/mod.rs': 'mod bounded;\npub use self::bounded::{channel, Receiver, Sender};\n',
      'src/sync/mpsc/bounded.rs': '/// Creates a bounded mpsc channel for communicating between asynchronous tasks\n/// with backpressure.\n#[track_caller]\n#[cfg_attr(\n    all(tokio_unstable, feature = "tracing"),\n    allow(unused)\n)]\npub fn channel<T>(buffer: usize) -> (Sender<T>, Receiver<T>) {\n    todo!()\n}\n\npub(crate) fn helper() {}\n',
    }),
    expect: [{ symbol: 'tokio::sync::mpsc::channel', has: /Creates a bounded mpsc channel/, source: 'src/sync/mpsc/bounded.rs' }],
    absent: [/helper/],
  },
  {
    name: 'Rust: items inside `cfg_*! { }` wrappers and a private module re-exported by its parent (tokio::time::timeout)',
    extract: rust('tokio', {
      'src/lib.rs': 'cfg_time! {\n    pub mod time;\n}\nmod util;\n',
      'src/time/mod.rs': 'mod timeout;\npub use timeout::{timeout, Timeout};\n',
      'src/time/timeout.rs': 'cfg_rt! {\n    /// Requires a `Future` to complete before the specified duration has elapsed.\n    pub fn timeout<F>(duration: Duration, future: F) -> Timeout<F::IntoFuture> where F: IntoFuture {\n        todo!()\n    }\n}\n',
      'src/util.rs': '/// A helper nobody re-exports.\npub fn spin() {}\n',
    }),
    expect: [
      { symbol: 'tokio::time::timeout', has: /Requires a `Future` to complete/ },
      { symbol: 'tokio::spin', internal: true },
    ],
  },
  {
    name: 'Rust: methods of a public type are public though its `impl` sits in a private module (anyhow::Error)',
    extract: rust('anyhow', {
      'src/lib.rs': 'mod error;\nmod chain;\n\n/// The `Error` type, a wrapper around a dynamic error type.\npub struct Error {\n    inner: Own<ErrorImpl>,\n}\n',
      'src/error.rs': 'impl Error {\n    /// Downcast this error object by reference.\n    pub fn downcast_ref<E>(&self) -> Option<&E>\n    where\n        E: Display + Debug + Send + Sync + \'static,\n    {\n        todo!()\n    }\n}\n\nstruct ErrorImpl;\nimpl ErrorImpl {\n    /// Only the crate calls this.\n    pub fn vtable(&self) {}\n}\n',
    }),
    expect: [
      { symbol: 'anyhow::Error::downcast_ref', has: /Downcast this error object by reference/, internal: false },
      { symbol: 'anyhow::ErrorImpl::vtable', internal: true },
    ],
  },
  {
    name: 'Rust: `include_str!` docs are read from the crate files (clap tutorial, README as crate docs)',
    extract: rust('clap', {
      'src/lib.rs': '#![doc = include_str!("../README.md")]\n\n#[doc(hidden)]\npub mod secret;\npub mod _tutorial;\n',
      'README.md': '# clap\n\nCommand Line Argument Parser for Rust, fast and full-featured.\n',
      'src/_tutorial.rs': '//! ## Quick Start\n//!\n//! Here is a preview of the type of application you can make:\n//! ```rust\n#![doc = include_str!("../examples/tutorial_derive/01_quick.rs")]\n//! ```\n',
      'examples/tutorial_derive/01_quick.rs': 'use clap::Parser;\n\n#[derive(Parser)]\nstruct Cli {\n    name: Option<String>,\n}\n',
      'src/secret.rs': '/// Hidden from rustdoc.\npub fn internal_thing() {}\n',
    }),
    expect: [
      { symbol: 'clap', has: /Command Line Argument Parser for Rust/ },
      { symbol: 'clap::_tutorial', has: /```rust\nuse clap::Parser;\n\n#\[derive\(Parser\)\]/ },
    ],
    absent: [/internal_thing/],
  },
  {
    name: 'Rust: a doc-lending wrapper macro and an exported macro_rules (tokio select!)',
    extract: rust('tokio', {
      'src/lib.rs': '#[macro_use]\n#[doc(hidden)]\npub mod macros;\n',
      'src/macros.rs': 'macro_rules! doc {\n    ($select:item) => {\n        /// Waits on multiple concurrent branches, returning when the **first** branch completes.\n        #[macro_export]\n        $select\n    };\n}\n\n#[cfg(doc)]\ndoc! {macro_rules! select {\n    ($($t:tt)*) => { unimplemented!() };\n}}\n\n#[cfg(not(doc))]\ndoc! {macro_rules! select {\n    ($($t:tt)*) => { real!() };\n}}\n',
    }),
    expect: [{ symbol: 'tokio::select!', has: /Waits on multiple concurrent branches/ }],
  },
  {
    name: 'Python: names of another distribution re-exported on purpose (`X as X`) are API, with where they come from (fastapi.responses)',
    extract: python(['fastapi'], {
      'fastapi/__init__.py': '"""FastAPI framework, high performance, easy to learn, fast to code, ready for production"""\nfrom .applications import FastAPI as FastAPI\n',
      'fastapi/responses.py': 'from typing import Any\n\nfrom starlette.responses import FileResponse as FileResponse  # noqa\nfrom starlette.responses import HTMLResponse as HTMLResponse  # noqa\nfrom starlette.responses import Response\nfrom fastapi.encoders import jsonable_encoder as jsonable_encoder\n\n\nclass UJSONResponse(JSONResponse):\n    """JSON response using the ujson library to serialize data to JSON."""\n',
      'fastapi/_compat.py': 'from pydantic import BaseModel as BaseModel\n',
    }),
    expect: [
      { symbol: 'fastapi.responses.HTMLResponse', has: /from starlette\.responses import HTMLResponse\n```\n\nRe-exported from another package: `starlette\.responses\.HTMLResponse`/ },
      { symbol: 'fastapi.responses.FileResponse' },
      { symbol: 'fastapi.responses.UJSONResponse', has: /ujson library/ },
    ],
    absent: [/responses\.Response$|BaseModel|jsonable_encoder/],
  },
  {
    name: 'Python: attribute docstrings, public path through the package __init__ (pydantic.ConfigDict.extra)',
    extract: python(['pydantic'], {
      'pydantic/__init__.py': "__all__ = ('ConfigDict', 'Field')\n_dynamic_imports = {'ConfigDict': (__spec__.parent, '.config'), 'Field': (__spec__.parent, '.fields')}\n",
      'pydantic/config.py': "class ConfigDict(TypedDict, total=False):\n    \"\"\"A TypedDict for configuring Pydantic behaviour.\"\"\"\n\n    extra: ExtraValues | None\n    '''\n    Whether to ignore, allow, or forbid extra data during model initialization. Defaults to `'ignore'`.\n    '''\n\n    frozen: bool\n    \"\"\"Whether models are faux-immutable.\"\"\"\n",
      'pydantic/fields.py': 'def Field(default=None, *, alias=None):\n    """Usage docs: fields.\n\n    Args:\n        alias: The name to use for the attribute when validating or serializing by alias."""\n',
      'pydantic/v1/fields.py': 'def Field(default=None):\n    """The pydantic v1 Field."""\n',
      'pydantic/_internal/_config.py': 'class ConfigWrapper:\n    """Internal wrapper for Config."""\n',
      'tests/test_config.py': 'def test_extra():\n    """A test."""\n',
    }),
    expect: [
      { symbol: 'pydantic.ConfigDict.extra', has: /```python\nextra: ExtraValues \| None\n```\n\nWhether to ignore, allow, or forbid extra data/ },
      { symbol: 'pydantic.ConfigDict.frozen', has: /faux-immutable/ },
      { symbol: 'pydantic.Field', source: 'pydantic/fields.py' },
      { symbol: 'pydantic.v1.fields.Field', source: 'pydantic/v1/fields.py' },
    ],
    absent: [/ConfigWrapper/, /test_extra/],
  },
  {
    name: 'Python: `Annotated[…, Doc("…")]` parameter docs and re-exports from private modules (FastAPI, httpx)',
    extract: python(['fastapi', 'httpx'], {
      'fastapi/__init__.py': 'from .param_functions import Query as Query\n',
      'fastapi/param_functions.py': 'def Query(  # noqa: N802\n    default: Annotated[Any, Doc("""Default value if the parameter field is not set.""")] = Undefined,\n    *,\n    max_length: Annotated[\n        int | None,\n        Doc(\n            """\n            Maximum length for strings.\n            """\n        ),\n    ] = None,\n) -> Any:\n    return params.Query(default=default, max_length=max_length)\n',
      'httpx/__init__.py': 'from ._client import AsyncClient\n\n__all__ = ["AsyncClient"]\n',
      'httpx/_client.py': 'class AsyncClient(BaseClient):\n    """\n    An asynchronous HTTP client, with connection pooling, HTTP/2, redirects.\n    """\n\n    def _private(self):\n        """Not API."""\n\nclass _Helper:\n    """Not API."""\n',
    }),
    expect: [
      { symbol: 'fastapi.Query', has: /- `max_length`: Maximum length for strings\./ },
      { symbol: 'httpx.AsyncClient', has: /asynchronous HTTP client/, internal: false },
    ],
    absent: [/_private|_Helper/],
  },
  {
    name: 'Go: exported identifiers as pkg.Name, methods as pkg.Type.Method, interface methods; tests, internal and unexported skipped',
    extract: go('github.com/spf13/cobra', {
      'doc.go': '// Package cobra is a commander providing a simple interface to create powerful modern CLI interfaces.\npackage cobra\n',
      'command.go': 'package cobra\n\n// Command is just that, a command for your application.\ntype Command struct {\n\tUse string\n}\n\n// MarkFlagRequired instructs the various shell completion implementations to\n// prioritize the named flag when performing completion,\n// and causes your command to report an error if invoked without the flag.\nfunc (c *Command) MarkFlagRequired(name string) error {\n\treturn nil\n}\n\n// helper is unexported.\nfunc helper() {}\n\n// PositionalArgs validates arguments.\ntype Validator interface {\n\t// Validate checks the args.\n\tValidate(args []string) error\n}\n\nfunc ExactArgs(n int) PositionalArgs { return nil }\n',
      'command_test.go': 'package cobra\n\n// TestSecret is a test.\nfunc TestSecret() {}\n',
      'internal/x/x.go': 'package x\n\n// Hidden is internal.\nfunc Hidden() {}\n',
    }),
    expect: [
      { symbol: 'github.com/spf13/cobra', has: /commander providing a simple interface/ },
      { symbol: 'cobra.Command.MarkFlagRequired', has: /func \(c \*Command\) MarkFlagRequired\(name string\) error/ },
      { symbol: 'cobra.Validator.Validate', has: /Validate checks the args/ },
      { symbol: 'cobra.ExactArgs', has: /func ExactArgs\(n int\) PositionalArgs/ },
    ],
    absent: [/helper|TestSecret|Hidden/],
  },
  {
    name: 'TypeScript: a declaration file without semicolons keeps each JSDoc on its own function (nanoid)',
    extract: npm('nanoid', { types: './index.d.ts' }, {
      'index.d.ts': '/**\n * Generate secure URL-friendly unique ID.\n *\n * By default, the ID will have 21 symbols.\n */\nexport function nanoid<Type extends string>(size?: number): Type\n\n/**\n * Generate secure unique ID with custom alphabet.\n *\n * ```js\n * const nanoid = customAlphabet(\'0123456789\', 5)\n * ```\n */\nexport function customAlphabet<Type extends string>(\n  alphabet: string,\n  defaultSize?: number\n): (size?: number) => Type\n',
    }),
    expect: [
      { symbol: 'nanoid.nanoid', has: /21 symbols/, lacks: /custom alphabet/ },
      { symbol: 'nanoid.customAlphabet', has: /export function customAlphabet<Type extends string>\( alphabet: string, defaultSize\?: number \): \(size\?: number\) => Type\n```\n\nGenerate secure unique ID with custom alphabet/ },
    ],
  },
  {
    name: 'TypeScript: exports followed into bundler chunks under their public names; unexported helpers internal (vitest, hono)',
    extract: npm('vitest', { exports: { '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' } }, './cors': { types: './dist/cors.d.ts' } } }, {
      'dist/index.d.ts': "import { z as spyOn } from './chunks/config.d.Bx.js';\nexport { spyOn };\nexport interface VitestUtils {\n  /**\n   * Makes all imports of the path return a mock.\n   */\n  mock(path: string): void\n  /** @internal */\n  _secret(): void\n}\n",
      'dist/chunks/config.d.Bx.d.ts': '/** Creates a spy on a method or getter/setter of an object. */\ndeclare function spyOn(obj: object, method: string): unknown;\n/** Used only inside the bundle. */\ndeclare function bundleHelper(): void;\nexport { spyOn as z };\n',
      'dist/cors.d.ts': '/**\n * CORS Middleware for Hono.\n */\nexport declare const cors: (options?: CORSOptions) => MiddlewareHandler;\n',
    }),
    expect: [
      { symbol: 'vitest.spyOn', has: /Creates a spy on a method/, source: 'dist/chunks/config.d.Bx.d.ts', internal: false },
      { symbol: 'vitest.VitestUtils.mock', has: /mock\(path: string\): void\n```\n\nMakes all imports/ },
      { symbol: 'vitest/cors.cors', has: /CORS Middleware for Hono/ },
      { symbol: 'vitest.bundleHelper', internal: true },
    ],
    absent: [/_secret/],
  },
  {
    name: 'npm: members of an object type alias and of an exported namespace are read like an interface\'s (yaml options, lru-cache)',
    extract: npm('cachelib', { exports: { './raw': { types: './index.d.ts' }, '.': { types: './index.d.ts' } } }, {
      'index.d.ts': 'export type ToStringOptions = {\n  /** Maximum line width (set to `0` to disable folding). */\n  lineWidth?: number;\n  indent?: number;\n} & ({\n  /** When stringifying a map, sort the entries. */\n  sortMapEntries?: boolean;\n});\n'
        + 'export declare class Cache {\n  /** Return an array of entries, for `load()`. */\n  dump(): unknown[];\n  /** {@link Cache.OptionsBase.ttlAutopurge} */\n  ttlAutopurge: boolean;\n}\nexport declare namespace Cache {\n  interface OptionsBase {\n    /** Preemptively remove stale items from the cache. */\n    ttlAutopurge?: boolean;\n    /** @internal */\n    hidden?: boolean;\n  }\n  type __Typing = number;\n}\n',
    }),
    expect: [
      { symbol: 'cachelib.ToStringOptions.lineWidth', has: /disable folding/ },
      { symbol: 'cachelib.ToStringOptions.sortMapEntries', has: /sort the entries/ },
      // Without a comment of its own, the type is explained by its documented members' first sentences.
      { symbol: 'cachelib.ToStringOptions', has: /export type ToStringOptions = \{\n  indent\?: number;\n\}[\s\S]*Members:\n\n- `lineWidth`: Maximum line width \(set to `0` to disable folding\)\./ },
      { symbol: 'cachelib.Cache.dump', has: /for `load\(\)`/ },
      // A doc that only links elsewhere is folded into its owner, as a comment-less member is.
      { symbol: 'cachelib.Cache', has: /ttlAutopurge: boolean/ },
      { symbol: 'cachelib.Cache.OptionsBase.ttlAutopurge', has: /Preemptively remove stale items/ },
    ],
    absent: [/hidden/, /__Typing/, /^cachelib\/raw/, /^cachelib\.Cache\.ttlAutopurge$/],
  },
  {
    name: 'npm: an entry that only references `declare module "x"` files answers from those modules (@types/node)',
    extract: npm('@types/node', { types: 'index.d.ts' }, {
      'index.d.ts': '/// <reference path="util.d.ts" />\n/// <reference path="fs.d.ts" />\n',
      'util.d.ts': 'declare module "util" {\n  /** Provides a higher level API for command-line argument parsing. */\n  export function parseArgs(config?: object): object;\n}\ndeclare module "node:util" {\n  export * from "util";\n}\n',
      'fs.d.ts': 'declare module "fs" {\n  /** Creates a unique temporary directory. */\n  export function mkdtemp(prefix: string, callback: () => void): void;\n  export function mkdtemp(prefix: string, options: object, callback: () => void): void;\n  export namespace mkdtemp {\n    function __promisify__(prefix: string): Promise<string>;\n  }\n}\n',
    }),
    expect: [
      { symbol: 'util.parseArgs', has: /command-line argument parsing/ },
      { symbol: 'fs.mkdtemp', has: /function mkdtemp\(prefix: string, options: object/ },
    ],
    absent: [/^node:/, /__promisify__/],
  },
  {
    name: 'npm: `export =` a value typed by an interface the entry does not export: documented properties alone, bare ones folded into the value (picocolors)',
    extract: npm('fx-colors', { types: 'index.d.ts' }, {
      'index.d.ts': 'import { Colors } from "./types"\n\ndeclare const fx: Colors & {\n  /** Makes a formatter set with colours forced on or off. */\n  createColors: (enabled?: boolean) => Colors\n  level: number\n}\n\nexport = fx\n',
      'types.d.ts': 'export type Formatter = (input: string) => string\n/** The colour functions of a formatter set. */\nexport interface Colors {\n  isColorSupported: boolean\n  /** Paints the text green. */\n  green: Formatter\n  red: Formatter\n}\n',
    }),
    expect: [
      { symbol: 'fx-colors.createColors', has: /Makes a formatter set/ },
      { symbol: 'fx-colors.green', has: /Paints the text green/, source: 'types.d.ts' },
      { symbol: 'fx-colors.fx', has: /\{\n {2}level: number;\n {2}isColorSupported: boolean;\n {2}red: Formatter;\n\}/, lacks: /Paints the text green|green: Formatter/ },
    ],
    absent: [/\.isColorSupported$/, /\.red$/, /\.level$/, /Colors\.green/],
  },
  {
    name: "npm: `export =` a value of a type wider than the properties read: the value's own additions are kept",
    extract: npm('fx-wide', { types: 'index.d.ts' }, {
      'index.d.ts': 'import { Colors } from "./types"\n\ndeclare const fx: Colors & {\n  /** Makes a formatter set with colours forced on or off. */\n  createColors: (enabled?: boolean) => Colors\n}\n\nexport = fx\n',
      'types.d.ts': `export interface Colors {\n${Array.from({ length: 450 }, (_, i) => `  /** Paints the text in shade ${i}. */\n  shade${i}: (input: string) => string\n`).join('')}}\n`,
    }),
    expect: [{ symbol: 'fx-wide.createColors', has: /Makes a formatter set/ }],
  },
  {
    name: 'npm: a value typed `typeof other` (own doc only `@see`), a type that is another type, and an `@see` to a documented item take the first sentence of what they name',
    extract: npm('fx-alias', { name: 'fx-alias', types: 'index.d.ts' }, {
      'index.d.ts': [
        '/**\n * Ensures that the file exists, creating its folders.\n *\n * @example\n * ensureFile("a/b.txt")\n */',
        'export function ensureFile(file: string): Promise<void>;',
        '/** @see ensureFile */\nexport const createFile: typeof ensureFile;',
        'export const touch: typeof ensureFile;',
        '/** Options of every call, read once. */\nexport interface BaseOptions { depth: number }',
        'export type Options = BaseOptions;',
        'export const bare: typeof undocumented;\ndeclare function undocumented(): void;',
        '/** Reads a JSON file and parses it. */\nexport const readJson: typeof elsewhere.readFile;',
        '/** @see readJson */\nexport const readJSON: typeof elsewhere.readFile;',
        'declare namespace elsewhere { function readFile(file: string): unknown }',
      ].join('\n'),
    }),
    expect: [
      { symbol: 'fx-alias.createFile', has: /Alias of `ensureFile`: Ensures that the file exists, creating its folders\./, lacks: /@example|b\.txt/ },
      { symbol: 'fx-alias.touch', has: /Alias of `ensureFile`/ },
      { symbol: 'fx-alias.Options', has: /Alias of `BaseOptions`: Options of every call, read once\./ },
      { symbol: 'fx-alias.bare', lacks: /Alias of/ },
      { symbol: 'fx-alias.readJSON', has: /See `readJson`: Reads a JSON file and parses it\./ },
    ],
  },
];

describe('API extractors (table)', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(); });
  for (const c of cases) {
    it(c.name, async () => {
      const passages = await c.extract(parsers);
      const symbols = passages.map((p) => p.symbol ?? p.title ?? '');
      for (const want of c.expect) {
        const found = passages.filter((p) => p.symbol === want.symbol);
        assert.ok(found.length, `no passage for ${want.symbol}; got ${symbols.join(', ')}`);
        if (want.has) assert.ok(found.some((p) => want.has!.test(p.content)), `${want.symbol}: ${found.map((p) => p.content).join('\n---\n')}`);
        if (want.lacks) assert.ok(!found.some((p) => want.lacks!.test(p.content)), `${want.symbol} swallowed another doc`);
        if (want.internal !== undefined) assert.equal(Boolean(found[0]!.internal), want.internal, `${want.symbol} internal`);
        if (want.source) assert.equal(found[0]!.source, want.source);
      }
      for (const pattern of c.absent ?? []) assert.ok(!symbols.some((s) => pattern.test(s)), `${pattern} should not be indexed: ${symbols.join(', ')}`);
    });
  }
});

describe('typeEntries and cleanJsDoc', () => {
  it('reads types from exports conditions, sibling .d.ts of a .js target, and the types field', () => {
    const have = new Map([['dist/index.d.ts', ''], ['dist/mini.d.mts', ''], ['index.d.ts', '']]);
    assert.deepEqual(typeEntries({ files: have, manifest: { exports: { '.': { import: { types: './dist/index.d.ts' } }, './mini': { import: './dist/mini.mjs' }, './utils/*': './dist/utils/*.js', './package.json': './package.json' } } }),
      [{ subpath: '.', file: 'dist/index.d.ts' }, { subpath: './mini', file: 'dist/mini.d.mts' }]);
    assert.deepEqual(typeEntries({ files: have, manifest: { types: './index.d.ts' } }), [{ subpath: '.', file: 'index.d.ts' }]);
  });
  it('turns @example into fenced code', () => assert.equal(cleanJsDoc('/**\n * Hello\n * @example\n * run()\n */'), 'Hello\n\n```ts\nrun()\n```'));
  it('reads an @example <caption> as the example\'s title, not its code', () => assert.equal(
    cleanJsDoc('/**\n * Hello\n * @example <caption>Run once</caption>\n * run()\n */'), 'Hello\n\nRun once\n\n```ts\nrun()\n```'));
});
