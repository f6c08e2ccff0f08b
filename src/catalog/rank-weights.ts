// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
import type { TreeNode } from './rank-trees.ts';

export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv + bench/search-fresh.tsv + bench/search-fresh-r4.tsv + bench/search-fresh-r5.tsv + bench/search-fresh-r6.tsv + bench/search-fresh-r7.tsv + bench/search-fresh-r8.tsv + bench/search-fresh-r9.tsv + bench/search-fresh-r10.tsv + bench/search-fresh-r11.tsv + bench/search-fresh-r12.tsv + bench/search-fresh-r13.tsv + bench/search-fresh-r14.tsv + bench/search-fresh-r15.tsv + bench/search-fresh-r16.tsv + bench/search-fresh-r17.tsv + bench/search-fresh-r18.tsv + bench/search-fresh-r19.tsv (4893 queries), lambda 0.00001; no CV (FIT_CV=0; chosen by leave-one-set-out); held at 0 (pruned): popularitySq',
  /** FEATURES (rank.ts) in the order the fit read them: the trees name features by position in this list. */
  features: ['coverage', 'describedCoverage', 'readmeCoverage', 'popularitySq', 'intentMatch', 'intentOther', 'exactAlone', 'exactAlonePop', 'exactPhrase', 'meaning', 'meaningRaw', 'namesakes', 'exactAloneLead'],
  weights: {
    coverage: 4.5501, describedCoverage: 2.0877, readmeCoverage: 1.5678, popularitySq: 0, intentMatch: 2.5305,
    intentOther: -2.5305, exactAlone: 1.9033, exactAlonePop: 1.4609, exactPhrase: 0.835, meaning: 1.3653,
    meaningRaw: 7.4299, namesakes: 1.755, exactAloneLead: 1.938,
  },
  familyMargin: 0,
  /** Regression trees added to the linear score (rank-trees.ts): [feature index, threshold, below, at or above]. */
  trees: [

  ] as TreeNode[],
};
