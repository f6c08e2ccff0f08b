// Written by scripts/fit-quickstart-teach.ts (do not edit by hand): not fitted yet.
import type { TeachWeights } from './teach-model.ts';

export const TEACH_WEIGHTS: TeachWeights = { bias: 0, weights: {}, center: {}, scale: {}, fittedOn: 'not fitted', lambda: 1 };
