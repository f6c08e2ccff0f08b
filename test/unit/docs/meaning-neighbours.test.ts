// The meaning neighbours of a question (src/docs/semantic.ts nearestOutside): the passages nearest it by cosine among
// those embedded, outside the word candidates already compared, which the ranking fitter reads as round 18's candidate.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nearestOutside } from '../../../src/docs/semantic.ts';

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
