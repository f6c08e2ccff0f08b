// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv + bench/search-fresh.tsv + bench/search-fresh-r4.tsv (721 queries), lambda 0.00001; 5-fold CV (stratified) MRR@10 0.768',
  weights: {
    coverage: 4.7536, nameCoverage: -0.7616, describedCoverage: 1.5633, keywordCoverage: 0.2697, readmeCoverage: 0.865,
    popularitySq: -0.5824, intentMatch: 1.8118, intentOther: -1.8118, exactAlone: 2.9324, exactAlonePop: 3.2623,
    exactPhrase: 1.3038, meaning: -0.65, meaningRaw: 6.702, popularMeaning: 2.5339,
  },
  familyMargin: 0,
};
