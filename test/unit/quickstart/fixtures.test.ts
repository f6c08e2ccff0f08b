// Files an example looks for that a reader would have beside it: which string literals name such files (never module
// specifiers, code files, hosts or versions) and the program's workspace (missing-paths.test.ts: what a failed run names).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { namedFiles } from '../../../src/quickstart/fixtures.ts';
import { makeProgram, repairFor } from '../../../src/quickstart/programs/index.ts';
import type { PackageInfo } from '../../../src/quickstart/types.ts';

const host = { pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: {} };

describe('files an example looks for', () => {
  it('takes the file names of string literals, not specifiers, code files, hosts, versions or paths', async () => {
    assert.deepEqual(await namedFiles("import {findUp} from 'find-up';\nimport x from './lib.js';\nconsole.log(await findUp('unicorn.png'));\nconsole.log(await findUp(['rainbow.png', 'unicorn.png']));", 'javascript'),
      ['unicorn.png', 'rainbow.png']);
    assert.deepEqual(await namedFiles("const a = require('lodash.merge');\nconst v = '1.2.3';\nfetch('example.com');\nread('src/data.json');\nrun('main.js');", 'javascript'), []);
    assert.deepEqual(await namedFiles("import iniconfig\nini = iniconfig.IniConfig('example.ini')\nprint(ini['project'])", 'python'), ['example.ini']);
    // The entry file the program already brings is not created again.
    assert.deepEqual(await namedFiles("open('main.py')", 'python', ['main.py']), []);
  });

  it('gives up when the strings are data rather than files to find', async () => {
    assert.deepEqual(await namedFiles("console.log(names(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']))", 'javascript'), []);
  });
});

describe('programs with fixture files', () => {
  const npm: PackageInfo = { ecosystem: 'npm', name: 'find-up', slug: 'npm-find-up', version: '8.0.0', importName: 'find-up', moduleType: 'module' };
  const candidate = { code: "import {findUp} from 'find-up';\nconsole.log(await findUp('unicorn.png'));", language: 'js', origin: 'readme' as const, path: 'readme.md', source: 'u' };

  it('creates the named files empty beside the entry file, and says so', async () => {
    const program = await makeProgram(candidate, npm, host, { fixtures: ['unicorn.png'] });
    assert.deepEqual(program.request.files.map((f) => [f.path, f.code.length > 0]), [['index.mjs', true], ['unicorn.png', false]]);
    assert.match(program.note ?? '', /looks for unicorn\.png.*created it empty/);
    const plain = await makeProgram(candidate, npm, host);
    assert.equal(plain.request.files.length, 1);
    assert.equal(plain.note, undefined);
  });

  it('asks for a fixture when the run names a missing file, once', () => {
    assert.deepEqual(repairFor(npm, "Error: ENOENT: no such file or directory, open 'data.csv'", {})?.fixtures, ['data.csv']);
    assert.equal(repairFor(npm, "Error: ENOENT: no such file or directory, open 'data.csv'", { fixtures: ['data.csv'] })?.fixtures, undefined);
  });
});

describe('programs from the API of a Go module whose root package has none', () => {
  it('call the functions of its packages one directory down, never internal or example ones', async () => {
    const { collectCandidates } = await import('../../../src/quickstart/collect.ts');
    const file = (path: string, src: string) => ({ path, bytes: new TextEncoder().encode(src) });
    const files = [
      file('doc.go', '// Package protobuf has no code of its own.\npackage protobuf\n'),
      file('proto/wire.go', 'package proto\n\nfunc String(s string) string { return s }\n'),
      file('internal/impl/impl.go', 'package impl\n\nfunc Version() string { return "1" }\n'),
      file('cmd/gen/main.go', 'package main\n\nfunc Name() string { return "" }\n'),
    ];
    const api = (await collectCandidates('go', { files, importName: 'example.com/protobuf', fileUrl: (p: string) => p })).filter((c) => c.origin === 'api');
    assert.deepEqual(api.map((c) => [c.code, c.path]), [['fmt.Println(proto.String("example"))', 'proto/wire.go']]);
    // A root package with a callable function keeps the programs at the root; an error is a plain value to pass.
    const rooted = [...files, file('protobuf.go', 'package protobuf\n\nfunc Version() string { return "1" }\nfunc Append(err error, errs ...error) *Error { return nil }\n')];
    const own = (await collectCandidates('go', { files: rooted, importName: 'example.com/protobuf', fileUrl: (p: string) => p })).filter((c) => c.origin === 'api');
    assert.deepEqual(own.map((c) => c.code), ['fmt.Println(protobuf.Version())', 'fmt.Println(protobuf.Append(errors.New("example")))']);
  });
});

