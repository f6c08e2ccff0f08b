// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
import type { TreeNode } from './rank-trees.ts';

export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv + bench/search-fresh.tsv + bench/search-fresh-r4.tsv (721 queries), lambda 0.00001; 5-fold CV (stratified) MRR@10 0.796',
  weights: {
    coverage: 4.4213, describedCoverage: 1.4587, keywordCoverage: 0.8582, readmeCoverage: 0.7399,
    popularitySq: 1.204, intentMatch: 2.1584, intentOther: -2.1584, exactAlone: 2.8419, exactAlonePop: 3.0838,
    exactPhrase: 1.7923, meaning: 0.2057, meaningRaw: 7.2172,
  },
  familyMargin: 0,
  /** Regression trees added to the linear score (rank-trees.ts): [feature index, threshold, below, at or above]. */
  trees: [
  ] as TreeNode[],
};
