// Import lines without types: a TypeScript program's value import may name a type-only export (`InferType` of yup), which
// the transform erased when it ran but which fails as a line of JavaScript. The declarations' symbol flags (the
// TypeScript checker) tell types from values; the lines handed out keep the values only. Fixture package, no network.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declaredPasses, npmDeclaredExportKinds, npmDeclaredExports } from '../../../src/quickstart/npm-exports.ts';
import { programImportLines } from '../../../src/quickstart/imports.ts';

const file = (path: string, text: string) => ({ path, bytes: new TextEncoder().encode(text) });
/** A made-up schema package: values (function, class, const, enum, namespace with a value) and types, some re-exported. */
const fixture = (version: string) => [
  file('package.json', JSON.stringify({ name: 'fixture-schema', version, types: 'index.d.ts', main: 'index.js' })),
  file('index.d.ts', `
export declare function object<T>(shape: T): ObjectSchema<T>;
export declare class Schema<T = unknown> { validate(value: unknown): T }
export declare const string: () => Schema<string>;
export declare enum Level { Low, High }
export declare namespace locale { const mixed: Record<string, string> }
export interface ObjectSchema<T> extends Schema<T> { shape: T }
export type InferType<S> = S extends Schema<infer T> ? T : never;
export type { Ref } from './ref';
export { type Message, format } from './message';
export { Reference } from './ref';
export * from './extra';
`),
  file('ref.d.ts', 'export interface Ref { path: string }\nexport declare class Reference { path: string }\n'),
  file('message.d.ts', 'export type Message = string;\nexport declare function format(m: Message): string;\n'),
  file('extra.d.ts', 'export interface Options { strict: boolean }\nexport declare function mixed(): void;\n'),
];

