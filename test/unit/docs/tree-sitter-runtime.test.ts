// The extractors and the quickstart parsers share one tree-sitter runtime. When each initialised its own, loading
// grammars through both at once (quickstart verification of a crate and an npm package together) broke them:
// "Incompatible language version 0" or "memory access out of bounds", in 6 of 6 runs. The race needs a fresh
// runtime, so this file loads nothing before the test (each test file runs in its own process).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadParsers } from '../../../src/docs/extract/treesitter.ts';
import { parseCode } from '../../../src/quickstart/parse.ts';

describe('one tree-sitter runtime per process', () => {
  it('loads grammars through the extractors and the quickstart parsers at once, and each parses', async () => {
    const parsed = await Promise.all([
      parseCode('javascript', 'const a = 1').then((root) => root.type),
      loadParsers(['rust']).then((parsers) => parsers.parse('rust', 'fn main() {}', (root) => root.type)),
      parseCode('python', 'import six').then((root) => root.type),
      parseCode('go', 'package main').then((root) => root.type),
      loadParsers(['python', 'go']).then((parsers) => parsers.parse('go', 'package main', (root) => root.type)),
      parseCode('ruby', 'puts 1').then((root) => root.type),
      parseCode('typescript', 'let a: number = 1').then((root) => root.type),
    ]);
    assert.deepEqual(parsed, ['program', 'source_file', 'module', 'source_file', 'source_file', 'program', 'program']);
  });
});
