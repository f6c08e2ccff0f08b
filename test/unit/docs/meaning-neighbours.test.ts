// The meaning neighbours of a question (src/docs/semantic.ts nearestOutside): the passages nearest it by cosine among
// those embedded, outside the word candidates already compared, which the ranking fitter reads as round 18's candidate.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { createDocsSemantic, nearestOutside, probeNeighbours, type NeighbourView } from '../../../src/docs/semantic.ts';
import { syntheticPackageIndex } from '../../helpers/docs-index.ts';
import type { Embedder, EmbedKind } from '../../../src/semantic/index.ts';

describe('meaning neighbours outside the word candidates', () => {
  it('takes the most similar embedded passages that were not compared, ties by passage order', () => {
    const all = new Float32Array([0.9, Number.NaN, 0.5, 0.7, 0.5, 0.95, 0.2]);
    // 5 and 0 were compared already; 1 has no vector yet.
    assert.deepEqual(nearestOutside(all, [5, 0], 3), [3, 2, 4]);
    assert.deepEqual(nearestOutside(all, [5, 0], Infinity), [3, 2, 4, 6]);
    assert.deepEqual(nearestOutside(all, [], 0), []);
  });

  it('has nothing to add before any passage is embedded', () => {
    assert.deepEqual(nearestOutside(new Float32Array(4).fill(Number.NaN), [], 8), []);
  });
});

/** Passage i's summary names it (`item<i>`); the encoder puts passage i at angle i/10 and the question at angle 0. */
class AngleEncoder implements Embedder {
  readonly id = 'angle';
  readonly dimensions = 2;
  readonly kind = 'transformer' as const;
  readonly embedded: string[] = [];
  async embed(texts: string[], kind: EmbedKind) {
    if (kind === 'passage') this.embedded.push(...texts);
    return texts.map((text) => {
      const angle = kind === 'query' ? 0 : Number(/item(\d+)/.exec(text)![1]) / 10;
      return Float32Array.from([Math.cos(angle), Math.sin(angle)]);
    });
  }
}


describe('the fitter probe compares word candidates deeper than the compared ones (round 19)', () => {
  it('embeds the asked passages now and returns their cosine to the question', async () => {
    const encoder = new AngleEncoder();
    const semantic = createDocsSemantic(null, encoder, pino({ level: 'silent' }));
    const views: NeighbourView[] = [];
    probeNeighbours((view) => views.push(view));
    try {
      const index = syntheticPackageIndex(4000);
      await semantic.meaning(index, 'open a stream', [0, 1]);
      assert.equal(views.length, 1);
      assert.deepEqual(views[0]!.compared, [0, 1]);
      const sims = await views[0]!.compare([3999, 2500, 5]);
      assert.deepEqual([...sims.keys()], [3999, 2500, 5]);
      // int8 vectors: the cosine to within the quantisation step.
      for (const [doc, sim] of sims) assert.ok(Math.abs(sim - Math.cos(doc / 10)) < 0.02, `passage ${doc}: ${sim}`);
    } finally {
      probeNeighbours(undefined);
      await semantic.close();
    }
  });
});
