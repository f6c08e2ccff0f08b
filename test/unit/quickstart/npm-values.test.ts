// Program classes (npm mostly, one Python): values introduced in the prose get stand-ins up front with a sample of the
// declared parameter type (the docs' own data block when the name says which), Node core modules named bare are
// imported from Node, and a block only TypeScript parses runs as TypeScript. Pure program making; no sandbox.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nodeProgram } from '../../../src/quickstart/programs/node.ts';
import { collectCandidates } from '../../../src/quickstart/collect.ts';
import { declaredParameters, declaredParameterTypes, proseValues, textStandIn } from '../../../src/quickstart/npm-values.ts';
import type { ArchiveFile } from '../../../src/docs/archive.ts';
import { makeProgram, repairFor } from '../../../src/quickstart/programs/index.ts';
import type { HostFacts } from '../../../src/quickstart/host-facts.ts';
import type { Candidate, PackageInfo } from '../../../src/quickstart/types.ts';

const dts = (path: string, text: string) => ({ path, bytes: Buffer.from(text) }) as unknown as ArchiveFile;
const PAPA = dts('@types/papaparse/index.d.ts', 'declare namespace Papa {\n  function parse<T>(file: File, config: LocalConfig): void;\n  function parse<T>(csvString: string, config?: ParseConfig<T>): ParseResult<T>;\n}\nexport = Papa;');
const XML = dts('fxp.d.ts', 'export class XMLParser {\n  constructor(options?: Partial<X2jOptions>);\n  parse(xmlData: string | Buffer, validationOptions?: boolean): any;\n  toString(): string;\n  constructor(): void;\n}');

