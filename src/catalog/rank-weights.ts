// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv (274 queries), lambda 0.000001; 5-fold CV MRR@10 0.844',
  weights: {
    text: 3.1528, coverage: 4.0924, nameCoverage: -3.3335, popularity: -5.198, popularitySq: 5.6353,
    intentMatch: 3.611, intentOther: -3.611, exactAlone: 3.3685, exactAlonePop: 5.3557, exactPhrase: 4.9587,
    category: 1.0079, meaning: -1.3222, meaningRaw: 5.8638, popularMeaning: 2.26, contextFramework: 1.7241,
    familyMember: -0.8787,
  },
  familyMargin: 0,
};
