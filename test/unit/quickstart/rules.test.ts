// The rules of round 2's second session: fragments completed with the definitions they use from earlier on the page,
// the central API preferred over a corner case, outputs that only echo their input kept in reserve, Go pins the
// sandbox's toolchain can build, and builds that fit the sandbox. Pure logic over real parses; no network.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { combineFragments } from '../../../src/quickstart/combine.ts';
import { goDirective, goMeets } from '../../../src/quickstart/go-pin.ts';
import { echoesInput, meaningfulStdout } from '../../../src/quickstart/outcome.ts';
const outcome = { meaningfulStdout };
import { makeProgram, repairFor } from '../../../src/quickstart/programs/index.ts';
import { cargoManifest } from '../../../src/quickstart/programs/rust.ts';
import { centrality, rankCandidates } from '../../../src/quickstart/score.ts';
import type { Candidate, PackageInfo } from '../../../src/quickstart/types.ts';

const block = (code: string, language: string, line: number, path = 'README.md'): Candidate => ({ code, language, origin: 'readme', path, source: `u/${path}#L${line}` });

describe('fragment combination', () => {
  it('completes a JavaScript block with the earlier block that defines what it uses, once, before it', async () => {
    const page = [
      block('import * as z from "zod";\n\nconst Player = z.object({ username: z.string() });', 'ts', 1),
      block('Player.parse({ username: "billie" });\n// => { username: "billie" }', 'ts', 9),
      block('const other = z.string().parseAsync("hello");', 'ts', 14),
    ];
    const out = await combineFragments('npm', page);
    assert.equal(out.length, 4);
    assert.deepEqual(out[1]!.combinedFrom, ['u/README.md#L1']);
    assert.equal(out[1]!.source, 'u/README.md#L9');
    assert.equal(out[1]!.code, 'import * as z from "zod";\n\nconst Player = z.object({ username: z.string() });\n\nPlayer.parse({ username: "billie" });\n// => { username: "billie" }');
    // `z` comes from an import, which the program maker adds itself: no block is glued for it.
    assert.equal(out[3]!.combinedFrom, undefined);
  });

  it('does not glue a block that binds again what the earlier block binds (its own example, not a continuation)', async () => {
    const page = [
      block("import { Map } from 'immutable';\nconst map1 = Map({ a: 1 });\nconst map2 = map1.set('a', 2);", 'js', 1),
      block("var map1: Map<string, number>;\nmap1 = Map({ a: 1 });\nvar map2 = map1.set('a', 50);", 'ts', 9),
      block("console.log(map2.get('a'));", 'js', 20),
    ];
    const out = await combineFragments('npm', page);
    // The TypeScript block redeclares map1/map2: left alone. The last one still joins the block that defines map2.
    assert.equal(out.filter((c) => c.source === 'u/README.md#L9').length, 1);
    assert.ok(out.some((c) => c.source === 'u/README.md#L20' && c.combinedFrom?.length));
  });

  it('follows definitions transitively, stays within one file and keeps each import once', async () => {
    const out = await combineFragments('pypi', [
      block('import demo\n\nconfig = demo.Config(level=2)', 'python', 1),
      block('client = demo.Client(config)', 'python', 5),
      block('print(client.run())', 'python', 1, 'docs/other.md'),
      block('import demo\nprint(client.run())', 'python', 9),
    ]);
    const last = out[out.length - 2]!; // the combined program, just before the block it completes
    assert.equal(out[out.length - 1]!.combinedFrom, undefined);
    assert.deepEqual(last.combinedFrom, ['u/README.md#L1', 'u/README.md#L5']);
    assert.equal(last.code, 'import demo\n\nconfig = demo.Config(level=2)\n\nclient = demo.Client(config)\n\nprint(client.run())');
    assert.equal(out.find((c) => c.path === 'docs/other.md')!.combinedFrom, undefined);
  });

  it('joins a Python transcript to a script as scripts, and leaves a Rust block with its own main alone', async () => {
    const py = await combineFragments('pypi', [block('>>> import demo\n>>> d = demo.load("x")', 'pycon', 1), block('print(d.size)', 'python', 4)]);
    assert.equal(py[1]!.code, 'import demo\nd = demo.load("x")\n\nprint(d.size)');
    const rs = await combineFragments('crates', [
      block('# use demo::Thing;\nlet thing = Thing::new();', 'rust', 1),
      block('println!("{}", thing.size());', 'rust', 5),
      block('fn main() {\n    println!("{}", thing.size());\n}', 'rust', 9),
    ]);
    assert.deepEqual(rs.map((c) => c.combinedFrom?.length ?? 0), [0, 1, 0, 0]);
    // rustdoc doctests of one source file are independent programs: never glued.
    const doctests = await combineFragments('crates', [
      { ...block('let (tx, rx) = demo::channel();', 'rust', 1, 'src/lib.rs'), origin: 'doctest' },
      { ...block('tx.send(1);', 'rust', 9, 'src/lib.rs'), origin: 'doctest' },
    ]);
    assert.equal(doctests.length, 2);
  });
});

