// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv (274 queries), lambda 0.000001; 5-fold CV MRR@10 0.855',
  weights: {
    text: 3.7773, coverage: 3.7925, nameCoverage: -3.7015, popularity: -4.5054, popularitySq: 4.5423,
    intentMatch: 3.58, intentOther: -3.58, exactAlone: 3.5593, exactAlonePop: 5.5541, exactPhrase: 4.6474,
    category: 0.8924, meaning: -1.5156, meaningRaw: 5.1901, popularMeaning: 3.0722,
  },
  familyMargin: 0,
};