describe('type-only exports of npm declarations', () => {
  it('the checker tells types from values, through aliases, re-exports and export type', async () => {
    const read = await npmDeclaredExportKinds(fixture('1.0.0'));
    assert.deepEqual([...read.typeOnly].sort(), ['InferType', 'Message', 'ObjectSchema', 'Options', 'Ref']);
    for (const value of ['object', 'Schema', 'string', 'Level', 'locale', 'format', 'Reference', 'mixed']) assert.ok(read.names.includes(value), value);
    assert.deepEqual((await npmDeclaredExports(fixture('1.0.0'))).sort(), [...read.names].sort());
  });

  it('reads a version once: a second verification of it runs no compiler pass', async () => {
    await npmDeclaredExportKinds(fixture('2.0.0'));
    const before = declaredPasses;
    await npmDeclaredExportKinds(fixture('2.0.0'));
    await npmDeclaredExports(fixture('2.0.0'));
    assert.equal(declaredPasses, before);
    await npmDeclaredExportKinds(fixture('2.0.1'));
    assert.equal(declaredPasses, before + 1, 'another version is read');
  });

  it('a program\'s import line keeps its values only: type names and import type statements are left out', async () => {
    const { typeOnly } = await npmDeclaredExportKinds(fixture('3.0.0'), { name: 'fixture-schema', version: '3.0.0' });
    const types = new Set(typeOnly);
    const info = { ecosystem: 'npm' as const, name: 'fixture-schema', importName: 'fixture-schema', version: '3.0.0' };
    const program = `import { object, string, InferType } from 'fixture-schema';
import type { Ref } from 'fixture-schema';
import Schema2, { type Options, Level } from 'fixture-schema';
import { ObjectSchema } from 'fixture-schema';
const user = object({ name: string() });
type User = InferType<typeof user>;
console.log(user, Level.High);
`;
    assert.deepEqual(await programImportLines(info, program, 'typescript', 'index.ts', types), [
      "import { object, string } from 'fixture-schema';",
      "import Schema2, { Level } from 'fixture-schema';",
    ]);
    // No type-only set passed: only the syntax decides (`type` marks); nothing is looked up by the package's name.
    assert.deepEqual(await programImportLines(info, program, 'typescript', 'index.ts'), [
      "import { object, string, InferType } from 'fixture-schema';",
      "import Schema2, { Level } from 'fixture-schema';",
      "import { ObjectSchema } from 'fixture-schema';",
    ]);
    // A name the declarations call a type but the probe found at run time is kept (the runtime is the truth).
    const probed = { ...info, npmProbe: { status: 'ran', exports: { require: false, esm: { default: false, named: ['object', 'InferType'] } } } };
    assert.deepEqual((await programImportLines(probed, program, 'typescript', 'index.ts', types))[0], "import { object, string, InferType } from 'fixture-schema';");
  });

  it('hands out declarations that only load the package, not ones that call it with the program\'s own names', async () => {
    const info = { ecosystem: 'npm' as const, name: 'fixture-queue', importName: 'fixture-queue', version: '1.0.0' };
    const program = [
      "const fastq = require('fixture-queue');",
      "const { parse } = require('fixture-queue');",
      "const promise = require('fixture-queue').promise;",
      "const queue = require('fixture-queue')(worker, 1);",
      "const mod = await import('fixture-queue');",
      "const loaded = require('fixture-queue'), q2 = loaded(worker);",
      'console.log(fastq, parse, promise, queue, mod, q2);',
    ].join('\n');
    assert.deepEqual(await programImportLines(info, program, 'javascript', 'index.mjs'), [
      "const fastq = require('fixture-queue');",
      "const { parse } = require('fixture-queue');",
      "const promise = require('fixture-queue').promise;",
      "const mod = await import('fixture-queue');",
    ]);
  });

  it('the type-only set filters imports of the package itself, not of a sub-path (whose exports it does not describe)', async () => {
    const info = { ecosystem: 'npm' as const, name: 'fixture-schema', importName: 'fixture-schema', version: '3.0.0' };
    const program = "import { object, InferType } from 'fixture-schema';\nimport { InferType as T2, type Ref } from 'fixture-schema/sub';\nconsole.log(object);\n";
    assert.deepEqual(await programImportLines(info, program, 'typescript', 'index.ts', new Set(['InferType', 'Ref'])), [
      "import { object } from 'fixture-schema';",
      "import { InferType as T2 } from 'fixture-schema/sub';",
    ]);
  });

  it('a tarball that claims another package\'s name and version does not answer for that package (cache keyed by what was requested)', async () => {
    // The real package, read for its registry name and version.
    const real = await npmDeclaredExportKinds(fixture('4.0.0'), { name: 'fixture-schema', version: '4.0.0' });
    assert.ok(real.typeOnly.includes('InferType'));
    // Another package ships a manifest claiming to be fixture-schema@4.0.0, with declarations that make `object` a type.
    const impostor = [
      file('package.json', JSON.stringify({ name: 'fixture-schema', version: '4.0.0', types: 'index.d.ts' })),
      file('index.d.ts', 'export type object = string;\nexport declare function InferType(): void;\n'),
    ];
    const before = declaredPasses;
    const evil = await npmDeclaredExportKinds(impostor, { name: 'evil-package', version: '1.0.0' });
    assert.equal(declaredPasses, before + 1, 'the impostor is read on its own, not served from the real entry');
    assert.deepEqual(evil.typeOnly, ['object']);
    // The real package's entry is untouched; and the same name@version with other declarations is another entry too.
    assert.deepEqual(await npmDeclaredExportKinds(fixture('4.0.0'), { name: 'fixture-schema', version: '4.0.0' }), real);
    const sameClaim = await npmDeclaredExportKinds(impostor, { name: 'fixture-schema', version: '4.0.0' });
    assert.deepEqual(sameClaim.typeOnly, ['object']);
    assert.ok((await npmDeclaredExportKinds(fixture('4.0.0'), { name: 'fixture-schema', version: '4.0.0' })).typeOnly.includes('InferType'));
  });
});