describe('representative quickstarts', () => {
  it('scores blocks that call the API the page keeps using above a corner case', () => {
    const page = [
      block('import * as z from "zod";\nconst A = z.object({ a: z.string() });\nconsole.log(A.parse({ a: "x" }));', 'ts', 1),
      block('import * as z from "zod";\nconst B = z.object({ b: z.number() });\nconsole.log(B.parse({ b: 1 }));', 'ts', 5),
      block('import * as z from "zod";\nconst s = z.string().refine(async (v) => v.length < 8);\nconsole.log(await s.parseAsync("hello"));', 'ts', 9),
    ];
    const central = centrality(page);
    assert.ok(central[0]! > central[2]!, JSON.stringify(central));
    const ranked = rankCandidates([page[2]!, page[0]!, page[1]!], 'npm', 'zod', 'zod');
    assert.equal(ranked[0]!.source, 'u/README.md#L1');
  });

  it('recognises output that only prints back a literal of the program', () => {
    assert.equal(echoesInput('console.log(await s.parseAsync("hello"))', 'hello\n'), true);
    assert.equal(echoesInput("print(repr(x.strip('abc')))", "'abc'\n"), true);
    assert.equal(echoesInput('console.log(slugify("Hello World"))', 'hello-world\n'), false);
    assert.equal(echoesInput('console.log(A.parse({ a: "x" }))', "{ a: 'x' }\n"), false);
  });
});

