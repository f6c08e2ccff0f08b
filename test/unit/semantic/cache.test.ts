// CachedEmbedder: repeated queries are answered from the LRU, passages always go to the model, eviction works.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CachedEmbedder } from '../../../src/semantic/cache.ts';
import type { Embedder, EmbedKind } from '../../../src/semantic/types.ts';

/** A real (tiny) embedder: the vector counts letters a–d, so results are checkable, and it records each call. */
class LetterEmbedder implements Embedder {
  readonly id = 'letters';
  readonly dimensions = 4;
  readonly kind = 'static' as const;
  calls: string[][] = [];
  embed(texts: string[], _kind: EmbedKind): Promise<Float32Array[]> {
    this.calls.push(texts);
    return Promise.resolve(texts.map((text) => Float32Array.from('abcd', (letter) => text.split(letter).length - 1)));
  }
}

describe('CachedEmbedder', () => {
  it('embeds each distinct query once and returns the same vectors', async () => {
    const inner = new LetterEmbedder();
    const cached = new CachedEmbedder(inner, 10);
    const first = await cached.embed(['abba', 'cd', 'abba'], 'query');
    assert.deepEqual(inner.calls, [['abba', 'cd']]);
    assert.deepEqual(Array.from(first[0]!), [2, 2, 0, 0]);
    assert.equal(first[2], first[0]);
    const second = await cached.embed(['cd', 'dd'], 'query');
    assert.deepEqual(inner.calls, [['abba', 'cd'], ['dd']]);
    assert.deepEqual(Array.from(second[0]!), [0, 0, 1, 1]);
    assert.equal(cached.hits, 2);
    assert.equal(cached.misses, 3);
  });
  it('never caches passages', async () => {
    const inner = new LetterEmbedder();
    const cached = new CachedEmbedder(inner, 10);
    await cached.embed(['ab'], 'passage');
    await cached.embed(['ab'], 'passage');
    assert.equal(inner.calls.length, 2);
  });
  it('evicts the least recently used query', async () => {
    const inner = new LetterEmbedder();
    const cached = new CachedEmbedder(inner, 2);
    await cached.embed(['a'], 'query');
    await cached.embed(['b'], 'query');
    await cached.embed(['a'], 'query');
    await cached.embed(['c'], 'query');
    await cached.embed(['a'], 'query');
    await cached.embed(['b'], 'query');
    assert.deepEqual(inner.calls, [['a'], ['b'], ['c'], ['b']]);
  });
  it('passes everything through when the size is 0', async () => {
    const inner = new LetterEmbedder();
    const cached = new CachedEmbedder(inner, 0);
    await cached.embed(['a'], 'query');
    await cached.embed(['a'], 'query');
    assert.equal(inner.calls.length, 2);
  });
});
