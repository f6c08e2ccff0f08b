// The LambdaMART trees: reading a tree at query time, and the trainer learning what a linear score cannot.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { treesScore, treeValue, type TreeNode } from '../../../src/catalog/rank-trees.ts';
import { blend, featureOrderMismatch, FEATURES, TREES, WEIGHTS, type Signals } from '../../../src/catalog/rank.ts';
import { FITTED } from '../../../src/catalog/rank-weights.ts';
import { fitTrees } from '../../../bench/lambdamart.ts';

describe('treeValue', () => {
  const tree: TreeNode = [0, 0.5, [1, 0.2, -1, 1], 3];
  it('goes below a threshold to the first branch, at or above it to the second', () => {
    assert.equal(treeValue(tree, [0.4, 0.1]), -1);
    assert.equal(treeValue(tree, [0.4, 0.2]), 1);
    assert.equal(treeValue(tree, [0.5, 0]), 3);
  });
  it('sums an ensemble and gives 0 for none', () => {
    assert.equal(treesScore([tree, 2], [0.9, 0]), 5);
    assert.equal(treesScore([], [0.9, 0]), 0);
  });
});

describe('blend with trees', () => {
  const signals: Signals = {
    coverage: 1, nameCoverage: 0, describedCoverage: 1, keywordCoverage: 0, readmeCoverage: 0, popularity: 0.5, ecosystem: 'npm', exact: false,
    semantic: 0, cosine: 0, member: false, namesakes: 0,
  };
  it('adds the trees to the linear score', () => {
    const saved = TREES.value;
    try {
      TREES.value = [];
      const linear = blend(signals, { single: false });
      TREES.value = [[0, 0.5, 0, 2]]; // coverage ≥ 0.5: +2
      assert.equal(blend(signals, { single: false }), linear + 2);
    } finally {
      TREES.value = saved;
    }
  });
});

describe('the shipped model', () => {
  it('has a weight for every feature and no other, and trees that read only declared features', () => {
    assert.deepEqual(Object.keys(FITTED.weights).sort(), [...FEATURES].sort());
    const read = (node: TreeNode): number[] => (typeof node === 'number' ? [] : [node[0], ...read(node[2]), ...read(node[3])]);
    for (const tree of FITTED.trees) for (const feature of read(tree)) assert.ok(feature >= 0 && feature < FEATURES.length, `feature ${feature}`);
    assert.equal(Object.keys(WEIGHTS).length, FEATURES.length);
  });
  it('was fitted on FEATURES in their present order, and a different order is reported', () => {
    assert.deepEqual(FITTED.features, [...FEATURES]);
    assert.equal(featureOrderMismatch(FITTED.features), undefined);
    const swapped = [...FEATURES];
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    assert.match(featureOrderMismatch(swapped) ?? '', /fitted on features \[describedCoverage, coverage/);
    assert.ok(featureOrderMismatch(FEATURES.slice(1)));
  });
});

describe('fitTrees', () => {
  // Acceptable answers are the candidates whose first feature lies in a band (0.4..0.6): no linear score over that
  // feature ranks them first, a tree of depth 2 can.
  const lists = Array.from({ length: 40 }, (_, q) => {
    const features = Array.from({ length: 12 }, (_, i) => [((i * 7 + q) % 12) / 11, (q % 3) / 2]);
    return { query: `q${q}`, features, relevant: features.map(([x]) => x! >= 0.4 && x! < 0.6) };
  });
  const firstHits = (trees: TreeNode[]) => lists.filter((list) => {
    const scores = list.features.map((v) => treesScore(trees, v));
    const top = scores.indexOf(Math.max(...scores));
    return list.relevant[top];
  }).length;
  it('learns a band from lambda gradients where the base score has none', () => {
    const trees = fitTrees(lists, () => 0, { rounds: 20, depth: 2, shrinkage: 0.3, minLeaf: 0.01, l2: 0.1 });
    assert.equal(trees.length, 20);
    assert.equal(firstHits(trees), lists.length);
    assert.equal(firstHits([]), lists.filter((list) => list.relevant[0]).length, 'all ties: the first candidate');
  });
  it('is deterministic', () => {
    const settings = { rounds: 5, depth: 3, shrinkage: 0.1, minLeaf: 0.01, l2: 1 };
    assert.deepEqual(fitTrees(lists, () => 0, settings), fitTrees(lists, () => 0, settings));
  });
});
