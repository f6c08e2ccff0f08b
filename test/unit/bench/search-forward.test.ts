// Forward-chaining trains each fold only on the sets written before the judged one (a fresh run never sees later
// sets), in the round order of TRAINING_FILES.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { meanOverSets, poolVariants, rowOutFile, writtenBefore } from '../../../bench/search-forward.ts';
import { TRAINING_FILES } from '../../../bench/search-quality.ts';

const order = TRAINING_FILES.map((file) => path.basename(file, '.tsv'));

describe('writtenBefore', () => {
  it('trains the r10 fold on the team sets and r4–r9, never on r10 itself or a later set', () => {
    const train = order.filter((set) => writtenBefore(order, set, 'search-fresh-r10'));
    assert.deepEqual(train, ['search-tuning', 'search-heldout', 'search-fresh', 'search-fresh-r4', 'search-fresh-r5',
      'search-fresh-r6', 'search-fresh-r7', 'search-fresh-r8', 'search-fresh-r9']);
  });
  it('trains the newest fold on every earlier set', () => {
    const newest = order.at(-1)!;
    assert.deepEqual(order.filter((set) => writtenBefore(order, set, newest)), order.slice(0, -1));
  });
  it('refuses a set outside the round order instead of training on nothing', () => {
    assert.throws(() => writtenBefore(order, 'search-tuning', 'search-fresh-r99'), /not in the round order/);
    assert.throws(() => writtenBefore(order, 'pseudo-catalog', 'search-fresh-r10'), /not in the round order/);
  });
});

describe('meanOverSets', () => {
  it('weighs each set once, whatever its size', () => {
    assert.equal(meanOverSets([0.5, 0.7]), 0.6);
    assert.equal(meanOverSets([]), 0);
  });
});

describe('poolVariants', () => {
  const shipped = { candidates: 60, scanBelow: 150 };
  it('reads the shipped pool, a wider one and a scan for every query', () => {
    assert.deepEqual(poolVariants('-;120x150;60xInf', shipped), [
      { candidates: 60, scanBelow: 150, label: '' },
      { candidates: 120, scanBelow: 150, label: ' pool 120x150' },
      { candidates: 60, scanBelow: Infinity, label: ' pool 60xInf' },
    ]);
  });
  it('runs only the frozen variants a cell names after @', () => {
    assert.deepEqual(poolVariants('-@0,1;60xInf@2', shipped), [
      { candidates: 60, scanBelow: 150, label: '', variants: [0, 1] },
      { candidates: 60, scanBelow: Infinity, label: ' pool 60xInf', variants: [2] },
    ]);
    assert.throws(() => poolVariants('60xInf@x', shipped), /numbers to run/);
  });
  it('refuses a cell that is not two numbers instead of reading a pool of nothing', () => {
    for (const bad of ['60', '60x', 'x150', 'sixtyx150', '60x150x2']) assert.throws(() => poolVariants(bad, shipped), /not candidates x scanBelow/);
  });
});

describe('rowOutFile', () => {
  it('keeps the first row in the file named and numbers the others from 2', () => {
    assert.equal(rowOutFile('fc.tsv', 0), 'fc.tsv');
    assert.equal(rowOutFile('fc.tsv', 1), 'fc-2.tsv');
    assert.equal(rowOutFile('out/fc', 2), 'out/fc-3');
  });
});
