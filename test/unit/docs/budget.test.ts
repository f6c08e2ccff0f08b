// The token budget: the estimate checked against the real o200k_base tokenizer (js-tiktoken, as bench:mcp counts), passages
// whole then pointers within the budget, and a context that keeps its core and points at what it left out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { estimateTokens, fitContext, fitPassages, fitSymbol, tokensOf } from '../../../src/docs/budget.ts';

const o200k = getEncoding('o200k_base');
const real = (text: string) => o200k.encode(text).length;

/** Real documentation text of several kinds, read from this repository and its installed packages. */
function samples(): Array<[string, string]> {
  const files = ['README.md', 'docs/docs-search.md', 'src/docs/rank.ts', 'node_modules/zod/README.md', 'node_modules/typescript/lib/lib.es5.d.ts',
    'node_modules/fastify/README.md', 'node_modules/commander/typings/index.d.ts'].filter((f) => fs.existsSync(f));
  const out: Array<[string, string]> = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (let at = 0; at < Math.min(text.length, 40_000); at += 1600) out.push([`${path.basename(file)}@${at}`, text.slice(at, at + 1600)]);
  }
  out.push(['json', JSON.stringify({ results: [{ url: 'https://unpkg.com/zod@4.6.7/README.md#L98', content: 'Given any Zod schema, use `.parse`…', score: 3.1 }] })]);
  out.push(['cjk', '日本語のドキュメントです。関数を呼び出して結果を返します。'.repeat(10)]);
  return out;
}

describe('estimateTokens', () => {
  it('counts from above as o200k_base does: never under by more than 5 % on a chunk, over by no more than 60 %, ~20 % over on the whole', () => {
    let estimated = 0, counted = 0;
    for (const [name, text] of samples()) {
      const estimate = estimateTokens(text), actual = real(text);
      estimated += estimate;
      counted += actual;
      assert.ok(estimate >= actual * 0.95, `${name}: estimate ${estimate} < real ${actual}`);
      assert.ok(estimate <= actual * 1.6 + 5, `${name}: estimate ${estimate} ≫ real ${actual}`);
    }
    assert.ok(estimated >= counted && estimated <= counted * 1.35, `total ${estimated} vs ${counted}`);
  });
});

const passage = (i: number, words: number) => ({ url: `https://example.test/p${i}`, title: `Passage ${i}`, headings: ['Guide', `Passage ${i}`], content: 'word '.repeat(words), score: 1 });
const pointerOf = (p: ReturnType<typeof passage>) => ({ title: p.headings.join(' › '), url: p.url });

describe('fitPassages', () => {
  it('keeps passages whole in rank order while they fit, then one-line pointers, and the answer within the budget as o200k counts it', () => {
    const ranked = Array.from({ length: 30 }, (_, i) => passage(i, 250));
    const envelope = { slug: 'npm-x', version: '1.0.0', query: 'how do I x' };
    const fitted = fitPassages(envelope, ranked, { maxTokens: 1500, maxWhole: 20, pointerOf });
    assert.deepEqual(fitted.whole.map((p) => p.url), ranked.slice(0, fitted.whole.length).map((p) => p.url));
    assert.ok(fitted.whole.length >= 2 && fitted.whole.length < 5, String(fitted.whole.length));
    assert.ok(fitted.pointers.length > 3);
    assert.equal(fitted.pointers[0]!.url, ranked[fitted.whole.length]!.url, 'pointers continue the ranking');
    const answer = { ...envelope, results: fitted.whole, pointers: fitted.pointers, budget: fitted.budget };
    assert.ok(real(JSON.stringify(answer)) <= 1500, `real ${real(JSON.stringify(answer))}`);
    assert.ok(fitted.budget.usedTokens <= 1500 && fitted.budget.usedTokens >= tokensOf(answer) - 5);
    assert.ok(1500 - fitted.budget.usedTokens < 40, 'spent: no further pointer would fit');
  });

  it('keeps room for pointers so the answer reaches ten items when the budget allows', () => {
    const ranked = Array.from({ length: 30 }, (_, i) => passage(i, 270));
    const fitted = fitPassages({}, ranked, { maxTokens: 2000, maxWhole: 20, pointerOf });
    assert.ok(fitted.whole.length + fitted.pointers.length >= 10, `${fitted.whole.length} whole, ${fitted.pointers.length} pointers`);
    const greedy = fitPassages({}, ranked, { maxTokens: 2000, maxWhole: 20, pointerOf, items: 0 });
    assert.ok(greedy.whole.length >= fitted.whole.length, 'without the reserve, more go whole');
    assert.ok(greedy.whole.length + greedy.pointers.length < 10, 'and the answer stops short of ten');
  });

  it('respects maxWhole, and a first passage larger than the budget becomes a pointer', () => {
    const ranked = [passage(0, 3000), passage(1, 10), passage(2, 10)];
    const fitted = fitPassages({}, ranked, { maxTokens: 500, maxWhole: 5, pointerOf });
    assert.equal(fitted.whole.length, 0);
    assert.deepEqual(fitted.pointers.map((p) => p.url), ranked.map((p) => p.url));
    assert.equal(fitPassages({}, [passage(0, 5), passage(1, 5)], { maxTokens: 2000, maxWhole: 1, pointerOf }).whole.length, 1);
  });
});

