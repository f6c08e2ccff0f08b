// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv + bench/search-fresh.tsv (492 queries), lambda 0.000001; 5-fold CV (stratified) MRR@10 0.793',
  weights: {
    coverage: 6.0639, nameCoverage: -0.3952, popularity: -5.1353, popularitySq: 4.7891, intentMatch: 3.7568,
    intentOther: -3.7568, exactAlone: 2.9621, exactAlonePop: 3.7817, exactPhrase: 2.4195, category: 1.223,
    derivative: -0.9263, meaning: -0.6553, meaningRaw: 6.319, popularMeaning: 2.5008,
  },
  familyMargin: 0,
};
