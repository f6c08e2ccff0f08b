// Programs written from an npm package's declared API: the checker follows re-exports to each function, and builds
// arguments of array, literal-union and object types from the declarations; nothing is run here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ArchiveFile } from '../../../src/docs/archive.ts';
import { declaredApiPrograms, localName } from '../../../src/quickstart/programs/npm-api.ts';

const file = (path: string, text: string): ArchiveFile => ({ path, bytes: new TextEncoder().encode(text) });

describe('npm programs written from the declared API', () => {
  it('follows re-exports from per-function files and samples array arguments', async () => {
    const files = [
      file('package.json', JSON.stringify({ name: 'stats', types: 'index.d.ts' })),
      file('index.d.ts', "export { default as mean } from './src/mean';\nexport * from './src/sum';\n"),
      file('src/mean.d.ts', 'declare function mean(x: number[]): number;\nexport default mean;\n'),
      file('src/sum.d.ts', 'export declare function sum(values: readonly number[]): number;\nexport declare function setSeed(seed: number): void;\n'),
    ];
    const programs = await declaredApiPrograms(files, 'stats');
    const codes = programs.map((p) => p.code);
    assert.ok(codes.includes("import { mean } from 'stats';\n\nconsole.log(mean([1, 2, 3, 4]));"), codes.join('\n---\n'));
    assert.ok(codes.includes("import { sum } from 'stats';\n\nconsole.log(sum([1, 2, 3, 4]));"), codes.join('\n---\n'));
    // A function that returns nothing (and acts: setSeed) is no program.
    assert.ok(!codes.some((c) => c.includes('setSeed')));
    assert.equal(programs.find((p) => p.code.includes('mean('))?.path, 'src/mean.d.ts');
  });

  it('builds object arguments from interfaces (required properties only) and picks a literal of a union', async () => {
    const files = [
      file('package.json', JSON.stringify({ name: 'q', types: 'dist/index.d.ts' })),
      file('dist/index.d.ts', [
        'export interface Node { type: string; loc?: { line: number } }',
        "export type Mode = 'fast' | 'slow';",
        'export declare function query(ast: Node, selector: string, mode: Mode): Node[];',
        'export declare function watch(fn: (x: number) => void): void;',
        'export declare function load(url: string): Promise<Node>;',
      ].join('\n')),
    ];
    const codes = (await declaredApiPrograms(files, 'q')).map((p) => p.code);
    assert.ok(codes.includes("import { query } from 'q';\n\nconsole.log(query({ type: \"example\" }, \"example\", \"fast\"));"), codes.join('\n---\n'));
    // A parameter named as a format (`url`) takes a value of it (text-shapes.ts), not the word "example".
    assert.ok(codes.includes("import { load } from 'q';\n\nconsole.log(await load(\"https://example.org/docs/page?lang=en#intro\"));"), codes.join('\n---\n'));
    assert.ok(!codes.some((c) => c.includes('watch')));
  });

  it('calls an `export =` function by the default import, and a class by a computing method', async () => {
    const ms = [
      file('package.json', JSON.stringify({ name: 'ms', types: 'index.d.ts' })),
      file('index.d.ts', 'declare function ms(value: string): number;\nexport = ms;\n'),
    ];
    assert.deepEqual((await declaredApiPrograms(ms, 'ms')).map((p) => p.code), ["import ms from 'ms';\n\nconsole.log(ms(\"example\"));"]);
    const parser = [
      file('package.json', JSON.stringify({ name: 'xp', types: 'index.d.ts' })),
      file('index.d.ts', 'export declare class XMLParser { constructor(options?: object); on(e: string): void; parse(xml: string): object }\n'),
    ];
    // The instance's computing method called and its result printed with its name (`on` registers: never called).
    assert.deepEqual((await declaredApiPrograms(parser, 'xp')).map((p) => p.code), ["import { XMLParser } from 'xp';\n\nconst xmlParser = new XMLParser();\nconsole.log(\"parse(\\\"example\\\"):\", xmlParser.parse(\"example\"));"]);
  });

  it('calls the functions a default export carries as properties', async () => {
    const files = [
      file('package.json', JSON.stringify({ name: 'tpl', types: 'index.d.ts' })),
      file('index.d.ts', 'declare function template(code: string): () => string;\ndeclare namespace template { function ast(code: string): object[] }\nexport default template;\n'),
    ];
    // template(…) returns a function (printed as [Function]): not a program; template.ast(…) is.
    assert.deepEqual((await declaredApiPrograms(files, '@babel/tpl')).map((p) => p.code), ["import tpl from '@babel/tpl';\n\nconsole.log(tpl.ast(\"example\"));"]);
  });

  it('reads DefinitelyTyped\'s declarations when the package ships none, and takes the docs\' text for a parameter', async () => {
    const files = [
      file('package.json', JSON.stringify({ name: 'slug', main: 'index.js' })),
      file('index.js', 'module.exports = (s) => s;'),
      file('@types/slug/package.json', JSON.stringify({ name: '@types/slug', types: 'index.d.ts' })),
      file('@types/slug/index.d.ts', 'declare function slug(text: string): string;\nexport = slug;\n'),
    ];
    const docs = { bound: new Map(), passed: new Map([['slug', 'I ♥ unicode']]), called: new Map([['slug', new Set([''])]]) };
    const [program] = await declaredApiPrograms(files, 'slug', docs);
    assert.equal(program?.code, "import slug from 'slug';\n\nconsole.log(slug(\"I ♥ unicode\"));");
    assert.equal(program?.path, '@types/slug/index.d.ts');
  });

  it('names the package as an identifier', () => {
    assert.equal(localName('lodash.merge'), 'lodashMerge');
    assert.equal(localName('@scope/x-y'), 'xY');
    assert.equal(localName('7zip'), 'pkg7zip');
  });

  it('uses the object a function returns: data put in by its methods, then read back, results printed by name', async () => {
    const files = [
      file('package.json', JSON.stringify({ name: 'fc', types: 'index.d.ts' })),
      file('index.d.ts', [
        'export declare class FlatCache { setKey(key: string, value: any): void; getKey(key: string): any; keys(): string[]; destroy(): void; on(e: string): void }',
        'export declare function create(name: string): FlatCache;',
      ].join('\n')),
    ];
    const programs = await declaredApiPrograms(files, 'fc');
    const used = programs.find((p) => p.code.includes('const flatCache = create('));
    assert.ok(used, programs.map((p) => p.code).join('\n---\n'));
    assert.equal(used.code, [
      "import { create } from 'fc';", '', 'const flatCache = create("example");',
      'flatCache.setKey("example", "Example 10");', 'console.log("getKey(\\"example\\"):", flatCache.getKey("example"));', 'console.log("keys():", flatCache.keys());',
    ].join('\n'));
    // It comes before the program that prints the returned object itself.
    assert.ok(programs.indexOf(used) < programs.findIndex((p) => p.code.includes('console.log(create(')) || !programs.some((p) => p.code.includes('console.log(create(')));
  });

  it('chains an encoder and its decoder by the type that joins them, with inputs of the shape the names and types say', async () => {
    const files = [
      file('package.json', JSON.stringify({ name: 'b64', types: 'index.d.ts' })),
      file('index.d.ts', [
        'export function byteLength(b64: string): number;',
        'export function toByteArray(b64: string): Uint8Array;',
        'export function fromByteArray(uint8: Uint8Array): string;',
      ].join('\n')),
    ];
    const codes = (await declaredApiPrograms(files, 'b64')).map((p) => p.code);
    // Decoded from base64 text (the parameter's name says it), then encoded back: both results printed.
    assert.ok(codes.some((c) => c.includes('const uint8Array = toByteArray("aGVsbG8gd29ybGQ=");') && c.includes('fromByteArray(uint8Array)')), codes.join('\n---\n'));
    // The round trip the other way starts from bytes the lib type's sample encodes.
    assert.ok(codes.some((c) => c.includes('fromByteArray(new TextEncoder().encode("hello world"))') && c.includes('toByteArray(result)')), codes.join('\n---\n'));
    // Chains rank above the lone calls.
    assert.ok(codes[0]!.split('\n').length > 4, codes[0]);
  });

  it('gives two text parameters different texts and a `string | RegExp` parameter a regular expression', async () => {
    const files = [
      file('package.json', JSON.stringify({ name: 'cmp', types: 'index.d.ts' })),
      file('index.d.ts', 'export function compare(a: string, b: string): number;\nexport function parseLiteral(source: RegExp | string): object;\n'),
    ];
    const codes = (await declaredApiPrograms(files, 'cmp')).map((p) => p.code);
    assert.ok(codes.includes("import { compare } from 'cmp';\n\nconsole.log(compare(\"example\", \"Example 10\"));"), codes.join('\n---\n'));
    assert.ok(codes.some((c) => c.includes('parseLiteral(/[a-z]+(\\d+)/g)')), codes.join('\n---\n'));
  });
});