describe('pins and builds that fit the sandbox', () => {
  it('reads a go.mod\'s go directive and compares it with the sandbox\'s toolchain', () => {
    assert.equal(goDirective('module x\n\ngo 1.26.9\n\nrequire y v1.0.0\n'), '1.26.9');
    assert.equal(goMeets('go1.26.8', 'module x\ngo 1.26.9\n'), false);
    assert.equal(goMeets('go1.26.8', 'module x\ngo 1.22\n'), true);
    assert.equal(goMeets('go1.26.8', 'module x\n'), true);
  });

  it('pins the Go version a pin note names, builds Rust without debug info and gives compiled languages the longest limit', async () => {
    const host = { pythonStdlib: new Set<string>(), goStd: new Map([['fmt', 'fmt']]), runtimes: {} };
    const info: PackageInfo = { ecosystem: 'go', name: 'example.com/demo', slug: 'go-demo', version: 'v1.2.0', importName: 'example.com/demo', goPin: { version: 'v1.1.0', note: 'older' } };
    const program = await makeProgram({ code: 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(1) }', language: 'go', origin: 'readme', path: 'README.md', source: 'u' }, info, host);
    assert.deepEqual(program.request.packages, ['example.com/demo@v1.1.0']);
    assert.equal(program.version, 'v1.1.0');
    assert.equal(program.note, 'older');
    assert.equal(program.request.timeoutMs, 60_000);
    assert.match(cargoManifest({ demo: { version: '=1.0.0', features: [] } }), /\n\[profile\.dev\]\ndebug = false\n$/);
  });
});

describe('Go values the example\'s text introduces', () => {
  it('a text value the build names undefined gets the docs\' block of the kind it names, as bytes when the code passes bytes', async () => {
    const host = { pythonStdlib: new Set<string>(), goStd: new Map([['fmt', 'fmt']]), runtimes: {} };
    const info: PackageInfo = { ecosystem: 'go', name: 'example.com/query', slug: 'go-query', version: 'v1.0.0', importName: 'example.com/query',
      dataBlocks: [{ path: 'README.md', language: 'json', code: '{"name": {"last": "Prichard"}}\n' }] };
    const candidate: Candidate = { code: 'value := query.Get(json, "name.last")\nprintln(value.String())', language: 'go', origin: 'readme', path: 'README.md', source: 'u' };
    const first = repairFor(info, './main.go:8:22: undefined: json', {});
    assert.deepEqual(first, { goValues: ['json'] });
    const program = await makeProgram(candidate, info, host, first);
    assert.match(program.code, /\nvar json = "\{\\"name\\": \{\\"last\\": \\"Prichard\\"\}\}" \/\/ left to the reader/, program.code);
    assert.match(program.note ?? '', /introduces json/);
    const bytes = repairFor(info, './main.go:9:12: cannot use json (variable of type string) as []byte value in argument to query.GetBytes', first!);
    assert.match((await makeProgram(candidate, info, host, bytes)).code, /var json = \[\]byte\("\{/);
    // A name that says no kind of text, or a name the docs give no sample for, is not made up.
    assert.equal(repairFor(info, './main.go:8:22: undefined: t', {}), undefined);
  });
});

describe('node programs that print behind a condition', () => {
  it('print the last value the example computed, and drop a destructured require the import already gives', async () => {
    const { nodeProgram } = await import('../../../src/quickstart/programs/node.ts');
    const made = await nodeProgram('import Ajv from "ajv"\nconst Ajv = require("ajv")\nconst ajv = new Ajv()\nconst valid = ajv.validate({ type: "integer" }, 1)\nif (!valid) console.log(ajv.errors)', 'js', 'ajv', 'commonjs', { kind: 'named', printBindings: true });
    assert.doesNotMatch(made.code, /require/);
    assert.match(made.code, /\nconsole\.log\(valid\);\n$/);
    const glob = await nodeProgram("import { glob, Glob } from 'glob'\nconst {\n  glob,\n  Glob,\n} = require('glob')\nconsole.log(await glob('*.js'))", 'js', 'glob', 'module');
    assert.doesNotMatch(glob.code, /require/);
  });
});

describe('stand-ins for helpers the example leaves to the reader', () => {
  const host = { pythonStdlib: new Set(['json']), goStd: new Map<string, string>(), runtimes: {} };
  it('asks for a stand-in when a helper is not defined, never for the package\'s own names', () => {
    const npm: PackageInfo = { ecosystem: 'npm', name: 'p-limit', slug: 'npm-p-limit', version: '7.0.0', importName: 'p-limit', moduleType: 'module', jsBindings: { pLimit: "import pLimit from 'p-limit';" } };
    assert.deepEqual(repairFor(npm, "SyntaxError: The requested module 'p-limit' does not provide an export named 'fetchSomething'", {})?.stubs, ['fetchSomething']);
    assert.deepEqual(repairFor(npm, 'ReferenceError: doSomething is not defined', { stubs: ['fetchSomething'] })?.stubs, ['fetchSomething', 'doSomething']);
    assert.equal(repairFor(npm, 'ReferenceError: pLimit is not defined', {})?.stubs, undefined);
    const py: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo' };
    // A bare name is first taken from the package (attrs' `@define`); a helper only when the package has no such name.
    assert.deepEqual(repairFor(py, "NameError: name 'handle' is not defined", {}, host)?.pythonNames, ['handle']);
    const helper = repairFor(py, "ImportError: cannot import name 'handle' from 'demo' (/deps/venv/lib/demo/__init__.py)", { pythonNames: ['handle'] }, host);
    assert.deepEqual([helper?.pythonNames, helper?.stubs], [[], ['handle']]);
    assert.deepEqual(repairFor(py, "NameError: name 'json' is not defined", {}, host)?.pythonImports, ['json']);
  });

  it('defines stand-ins that print their arguments, only while the program still uses the package', async () => {
    const { nodeProgram } = await import('../../../src/quickstart/programs/node.ts');
    const made = await nodeProgram("import pLimit from 'p-limit';\nconst limit = pLimit(1);\nconsole.log(await Promise.all([limit(() => fetchSomething('foo'))]));", 'js', 'p-limit', 'module', undefined, {}, ['fetchSomething']);
    assert.doesNotMatch(made.code, /import \{ fetchSomething \}/);
    assert.match(made.code, /\nfunction fetchSomething\(\.\.\.args\) \{ console\.log\("fetchSomething", \.\.\.args\); return args\[0\]; \}\n$/);
    await assert.rejects(nodeProgram('console.log(helper(1));', 'js', 'demo', 'module', undefined, {}, ['helper']));
    const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo' };
    const program = await makeProgram({ code: 'import demo\nprint(demo.run(handle, path=some_path))', language: 'python', origin: 'readme', path: 'README.md', source: 'u' }, info, host, { stubs: ['handle', 'some_path'] });
    assert.match(program.code, /^# Stand-ins[^\n]*\ndef handle\(\*args, \*\*kwargs\):\n[^]*\nsome_path = None {2}# left to the reader\n/);
    assert.match(program.note ?? '', /leaves handle, some_path to the reader/);
    const which = await nodeProgram("const which = require('which')\nconsole.log(which.sync('node', { path: someOtherPath }))", 'js', 'which', 'commonjs', undefined, {}, ['someOtherPath']);
    assert.match(which.code, /\nvar someOtherPath; \/\/ left to the reader\n$/);
  });
});

describe('python doctests', () => {
  it('run in their module\'s namespace, as doctest runs them', async () => {
    const { doctestModule } = await import('../../../src/quickstart/programs/index.ts');
    assert.equal(doctestModule('src/setuptools/_itertools.py', 'setuptools'), 'setuptools._itertools');
    assert.equal(doctestModule('demo/sub/__init__.py', 'demo'), 'demo.sub');
    assert.equal(doctestModule('docs/conf.py', 'demo'), undefined);
    const host = { pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: {} };
    const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo' };
    const program = await makeProgram({ code: '>>> list(always_iterable(1))\n[1]', language: 'pycon', origin: 'doctest', path: 'demo/util.py', source: 'u' }, info, host);
    assert.match(program.code, /^# A doctest runs in its module's namespace[^\n]*\nimport demo\.util as _module\nglobals\(\)\.update\(/);
    assert.match(program.code, /\nprint\(list\(always_iterable\(1\)\)\)\n$/);
  });
});

describe('programs from a Go module\'s exported API', () => {
  it('call functions whose parameters take plain values, with plain values, after those that need none', async () => {
    const { collectCandidates } = await import('../../../src/quickstart/collect.ts');
    const src = 'package lru\n\ntype Cache struct{}\n\nfunc New(size int) (*Cache, error) { return &Cache{}, nil }\nfunc Version() string { return "1" }\nfunc Open(c *Cache) string { return "" }\nfunc Join(parts ...string) string { return "" }\n';
    const found = await collectCandidates('go', { files: [{ path: 'lru.go', bytes: new TextEncoder().encode(src) }], importName: 'example.com/lru', fileUrl: (p: string) => p });
    const api = found.filter((c) => c.origin === 'api').map((c) => c.code);
    assert.ok(api.includes('value, err := lru.New(2)\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(value)'), JSON.stringify(api));
    assert.ok(api.includes('fmt.Println(lru.Version())'));
    assert.ok(api.includes('fmt.Println(lru.Join())'));
    assert.ok(!api.some((c) => c.includes('Open(')));
  });
});

describe('programs from an npm package\'s type declarations', () => {
  it('call exported functions whose required parameters are plain values, and nothing else', async () => {
    const { collectCandidates } = await import('../../../src/quickstart/collect.ts');
    const dts = 'type Loc = { line: number };\ndeclare function highlight(text: string, opts?: Loc): string;\ndeclare function frame(raw: string, loc: Loc): string;\n' +
      'declare function internal(a: string): string;\nexport declare function reset(): void;\nexport declare function isValid(name: string, strict: boolean): boolean;\nexport { highlight, frame };\n';
    const found = await collectCandidates('npm', { files: [{ path: 'lib/index.d.ts', bytes: new TextEncoder().encode(dts) }], importName: '@demo/frame', fileUrl: (p: string) => p });
    assert.deepEqual(found.filter((c) => c.origin === 'api').map((c) => c.code).sort(), [
      "import { highlight } from '@demo/frame';\n\nconsole.log(highlight(\"example\"));",
      "import { isValid } from '@demo/frame';\n\nconsole.log(isValid(\"example\", true));",
    ]);
  });
});

describe('rust crates a program uses', () => {
  it('does not take a module a use declaration brings in for a crate', async () => {
    const { rustProgram } = await import('../../../src/quickstart/programs/rust.ts');
    const made = await rustProgram('use base64::{engine::general_purpose, Engine as _};\nlet s = general_purpose::STANDARD.encode(b"hi");\nprintln!("{s}");', 'readme',
      { name: 'base64', importName: 'base64', version: '0.23.1', deps: {}, features: [] });
    assert.deepEqual(Object.keys(made.deps), ['base64']);
  });
});

describe('examples that show nothing, and shown results that are not echoes', () => {
  it('ranks a Python script that only defines things below one that does something', async () => {
    const { definitionsOnly } = await import('../../../src/quickstart/score.ts');
    assert.equal(definitionsOnly('from six import with_metaclass\n\nclass Meta(type):\n    pass\n\nMyClass = add_metaclass(Meta)(MyClass)', 'pypi'), true);
    assert.equal(definitionsOnly('import six\n\nprint(six.PY3)', 'pypi'), false);
    assert.equal(definitionsOnly('>>> import six', 'pypi'), false);
    assert.equal(definitionsOnly('import six\nimport unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertTrue(six.PY3)', 'pypi'), false);
    const joined = await combineFragments('pypi', [
      { code: 'from six import with_metaclass\n\nclass Meta(type):\n    pass', language: 'python', origin: 'docs', path: 'index.rst', source: 'a' },
      { code: '@add_metaclass(Meta)\nclass MyClass(object):\n    pass', language: 'python', origin: 'docs', path: 'index.rst', source: 'b' },
    ]);
    assert.equal(joined.length, 2, 'joining definitions to definitions gives nothing to run');
  });
  it('does not count an assertion\'s expected value as an input echoed', () => {
    assert.equal(echoesInput('let printed = buffer.format(128u64);\nmatch (&(printed), &("128")) { (left, right) => { println!("{:?}", left); assert_eq!(left, right); } }', '"128"\n'), false);
  });
});

describe('a module printed whole is not a result', () => {
  it('refuses an object of functions, keeps an object of values', () => {
    const { meaningfulStdout: meaningful } = outcome;
    assert.equal(meaningful('{\n  parse: [Function: parse],\n  valid: [Function: valid],\n  clean: [Function: clean],\n  SEMVER_SPEC_VERSION: \'2.0.0\'\n}').ok, false);
    assert.equal(meaningful("{\n  source: 'apache',\n  charset: 'UTF-8',\n  compressible: true\n}").ok, true);
  });
});

describe('what a Python package exports', () => {
  it('reads the names its __init__.py binds, and lets them decide between an import and a stand-in without a run', async () => {
    const { pythonExports } = await import('../../../src/quickstart/package-info.ts');
    const init = 'from ._make import define, field as attr_field\nimport demo.util\n__all__ = ["define", "Factory"]\nVERSION = "1"\n\ndef asdict(x):\n    pass\n\n@wraps\nclass Factory:\n    pass\n';
    const files = { files: [{ path: 'src/demo/__init__.py', bytes: new TextEncoder().encode(init) }], importName: 'demo', fileUrl: (p: string) => p };
    assert.deepEqual((await pythonExports(files, 'demo'))?.sort(), ['Factory', 'VERSION', '__all__', 'asdict', 'attr_field', 'define', 'util']);
    const lazy = { ...files, files: [{ path: 'demo/__init__.py', bytes: new TextEncoder().encode('def __getattr__(name):\n    pass\n') }] };
    assert.equal(await pythonExports(lazy, 'demo'), undefined);
    const host = { pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: {} };
    const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo', pyExports: ['define'] };
    assert.deepEqual(repairFor(info, "NameError: name 'define' is not defined", {}, host)?.pythonNames, ['define']);
    assert.deepEqual(repairFor(info, "NameError: name 'spec_text' is not defined", {}, host)?.stubs, ['spec_text']);
  });
});
