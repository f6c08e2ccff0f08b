// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv + bench/search-fresh.tsv (492 queries), lambda 0.00001; 5-fold CV (stratified) MRR@10 0.794',
  weights: {
    coverage: 5.8013, nameCoverage: -0.331, popularitySq: 0.8195, intentMatch: 3.6425, intentOther: -3.6425,
    exactAlone: 2.8426, exactAlonePop: 2.8745, exactPhrase: 1.1909, category: 1.2458, derivative: -0.9094,
    meaning: -0.2463, meaningRaw: 5.4996, popularMeaning: 2.3746,
  },
  familyMargin: 0,
};
