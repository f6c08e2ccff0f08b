// Import lines without types: a TypeScript program's value import may name a type-only export (`InferType` of yup), which
// the transform erased when it ran but which fails as a line of JavaScript. The declarations' symbol flags (the
// TypeScript checker) tell types from values; the lines handed out keep the values only. Fixture package, no network.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declaredPasses, declaredTypeOnly, npmDeclaredExportKinds, npmDeclaredExports } from '../../../src/quickstart/npm-exports.ts';
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
    await npmDeclaredExportKinds(fixture('3.0.0'));
    const info = { ecosystem: 'npm' as const, name: 'fixture-schema', importName: 'fixture-schema', version: '3.0.0' };
    const program = `import { object, string, InferType } from 'fixture-schema';
import type { Ref } from 'fixture-schema';
import Schema2, { type Options, Level } from 'fixture-schema';
import { ObjectSchema } from 'fixture-schema';
const user = object({ name: string() });
type User = InferType<typeof user>;
console.log(user, Level.High);
`;
    assert.deepEqual(await programImportLines(info, program, 'typescript', 'index.ts'), [
      "import { object, string } from 'fixture-schema';",
      "import Schema2, { Level } from 'fixture-schema';",
    ]);
    // Nothing known of the version (not read here): only the syntax decides (`type` marks).
    assert.deepEqual(await programImportLines({ ...info, version: '9.9.9' }, program, 'typescript', 'index.ts'), [
      "import { object, string, InferType } from 'fixture-schema';",
      "import Schema2, { Level } from 'fixture-schema';",
      "import { ObjectSchema } from 'fixture-schema';",
    ]);
    // A name the declarations call a type but the probe found at run time is kept (the runtime is the truth).
    const probed = { ...info, npmProbe: { status: 'ran', exports: { require: false, esm: { default: false, named: ['object', 'InferType'] } } } };
    assert.deepEqual((await programImportLines(probed, program, 'typescript', 'index.ts'))[0], "import { object, string, InferType } from 'fixture-schema';");
    assert.deepEqual(await declaredTypeOnly('fixture-schema', '3.0.0'), new Set(['InferType', 'Message', 'ObjectSchema', 'Options', 'Ref']));
  });
});