describe('Go examples a program outside the module can run', () => {
  it('leaves out examples of internal packages and examples that import one', async () => {
    const { collectCandidates } = await import('../../../src/quickstart/collect.ts');
    const file = (path: string, src: string) => ({ path, bytes: new TextEncoder().encode(src) });
    const example = (pkg: string, imports: string) => `package ${pkg}\n\nimport (\n\t"fmt"\n${imports})\n\nfunc ExampleRun() {\n\tfmt.Println(1)\n}\n`;
    const files = [
      file('internal/xds/clients/example_test.go', example('clients_test', '')),
      file('xds/example_test.go', example('xds_test', '\t"example.com/m/internal/xds/clients"\n')),
      file('balancer/example_test.go', example('balancer_test', '\t"example.com/m/balancer"\n')),
    ];
    const found = await collectCandidates('go', { files, importName: 'example.com/m', fileUrl: (p: string) => p });
    assert.deepEqual(found.filter((c) => c.origin === 'go-example').map((c) => c.path), ['balancer/example_test.go']);
  });
});

describe('Go example files with tests and helpers beside the example', () => {
  it('run the named Example (not the file\'s tests), importing a package a helper shadows only locally', async () => {
    const { goProgram } = await import('../../../src/quickstart/programs/go.ts');
    const code = 'package demo_test\n\nimport (\n\t"fmt"\n\t"testing"\n\n\t"example.com/demo"\n)\n\ntype val struct{ s string }\n\nfunc (v val) Equal(o any) bool {\n\tos, ok := o.(val)\n\treturn ok && v.s == os.s\n}\n\n' +
      'func TestEqual(t *testing.T) {\n\tif !demo.New(1).Equal(demo.New(1)) {\n\t\tt.Fatal("x")\n\t}\n}\n\nfunc ExampleNew() {\n\tfmt.Println(demo.New(1))\n\tfmt.Println(len(os.Args))\n}\n';
    const program = await goProgram(code, 'go-example', 'ExampleNew', { modulePackages: { demo: 'example.com/demo' }, std: new Map([['fmt', 'fmt'], ['os', 'os'], ['testing', 'testing']]) });
    assert.match(program, /\nfunc main\(\) \{\n\tExampleNew\(\)\n\}\n$/);
    assert.match(program, /^package main\n\nimport \(\n\t"example.com\/demo"\n\t"fmt"\n\t"os"\n\t"testing"\n\)\n/);
  });
});

describe('Go API programs never print a function', () => {
  it('leave out functions that return a func or a function type the package declares', async () => {
    const { collectCandidates } = await import('../../../src/quickstart/collect.ts');
    const src = 'package api\n\ntype RequestCallback func(r *int)\ntype Config struct{}\n\nfunc ForwardAlways() RequestCallback { return nil }\nfunc Handler() func() { return nil }\nfunc IsSudoPath(path string) bool { return false }\n';
    const found = await collectCandidates('go', { files: [{ path: 'api.go', bytes: new TextEncoder().encode(src) }], importName: 'example.com/api', fileUrl: (p: string) => p });
    assert.deepEqual(found.filter((c) => c.origin === 'api').map((c) => c.code), ['fmt.Println(api.IsSudoPath("src/lib/index.js"))']);
  });
});
