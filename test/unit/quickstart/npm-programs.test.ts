// npm programs as a class: documentation notation rewritten or left out (by parse), requires kept working inside ES
// modules, and programs written from the package's declared types (package.json `types`/exports, classes included)
// when no example runs. Real tree-sitter parses; no network.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectCandidates } from '../../../src/quickstart/collect.ts';
import { asCode } from '../../../src/quickstart/notation.ts';
import { nodeProgram } from '../../../src/quickstart/programs/node.ts';

describe('results the example means the reader to see', () => {
  it('prints a computed result nothing reads afterwards, and a binding whose line shows its value', async () => {
    const made = await nodeProgram("import Papa from 'papaparse';\n\nconst rows = Papa.parse(text);\nconst csv = Papa.unparse(rows);", 'js', 'papaparse', 'commonjs');
    assert.match(made.code, /const csv = Papa\.unparse\(rows\);\nconsole\.log\(csv\);/);
    // `rows` is read by the next line: not printed on its own.
    assert.doesNotMatch(made.code, /console\.log\(rows\)/);
    const decimal = await nodeProgram("z = new Decimal(355)\npi = z.dividedBy(113)        // '3.1415929204'\npi.toFraction()              // [ '7853982301', '2500000000' ]", 'js', 'decimal.js', 'commonjs');
    assert.match(decimal.code, /pi = z\.dividedBy\(113\) +\/\/ '3\.1415929204'\nconsole\.log\(pi\);/);
    assert.match(decimal.code, /console\.log\(pi\.toFraction\(\)\)/);
    // A prose comment is not a shown value.
    const prose = await nodeProgram("x = compute(1) // keep it\nshow(x)", 'js', 'demo', 'commonjs');
    assert.doesNotMatch(prose.code, /console\.log\(x\)/);
  });
});

describe('directives', () => {
  it('never prints a directive (a bare string statement) as if it were a result', async () => {
    const made = await nodeProgram('"use strict";\nconst conversions = require("webidl-conversions");\nconversions["boolean"](0);', 'js', 'webidl-conversions', 'commonjs');
    assert.doesNotMatch(made.code, /console\.log\("use strict"\)/);
    assert.match(made.code, /console\.log\(conversions\["boolean"\]\(0\)\)/);
  });
});

describe('variables a REPL-style example assigns without declaring', () => {
  it('declares a name at its first top-level assignment, so it is not imported from the package and an ES module runs', async () => {
    const made = await nodeProgram("options = Rule.parseText('every day')\noptions.start = stamp(2000)\nvar rule = new Rule(options)\nconsole.log(rule);", 'js', 'rules', 'commonjs');
    assert.match(made.code, /^import \{ Rule, stamp \} from 'rules';$/m);
    assert.match(made.code, /^let options = Rule\.parseText/m);
    assert.doesNotMatch(made.code, /let options\.start/);
    // A name read before it is assigned, or read by its own assignment, is not the example's new variable.
    const counter = await nodeProgram('count = count + 1\nconsole.log(count)', 'js', 'counter', 'commonjs');
    assert.doesNotMatch(counter.code, /let count/);
  });
});

describe('documentation notation', () => {
  it('rewrites a signature\'s optional brackets, proved by a clean parse', async () => {
    const read = await asCode("import Papa from 'papaparse';\n\nPapa.parse(file, config);\n\nconst csv = Papa.unparse(data[, config]);");
    assert.deepEqual(read, { code: "import Papa from 'papaparse';\n\nPapa.parse(file, config);\n\nconst csv = Papa.unparse(data);", rewritten: true });
    assert.equal((await asCode('fn(a[, b[, c]])'))?.code, 'fn(a)');
  });
  it('leaves out what no grammar reads, keeps code (TypeScript, JSX, array access) as it is', async () => {
    assert.equal(await asCode('const x = <placeholder>;\nfoo(x, ...);'), undefined);
    assert.deepEqual(await asCode('const a: string = list[0];'), { code: 'const a: string = list[0];', rewritten: false });
    assert.deepEqual(await asCode('const el = <App title="x" />;'), { code: 'const el = <App title="x" />;', rewritten: false });
  });
});

describe('module system', () => {
  it('gives an ES module the CommonJS require its remaining requires were written for', async () => {
    const made = await nodeProgram("const { parse } = require('demo');\nconst extra = require('demo/extra').helper;\nconsole.log(await parse('x'), extra);", 'js', 'demo', 'commonjs');
    assert.equal(made.path, 'index.mjs');
    assert.match(made.code, /^import \{ createRequire \} from 'node:module';\nconst require = createRequire\(import\.meta\.url\);\n/);
    assert.match(made.code, /import \{ parse \} from 'demo';/);
  });
  it('leaves a CommonJS example CommonJS', async () => {
    const made = await nodeProgram("const demo = require('demo');\nconsole.log(demo.run());", 'js', 'demo', 'commonjs');
    assert.equal(made.path, 'index.cjs');
    assert.doesNotMatch(made.code, /createRequire/);
  });
});

describe('programs from the declared types', () => {
  it('reads the types package.json names and writes a class program', async () => {
    const text = (s: string) => new TextEncoder().encode(s);
    const files = [
      { path: 'package.json', bytes: text(JSON.stringify({ name: 'fxp-demo', type: 'module', exports: { '.': { import: { types: './src/fxp.d.ts', default: './src/fxp.js' } } } })) },
      { path: 'src/fxp.d.ts', bytes: text('export class XMLParser {\n  constructor(options?: object);\n  addEntity(a: string, b: string): void;\n  parse(xmlData: string | Uint8Array): any;\n}\nexport class Needy {\n  constructor(options: object);\n  parse(x: string): any;\n}\n') },
    ];
    const found = await collectCandidates('npm', { files, importName: 'fxp-demo', fileUrl: (p: string) => p } as unknown as Parameters<typeof collectCandidates>[1]);
    const api = found.filter((c) => c.origin === 'api');
    // The tree-sitter builder's program, then the checker's, which uses the instance: data in (addEntity), then parse.
    assert.deepEqual(api.map((c) => c.code), [
      "import { XMLParser } from 'fxp-demo';\n\nconst xmlParser = new XMLParser();\nconsole.log(xmlParser.parse(\"example\"));",
      "import { XMLParser } from 'fxp-demo';\n\nconst xmlParser = new XMLParser();\nxmlParser.addEntity(\"example\", \"Example 10\");\nconsole.log(\"parse(\\\"example\\\"):\", xmlParser.parse(\"example\"));",
    ]);
  });
});
