// TermMatrix (the docs word expansion's scan of a package's name vocabulary): the bounded scan must give exactly what a
// full scan gives — same terms, same similarities, same order, ties in vocabulary order — on the shipped static model's
// real word vectors (where the bound prunes most terms) and on random vectors (where it prunes few).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadStaticEmbedder } from '../../../src/semantic/static-model.ts';
import { SHIPPED_MODEL_DIR } from '../../../src/semantic/model-files.ts';
import { TermMatrix, type TermMatch } from '../../../src/semantic/term-matrix.ts';
import { normalizeInPlace } from '../../../src/semantic/vector.ts';

/** The scan as it was written before TermMatrix (src/docs/semantic.ts): every term, full dot product, sort, pop. */
function fullScan(terms: string[], vectors: Float32Array[], query: Float32Array, limit: number, min: number, skip?: string): TermMatch[] {
  const best: TermMatch[] = [];
  terms.forEach((term, t) => {
    if (term === skip) return;
    let sim = 0;
    for (let i = 0; i < query.length; i++) sim += query[i]! * vectors[t]![i]!;
    if (sim < min) return;
    best.push({ term, sim });
    best.sort((a, b) => b.sim - a.sim);
    if (best.length > limit) best.pop();
  });
  return best;
}

describe('TermMatrix', () => {
  it('finds exactly the full scan\'s related terms on the shipped static model', async () => {
    const model = await loadStaticEmbedder(SHIPPED_MODEL_DIR);
    const vocab = (JSON.parse(fs.readFileSync(path.join(SHIPPED_MODEL_DIR, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } }).model.vocab;
    // Whole words of the tokenizer's vocabulary, plus identifier-like compounds, as a package's name vocabulary is.
    const words = Object.keys(vocab).filter((w) => /^[a-z]{3,}$/.test(w)).slice(0, 4000);
    const terms = [...words, 'readfile', 'parsejson', 'setheader', 'ordered', 'ordered'];
    const vectors = await model.embed(terms, 'passage');
    const matrix = new TermMatrix(terms, vectors, model.dimensions);
    const asked = ['sort', 'hide', 'order', 'error', 'timeout', 'password', 'request', 'file', 'ordered', 'zzyzx'];
    const queries = await model.embed(asked, 'query');
    let found = 0;
    for (const [limit, min] of [[2, 0.5], [5, 0.3], [1, 0.6], [8, 0]] as const) {
      asked.forEach((word, w) => {
        const expected = fullScan(terms, vectors, queries[w]!, limit, min, word);
        assert.deepEqual(matrix.nearest(queries[w]!, limit, min, word), expected, `${word} (limit ${limit}, min ${min})`);
        found += expected.length;
      });
    }
    assert.ok(found > 40, `the comparison covered real matches (${found})`);
  });

  it('keeps vocabulary order between equal similarities and leaves the skipped word out', () => {
    const unit = (values: number[]) => normalizeInPlace(Float32Array.from(values));
    const terms = ['a', 'b', 'c', 'd'];
    const vectors = [unit([1, 1, 0]), unit([1, 1, 0]), unit([1, 0, 0]), unit([1, 1, 0])];
    const matrix = new TermMatrix(terms, vectors, 3);
    const query = unit([1, 1, 0]);
    assert.deepEqual(matrix.nearest(query, 2, 0.5).map((m) => m.term), ['a', 'b']);
    assert.deepEqual(matrix.nearest(query, 2, 0.5, 'a').map((m) => m.term), ['b', 'd']);
    assert.deepEqual(matrix.nearest(query, 5, 0.9).map((m) => m.term), ['a', 'b', 'd']);
  });

  it('is exact on random vectors, where the leading dimensions say little', () => {
    let state = 7;
    const random = () => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state / 0x100000000 - 0.5; };
    const dims = 256;
    const terms = Array.from({ length: 3000 }, (_, i) => `t${i}`);
    const vectors = terms.map(() => normalizeInPlace(Float32Array.from({ length: dims }, random)));
    const matrix = new TermMatrix(terms, vectors, dims);
    for (let q = 0; q < 20; q++) {
      const query = normalizeInPlace(Float32Array.from({ length: dims }, random));
      assert.deepEqual(matrix.nearest(query, 3, 0.1), fullScan(terms, vectors, query, 3, 0.1));
      assert.deepEqual(matrix.nearest(query, 3, -1), fullScan(terms, vectors, query, 3, -1));
    }
  });
});
