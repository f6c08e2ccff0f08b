// Syntax trees live in WebAssembly memory that never goes back; unfreed trees of every parsed example and every Go file a
// sandbox call sent grew it until tree-sitter aborted and took the runtime down for the whole process.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, it } from 'node:test';
import { descendants, liveSyntaxTrees, parseCode, parsesCleanly, withSyntaxTree } from '../../../src/quickstart/parse.ts';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const goFile = (i: number) => `package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc f${i}() { fmt.Println(strings.ToUpper("x")) }\n`;

describe('syntax trees are freed', () => {
  it('withSyntaxTree frees the tree as soon as its reader returns', async () => {
    const before = liveSyntaxTrees();
    const imports = await withSyntaxTree('go', goFile(0), (root) => descendants(root, 'import_spec').length);
    assert.equal(imports, 2);
    assert.equal(liveSyntaxTrees(), before);
  });

  it('parsesCleanly answers whether a fragment parses and frees its tree at once', async () => {
    const before = liveSyntaxTrees();
    assert.equal(await parsesCleanly('go', goFile(1)), true);
    assert.equal(await parsesCleanly('go', 'func ( {'), false);
    assert.equal(await parsesCleanly('javascript', 'const x: number = 1;'), false);
    assert.equal(await parsesCleanly('typescript', 'const x: number = 1;'), true);
    assert.equal(liveSyntaxTrees(), before);
  });

  it('a tree from parseCode is freed once none of its nodes is held', async () => {
    const before = liveSyntaxTrees();
    for (let i = 0; i < 50; i++) assert.equal(descendants(await parseCode('go', goFile(i)), 'import_spec').length, 2);
    assert.equal(liveSyntaxTrees(), before + 50, 'not freed while the collector has not run');
    let kept = await parseCode('go', goFile(99)); // a held node keeps its tree
    for (let round = 0; round < 20 && liveSyntaxTrees() > before + 1; round++) {
      collectGarbage();
      await nextTurn();
    }
    assert.equal(liveSyntaxTrees(), before + 1, 'the 50 dropped trees were freed, the held one was not');
    assert.equal(descendants(kept, 'import_spec').length, 2, 'the held tree still reads');
    kept = undefined as never;
  });
});
