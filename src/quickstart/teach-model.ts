// The one place selection's "does it teach" rule is declared: a logistic model over teach-features.ts, its weights
// fitted by scripts/fit-quickstart-teach.ts on rated quickstarts (never set by hand), and the rule that picks among
// the candidates that ran.
import { TEACH_FEATURES, teachFeatures, type RanCandidate, type TeachVector } from './teach-features.ts';
import { TEACH_WEIGHTS } from './teach-weights.ts';

/** Weights per standardised feature ((x − center) / scale, the training set's mean and deviation). */
export interface TeachWeights { bias: number; weights: Record<string, number>; center: Record<string, number>; scale: Record<string, number>; fittedOn: string; lambda: number }

/** The probability a rater says the program teaches the package's main use. */
export function teachProbability(x: TeachVector, model: TeachWeights = TEACH_WEIGHTS): number {
  let z = model.bias;
  // A feature the caller could not compute (NaN: no encoder for `purpose`) sits at the training mean: it adds nothing.
  for (const name of TEACH_FEATURES) if (Number.isFinite(x[name])) z += (model.weights[name] ?? 0) * (x[name] - (model.center[name] ?? 0)) / (model.scale[name] || 1);
  return 1 / (1 + Math.exp(-z));
}

export async function teachScore(c: RanCandidate, model: TeachWeights = TEACH_WEIGHTS): Promise<number> {
  return teachProbability(await teachFeatures(c), model);
}

/**
 * Of the candidates that ran, the one to show: highest probability of teaching; ties (within 0.01) keep the earlier,
 * i.e. the hand-ranked order. Returns the index.
 */
export async function pickTeaching(ran: RanCandidate[], model: TeachWeights = TEACH_WEIGHTS): Promise<number> {
  let best = 0;
  let bestP = -1;
  for (const [i, c] of ran.entries()) {
    const p = await teachScore(c, model);
    if (p > bestP + 0.01) { best = i; bestP = p; }
  }
  return best;
}

/**
 * Selection among candidates that ran. Verification no longer stops at the first program that prints something: it
 * runs the next candidates too, within these bounds, and shows the one the model rates most likely to teach.
 * Bounds (per verification, on top of TOOLDEX_QUICKSTART_MAX_RUNS, which still caps all runs): at most `alternatives`
 * programs that ran (the first included), at most `extraRuns` sandbox runs after the first success (repairs count),
 * and no new run started `extraMs` after it. Programs tooldex writes from the API are never alternatives to a real
 * example that ran. `enabled` is set from the fit's package-disjoint validation (docs/quickstarts.md, "Round 10:
 * selection" and "Round 11: selection"): on since round 10. Refit in round 11 on 465 rated programs (r5, r7–r10, the
 * round-6 alternatives and the three later sheets of blind-rated alternatives; λ 10, 19 features with
 * `dumpsConstruction`): among a package's alternatives it picks a teaching program in 59/86 leaving one package out
 * against 49/86 for today's order (some alternative teaches in 61), and its leave-one-ecosystem-out AUC is 0.799
 * against the hand score's 0.761. `alternatives: 3` is kept from the same validation: the model's pick among the
 * first 1 / 2 / 3 / 4 programs that ran teaches in 47 / 57 / 59 / 59 of 86 packages. Refit in round 12 with round
 * 11's fresh programs and `dumpedLines` (508 rated): leave one package out 60/86, leave one ecosystem out 0.806 vs
 * 0.770 (picks 59/86); the nine-set model on round 11's fresh programs held out: AUC 0.846 vs the hand score's 0.833,
 * the same picks (4/7); first k = 1 / 2 / 3 / 4: 47 / 58 / 60 / 60, so three are kept. Tuning figures, spent sets.
 */
export interface TeachSelection { enabled: boolean; alternatives: number; extraRuns: number; extraMs: number; model?: TeachWeights }
export const TEACH_SELECTION: TeachSelection = { enabled: true, alternatives: 3, extraRuns: 4, extraMs: 45_000 };
