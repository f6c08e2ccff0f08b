// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
import type { TreeNode } from './rank-trees.ts';

export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv + bench/search-fresh.tsv + bench/search-fresh-r4.tsv + bench/search-fresh-r5.tsv + bench/search-fresh-r6.tsv + bench/search-fresh-r7.tsv + bench/search-fresh-r8.tsv + bench/search-fresh-r9.tsv + bench/search-fresh-r10.tsv + bench/search-fresh-r11.tsv + bench/search-fresh-r12.tsv + bench/search-fresh-r13.tsv + bench/search-fresh-r14.tsv + bench/search-fresh-r15.tsv + bench/search-fresh-r16.tsv + bench/search-fresh-r17.tsv + bench/search-fresh-r18.tsv (4613 queries), lambda 0.00001; no CV (FIT_CV=0; chosen by leave-one-set-out); held at 0 (pruned): popularitySq',
  /** FEATURES (rank.ts) in the order the fit read them: the trees name features by position in this list. */
  features: ['coverage', 'describedCoverage', 'readmeCoverage', 'popularitySq', 'intentMatch', 'intentOther', 'exactAlone', 'exactAlonePop', 'exactPhrase', 'meaning', 'meaningRaw', 'namesakes'],
  weights: {
    coverage: 4.5178, describedCoverage: 2.1187, readmeCoverage: 1.559, popularitySq: 0, intentMatch: 2.5225,
    intentOther: -2.5225, exactAlone: 2.6308, exactAlonePop: 2.1763, exactPhrase: 0.8228, meaning: 1.3205,
    meaningRaw: 7.4105, namesakes: 1.8,
  },
  familyMargin: 0,
  /** Regression trees added to the linear score (rank-trees.ts): [feature index, threshold, below, at or above]. */
  trees: [

  ] as TreeNode[],
};
