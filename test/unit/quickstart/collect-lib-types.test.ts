// The tree-sitter npm builder (collect.ts npmApiCandidates/classCalls) gives a parameter whose declared type is a lib
// type with its own notation (a regular expression, a date), alone or in a union with text, a value of that type, not
// the word "example": `validate(source: string | RegExp)` reads the text as a pattern's source. Made-up packages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectCandidates } from '../../../src/quickstart/collect.ts';

const file = (path: string, src: string) => ({ path, bytes: new TextEncoder().encode(src) });
const artifact = (files: ReturnType<typeof file>[], importName: string) => ({ files, importName, fileUrl: (p: string) => p });

describe('tree-sitter npm builder: lib-typed parameters', () => {
  it('a `string | RegExp` or `RegExp` parameter gets a regular expression literal, a `Date` one a date', async () => {
    const found = await collectCandidates('npm', artifact([
      file('package.json', JSON.stringify({ name: 'rx', version: '1.0.0', types: 'index.d.ts' })),
      file('index.d.ts', [
        'export declare function validatePattern(source: string | RegExp): string;',
        'export declare function toAst(re: RegExp): string;',
        'export declare function formatDay(when: Date | string): string;',
        'export declare class Checker { constructor(); validate(pattern: RegExp | string): string }',
      ].join('\n')),
    ], 'rx'));
    const api = found.filter((c) => c.origin === 'api').map((c) => c.code);
    const treeSitter = api.filter((c) => /^import \{ (validatePattern|toAst|formatDay|Checker) \}/.test(c));
    assert.ok(treeSitter.length >= 2, api.join('\n---\n'));
    for (const code of api) assert.doesNotMatch(code, /\((validatePattern|toAst|formatDay|\w+\.validate)\("example"\)/, code);
    assert.ok(api.some((c) => /validatePattern\(\/.+\/\w*\)/.test(c)), api.join('\n---\n'));
  });
});
