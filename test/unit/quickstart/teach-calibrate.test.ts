// The teach fit's calibration (scripts/teach-calibrate.ts): a strongly regularised score crowds the base rate; the
// calibrated probabilities spread out again without changing the order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calibrate } from '../../../scripts/teach-calibrate.ts';

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

describe('teach fit calibration', () => {
  // Scores shrunk tenfold (as λ 1000 shrinks the weights): the true log-odds are 10·z.
  const zs = Array.from({ length: 400 }, (_, k) => (k / 399 - 0.5) * 0.6);
  const ys = zs.map((z, k) => Number(((k * 7919) % 1000) / 1000 < sigmoid(10 * z)));

  it('stretches a shrunk score back toward the true log-odds, keeping its order', () => {
    const { scale, bias } = calibrate(zs, ys);
    assert.ok(scale > 5 && scale < 20, `scale ${scale}`);
    assert.ok(Math.abs(bias) < 0.5, `bias ${bias}`);
    // The lowest-scored programs now read as unlikely to teach (the doubt note's p < 0.2), as the labels say.
    assert.ok(sigmoid(scale * zs[0]! + bias) < 0.2);
    assert.ok(sigmoid(zs[0]!) > 0.4);
  });

  it('never flips the order: a score that runs against the labels is left as fitted', () => {
    assert.deepEqual(calibrate(zs, ys.map((y) => 1 - y), 0.3), { scale: 1, bias: 0.3 });
  });
});