describe('npm values introduced in prose', () => {
  it('reads parameter types per function, method and constructor from declarations (own or @types)', async () => {
    const types = await declaredParameterTypes([PAPA, XML]);
    assert.deepEqual(types.parse, [['File', 'LocalConfig'], ['string', 'ParseConfig<T>'], ['string | Buffer', 'boolean']]);
    assert.deepEqual(types.XMLParser, [['Partial<X2jOptions>'], []]);
    assert.deepEqual(types.toString, [[]], 'a method named like an Object.prototype member is read as any other');
  });

  it('a value is prose only when nothing binds it: not JavaScript\'s or Node\'s globals, not an export, not a docs binding', () => {
    const exports = { require: true, esm: { default: true, named: ['parse'] }, defaultKeys: ['unparse'] };
    assert.deepEqual(proseValues(['csvString', 'parse', 'unparse', 'Buffer', 'structuredClone', 'Papa'], exports, (id) => id === 'Papa'), ['csvString']);
  });

  it('gives papaparse\'s csvString the docs\' CSV block, and an options parameter an empty object, before the example reads them', async () => {
    const made = await nodeProgram('const results = Papa.parse(csvString, config);\nconsole.log(results.data);', 'js', 'papaparse', 'commonjs', undefined,
      { Papa: "import Papa from 'papaparse';" }, [], { exports: { require: true, esm: { default: true, named: [] }, defaultKeys: ['parse'] }, paramTypes: await declaredParameterTypes([PAPA]), dataBlocks: [{ language: 'csv', code: 'a,b\n1,2\n' }] });
    assert.deepEqual(made.proseValues, ['csvString', 'config']);
    assert.ok(made.code.indexOf('var csvString = "a,b\\n1,2";') < made.code.indexOf('Papa.parse('), made.code);
    assert.match(made.code, /var config = \{\};/);
    assert.match(made.code, /^import Papa from 'papaparse';$/m);
  });

  it('gives papaparse\'s unparse(data) rows: the first alternative of the declared union that has a sample', async () => {
    const types = await declaredParameterTypes([dts('@types/papaparse/index.d.ts', 'export function unparse(data: Array<Object> | Array<Array<any>> | UnparseObject, config?: UnparseConfig): string;')]);
    const made = await nodeProgram("import Papa from 'papaparse';\nconst csv = Papa.unparse(data);\nconsole.log(csv);", 'js', 'papaparse', 'commonjs', undefined, {}, [],
      { exports: { require: true, esm: { default: true, named: [] }, defaultKeys: ['unparse'] }, paramTypes: types });
    assert.match(made.code, /^var data = \[\{ "example": 1, "sample": 2 \}\];$/m, made.code);
    // @types/papaparse declares it generic: `unparse<T>(data: T[] | UnparseObject<T>, …)`.
    const generic = await nodeProgram("import Papa from 'papaparse';\nconsole.log(Papa.unparse(data));", 'js', 'papaparse', 'commonjs', undefined, {}, [],
      { exports: { require: true, esm: { default: true, named: [] }, defaultKeys: ['unparse'] }, paramTypes: await declaredParameterTypes([dts('@types/papaparse/index.d.ts', 'export function unparse<T>(data: T[] | UnparseObject<T>, config?: UnparseConfig): string;')]) });
    assert.match(generic.code, /^var data = \[\["example", "sample"\], \["1", "2"\]\];$/m, generic.code);
  });

  it('gives fast-xml-parser\'s XMLdata a string sample; a name the example calls is never taken for a value', async () => {
    const made = await nodeProgram("const { XMLParser } = require('fast-xml-parser');\nconst parser = new XMLParser();\nconsole.log(parser.parse(XMLdata), transform(XMLdata));", 'js', 'fast-xml-parser', 'commonjs', undefined, {}, [],
      { exports: { require: true, esm: { default: false, named: ['XMLParser'] } }, paramTypes: await declaredParameterTypes([XML]) });
    assert.deepEqual(made.proseValues, ['XMLdata']);
    // The name says XML and the docs show no XML block: a small XML document, not "example" (which parses to `{}`).
    assert.match(made.code, /var XMLdata = "<\?xml version=\\"1\.0\\"\?>\\n<library/, made.code);
    assert.doesNotMatch(made.code, /var transform/);
  });

  it('the declaration\'s parameter name says the kind where the example\'s does not (`Papa.parse(file)`, declared `csvString`)', async () => {
    const { types, names } = await declaredParameters([PAPA]);
    assert.deepEqual(names.parse, [['file', 'config'], ['csvString', 'config']]);
    const facts = { exports: { require: true, esm: { default: true, named: [] }, defaultKeys: ['parse'] }, paramTypes: types, paramNames: names };
    const made = await nodeProgram('console.log(Papa.parse(file));', 'js', 'papaparse', 'commonjs', undefined, { Papa: "import Papa from 'papaparse';" }, [], facts);
    assert.match(made.code, /^var file = "name,language,stars\\n/m, made.code);
    // A word that only begins like a kind says nothing (`initValue` is no INI document).
    const init = await nodeProgram('console.log(Papa.parse(initValue));', 'js', 'papaparse', 'commonjs', undefined, { Papa: "import Papa from 'papaparse';" }, [], { ...facts, paramNames: { parse: [['initValue'], ['initValue']] } });
    assert.match(init.code, /^var initValue = "example";$/m, init.code);
    // A name that says nothing, declared as saying nothing: the plain string as before.
    const plain = await nodeProgram('console.log(Papa.parse(file));', 'js', 'papaparse', 'commonjs', undefined, { Papa: "import Papa from 'papaparse';" }, [], { ...facts, paramNames: {} });
    assert.match(plain.code, /^var file = "example";$/m, plain.code);
  });

  it('without the probe\'s report nothing is taken for prose (the earlier repair path stays)', async () => {
    const made = await nodeProgram('console.log(Papa.parse(csvString));', 'js', 'papaparse', 'commonjs', undefined, { Papa: "const Papa = require('papaparse');" });
    assert.equal(made.proseValues, undefined);
  });

  it('imports Node core modules named bare from Node, not from the package', async () => {
    // (A bare `assert.deepEqual(…)` check now prints its value instead, assertions.ts: util stands for the class here.)
    const made = await nodeProgram("import { TraceMap } from '@jridgewell/trace-mapping';\nconsole.log(util.inspect(new TraceMap({}).names));", 'js', '@jridgewell/trace-mapping', 'module');
    assert.match(made.code, /^import util from 'node:util';$/m);
    assert.doesNotMatch(made.code, /import \{[^}]*util/);
    const cjs = await nodeProgram("const FormData = require('form-data');\nconst form = new FormData();\nform.append('file', fs.createReadStream('a.txt'));", 'js', 'form-data', 'commonjs');
    assert.match(cjs.code, /^const fs = require\('node:fs'\);$/m);
  });

  it('runs a block only TypeScript parses as TypeScript', async () => {
    const made = await nodeProgram("import { format } from 'pretty-format';\nconst options: Partial<Config> = { indent: 4 };\nconsole.log(format({ a: 1 }, options));", 'js', 'pretty-format', 'commonjs');
    assert.equal(made.language, 'typescript');
    assert.match(made.path, /\.mts$/);
  });

  it('a command-line example that stops at a usage error runs again with --help, and says so', async () => {
    const info: PackageInfo = { ecosystem: 'npm', name: 'argparse', slug: 'npm-argparse', version: '2.0.1', importName: 'argparse' };
    const stderr = 'usage: index.cjs [-h] N\nindex.cjs: error: the following arguments are required: N\n';
    const adjust = repairFor(info, stderr, {});
    assert.deepEqual(adjust, { cliHelp: true });
    assert.equal(repairFor(info, stderr, adjust!), undefined, 'once');
    const candidate: Candidate = { code: "const { ArgumentParser } = require('argparse');\nconst parser = new ArgumentParser();\nparser.add_argument('N');\nconsole.dir(parser.parse_args());", language: 'js', origin: 'readme', path: 'README.md', source: 'r' };
    const program = await makeProgram(candidate, info, {} as HostFacts, adjust);
    assert.match(program.code, /^process\.argv\.splice\(2, process\.argv\.length, '--help'\);/);
    assert.match(program.note ?? '', /--help/);
  });

  it('a README require with a renamed binding becomes a valid import (pretty-format\'s { format: prettyFormat })', async () => {
    const made = await nodeProgram('function onClick() {}\nconsole.log(prettyFormat(onClick));', 'js', 'pretty-format', 'commonjs', undefined,
      { prettyFormat: "const {format: prettyFormat} = require('pretty-format');" }, [], {}).then((m) => m);
    // The example has no require of its own, so it is an ES module and the README's require becomes an import.
    assert.match(made.code, /^import \{ format as prettyFormat \} from 'pretty-format';$/m, made.code);
  });

  it('imports the exports an example uses beside those it imports (another block imported them)', async () => {
    const made = await nodeProgram("import { TraceMap } from '@jridgewell/trace-mapping';\nconst map = new TraceMap(json);\nconsole.log(originalPositionFor(map, { line: 1, column: 0 }));", 'js', '@jridgewell/trace-mapping', 'module', undefined, {}, [],
      { exports: { require: true, esm: { default: false, named: ['TraceMap', 'originalPositionFor'] } } });
    assert.match(made.code, /^import \{ originalPositionFor \} from '@jridgewell\/trace-mapping';$/m, made.code);
    assert.deepEqual(made.proseValues, ['json']);
  });

  it('writes programs from DefinitelyTyped\'s declarations when the package ships none (tr46 through @types/tr46)', async () => {
    const typesOnly = dts('@types/tr46/index.d.ts', 'export function toASCII(domainName: string, options?: Options): string;\nexport function toUnicode(domainName: string): { domain: string };');
    const found = await collectCandidates('npm', { files: [typesOnly], importName: 'tr46', fileUrl: (p: string) => p });
    assert.deepEqual(found.filter((c) => c.origin === 'api').map((c) => c.code.split('\n').pop()), ['console.log(toASCII("example"));', 'console.log(toUnicode("example"));']);
  });

  it('a Python example naming typing\'s generics bare gets them imported from typing (propcache\'s List)', async () => {
    const info: PackageInfo = { ecosystem: 'pypi', name: 'propcache', slug: 'pypi-propcache', version: '0.3.1', importName: 'propcache' };
    const adjust = repairFor(info, "NameError: name 'List' is not defined. Did you mean: 'list'?", {});
    assert.deepEqual(adjust, { typingNames: ['List'] });
    const host = { pythonStdlib: new Set(['typing']), runtimes: {} } as unknown as HostFacts;
    const program = await makeProgram({ code: 'from propcache import cached_property\nclass A:\n    @cached_property\n    def x(self) -> List[int]:\n        return [1]\nprint(A().x)', language: 'python', origin: 'readme', path: 'README.rst', source: 'r' }, info, host, adjust);
    assert.match(program.code, /^from typing import List$/m);
  });

  it('a Python example naming an export of the package bare, capitalised or not, imports it from the package (aiosignal\'s Signal)', () => {
    const info: PackageInfo = { ecosystem: 'pypi', name: 'aiosignal', slug: 'pypi-aiosignal', version: '1.4.0', importName: 'aiosignal', pyExports: ['Signal'] };
    assert.deepEqual(repairFor(info, "NameError: name 'Signal' is not defined", {}), { pythonNames: ['Signal'] });
    assert.equal(repairFor({ ...info, pyExports: [] }, "NameError: name 'Signal' is not defined", {}), undefined);
  });

  it('a Rust example importing a feature-gated module of the crate turns the feature on (tokio::fs, futures::executor::ThreadPool)', () => {
    const tokio: PackageInfo = { ecosystem: 'crates', name: 'tokio', slug: 'crates-tokio', version: '1.54.1', importName: 'tokio', rustFeatures: ['fs', 'net', 'full'] };
    assert.deepEqual(repairFor(tokio, 'error[E0432]: unresolved import `tokio::fs`', {}), { rustFeatures: ['fs'] });
    const futures: PackageInfo = { ecosystem: 'crates', name: 'futures', slug: 'crates-futures', version: '0.3.34', importName: 'futures', rustFeatures: ['executor', 'thread-pool'] };
    assert.deepEqual(repairFor(futures, 'error[E0432]: unresolved import `futures::executor::ThreadPool`', { rustFeatures: ['executor'] }), { rustFeatures: ['executor', 'thread-pool'] });
    assert.equal(repairFor(futures, 'error[E0432]: unresolved import `futures::nothing`', {}), undefined);
  });
});

describe('text a reader supplies', () => {
  it('is of the kind its name says, else of the kind the docs show most for a name that only says text; else nothing', () => {
    const blocks = [{ language: 'md', code: '{ #id }\n' }, { language: 'md', code: '# Title\n\n*hi*\n' }, { language: 'markdown', code: '- a\n' }, { language: 'json', code: '{}' }];
    assert.equal(textStandIn('text1', blocks), JSON.stringify('# Title\n\n*hi*'));
    assert.equal(textStandIn('source', blocks), JSON.stringify('# Title\n\n*hi*'));
    assert.equal(textStandIn('jsonText', blocks), JSON.stringify('{}'));
    assert.match(textStandIn('xml_data', blocks)!, /^"<\?xml/);
    assert.equal(textStandIn('text', []), undefined, 'no docs data: nothing says what the text is');
    assert.equal(textStandIn('lookup', blocks), undefined, 'not a text name');
  });
});