describe('fitContext', () => {
  const context = {
    slug: 'npm-x', version: '1.0.0', install: [{ manager: 'npm', command: 'npm install x@1.0.0' }], imports: ["import x from 'x';"],
    links: { docs: null, repository: null, homepage: null, registry: 'https://www.npmjs.com/package/x' },
    entryPoints: Array.from({ length: 200 }, (_, i) => `./lib/entry-${i}`),
    quickstart: { code: 'console.log(x());\n'.repeat(80), language: 'js', source: 'https://unpkg.com/x@1.0.0/README.md#L3' },
    testRequest: { files: [{ path: 'index.mjs', code: 'console.log(x());\n'.repeat(80) }] },
  };

  it('leaves a context that fits as it is, with what it costs', () => {
    const fitted = fitContext(context, 32_000);
    assert.deepEqual(fitted.entryPoints, context.entryPoints);
    assert.equal(fitted.pointers, undefined);
    assert.ok(fitted.budget.usedTokens <= 32_000);
  });

  it('drops entry points, then the test body, then the quickstart code, each with a pointer; the core stays', () => {
    const some = fitContext(context, 1500);
    assert.ok(some.entryPoints.length >= 1 && some.entryPoints.length < 200);
    assert.match(some.pointers![0]!.title, /^\d+ more entry points$/);
    assert.ok(real(JSON.stringify(some)) <= 1500, `real ${real(JSON.stringify(some))}`);
    const tight = fitContext(context, 250);
    assert.equal(tight.testRequest, null);
    assert.equal(tight.quickstart?.code, '');
    assert.deepEqual(tight.pointers!.map((p) => p.title.split(' ')[0]), [tight.pointers![0]!.title.split(' ')[0], 'testRequest', 'quickstart']);
    assert.equal(tight.pointers![2]!.url, context.quickstart.source);
    assert.deepEqual(tight.install, context.install);
  });
});

describe('fitSymbol', () => {
  it('keeps the item and its documentation, and as many examples as fit; the rest are pointers', () => {
    const examples = Array.from({ length: 6 }, (_, i) => ({ language: 'ts', code: 'debounce(fn, 100);\n'.repeat(40), url: `https://example.test/e${i}` }));
    const answer = { found: true, item: { symbol: 'lodash.debounce', signature: 'function debounce()', documentation: 'Creates a debounced function.', examples } };
    const fitted = fitSymbol(answer, 900);
    assert.ok(fitted.item!.examples.length >= 1 && fitted.item!.examples.length < 6);
    assert.equal(fitted.item!.documentation, 'Creates a debounced function.');
    assert.ok(fitted.pointers!.length >= 1 && fitted.pointers!.length <= 6 - fitted.item!.examples.length);
    assert.equal(fitted.pointers![0]!.url, examples[fitted.item!.examples.length]!.url);
    assert.ok(real(JSON.stringify(fitted)) <= 900);
  });
});
