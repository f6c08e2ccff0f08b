// VectorIndex: exact top-k for small sets, binary pre-selection plus exact rescoring for large ones, filters, updates.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VectorIndex } from '../../../src/semantic/vector-index.ts';
import { cosine, normalizeInPlace } from '../../../src/semantic/vector.ts';

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 0x100000000 - 0.5;
  };
}
const randomUnit = (dims: number, random: () => number) => normalizeInPlace(Float32Array.from({ length: dims }, random));

function bruteForce(vectors: Map<string, Float32Array>, query: Float32Array, k: number): string[] {
  return [...vectors].map(([id, v]) => ({ id, score: cosine(query, v) }))
    .sort((a, b) => b.score - a.score).slice(0, k).map((hit) => hit.id);
}

describe('VectorIndex', () => {
  it('returns the exact top-k, best first, on a small set', () => {
    const random = seeded(11);
    const index = new VectorIndex(32, 4);
    const vectors = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i += 1) {
      const vector = randomUnit(32, random);
      vectors.set(`t${i}`, vector);
      index.add(`t${i}`, vector);
    }
    const query = randomUnit(32, random);
    const hits = index.search(query, 5);
    assert.deepEqual(hits.map((hit) => hit.id), bruteForce(vectors, query, 5));
    for (let i = 1; i < hits.length; i += 1) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
    assert.ok(Math.abs(hits[0]!.score - cosine(query, vectors.get(hits[0]!.id)!)) < 0.01);
  });

  it('finds near neighbours through the binary pass on a large set', () => {
    const random = seeded(12);
    const dims = 64;
    const index = new VectorIndex(dims);
    const vectors = new Map<string, Float32Array>();
    for (let i = 0; i < 12_000; i += 1) {
      const vector = randomUnit(dims, random);
      vectors.set(`t${i}`, vector);
      index.add(`t${i}`, vector);
    }
    // Plant neighbours: small perturbations of the query must all come back first.
    const query = randomUnit(dims, random);
    for (let i = 0; i < 5; i += 1) {
      const near = normalizeInPlace(query.map((x) => x + random() * 0.05));
      index.add(`near${i}`, near);
    }
    const hits = index.search(query, 5);
    assert.deepEqual(hits.map((hit) => hit.id).sort(), ['near0', 'near1', 'near2', 'near3', 'near4']);
  });

  it('applies the filter before choosing', () => {
    const random = seeded(13);
    const index = new VectorIndex(16);
    for (let i = 0; i < 100; i += 1) index.add(`${i % 2 ? 'odd' : 'even'}${i}`, randomUnit(16, random));
    const hits = index.search(randomUnit(16, random), 10, (id) => id.startsWith('odd'));
    assert.equal(hits.length, 10);
    assert.ok(hits.every((hit) => hit.id.startsWith('odd')));
  });

  it('replaces, removes and scores single vectors', () => {
    const index = new VectorIndex(2);
    index.add('a', Float32Array.from([1, 0]));
    index.add('b', Float32Array.from([0, 1]));
    index.add('c', Float32Array.from([-1, 0]));
    const query = Float32Array.from([1, 0]);
    assert.ok(Math.abs(index.score(query, 'a')! - 1) < 0.01);
    index.add('a', Float32Array.from([0, -1]));
    assert.equal(index.size, 3);
    assert.ok(Math.abs(index.score(query, 'a')!) < 0.01);
    assert.equal(index.remove('b'), true);
    assert.equal(index.remove('b'), false);
    assert.equal(index.score(query, 'b'), undefined);
    assert.deepEqual(index.search(Float32Array.from([-1, 0]), 1).map((hit) => hit.id), ['c']);
  });

  it('rejects vectors and queries of the wrong size', () => {
    const index = new VectorIndex(4);
    assert.throws(() => index.add('x', new Float32Array(3)), /3 dimensions, the index 4/);
    assert.throws(() => index.search(new Float32Array(5), 1), /5 dimensions/);
  });
});

describe('VectorIndex rows', () => {
  it('scores by row as by id, and changes layout when rows are added or moved', () => {
    const random = seeded(21);
    const index = new VectorIndex(24, 2);
    for (let i = 0; i < 5; i += 1) index.add(`t${i}`, randomUnit(24, random));
    const query = randomUnit(24, random);
    for (let i = 0; i < 5; i += 1) assert.equal(index.scoreAt(query, index.rowOf(`t${i}`)), index.score(query, `t${i}`));
    assert.equal(index.rowOf('missing'), -1);
    const layout = index.layout;
    index.add('t2', randomUnit(24, random)); // replacing a vector keeps every row
    assert.equal(index.layout, layout);
    index.add('t5', randomUnit(24, random));
    assert.notEqual(index.layout, layout);
    const moved = index.layout;
    index.remove('t0'); // the last row (t5) moves into t0's place
    assert.notEqual(index.layout, moved);
    assert.equal(index.rowOf('t5'), 0);
  });
});
