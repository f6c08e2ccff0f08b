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

/** A program's probability of teaching, and the doubt note when it is low (teachDoubt), from its features. */
function verdict(x: TeachVector, p: number, ran: number): { p: number; doubt?: string } {
  const doubt = teachDoubt(x, p, ran);
  return doubt ? { p, doubt } : { p };
}

/** The shown program's probability of teaching, and the doubt note when it is low (teachDoubt). */
export async function judgeShown(c: RanCandidate, ran: number, model: TeachWeights = TEACH_WEIGHTS): Promise<{ p: number; doubt?: string }> {
  const x = await teachFeatures(c);
  return verdict(x, teachProbability(x, model), ran);
}

/**
 * Below this probability the shown program is said not to teach (teachDoubt). Chosen on forward-chaining (each round's
 * rated programs judged by a model fitted on the rounds before, r10–r13 with their sheets of alternatives; 402
 * programs, 170 rated "teaches"): below 0.2, 13 of 117 teach (89 % of the notes right); below 0.25, 21 of 143; below
 * 0.3, 23 of 163 (docs/quickstarts.md, "Round 14: selection"). Kept in round 16, when the fit was calibrated so that
 * the probability keeps this meaning at λ 1000: forward over r10–r15 and the sheets, 189 programs below it, 23 teach.
 */
export const TEACH_DOUBT = 0.2;

/**
 * What a rater would see wrong with a program, from its features: the classes the raters name for "runs but trivial"
 * and "wrong" (an error reported, its own input printed back, a value only dumped, names the README's lead and the
 * docs' examples do not call, a stand-in input). Undefined when no feature names one.
 */
export function doubtClass(x: TeachVector): string | undefined {
  // A dumped object's fields often read like an error (a stream's `errored: null`): the dump is what a rater sees.
  if (x.dumpsConstruction || x.dumpedLines >= 0.5) return 'it only prints a value or object it made';
  if (x.reportsError) return 'its output reports an error';
  if (x.echoesInput) return 'it prints back the input it was given';
  if (x.dumpsObject) return 'it only prints a value or object it made';
  if (x.leadShare === 0 && !(x.docsShare >= 0.25)) return "it calls nothing the README's lead examples call: a side feature, not the main use";
  if (x.standInInput) return 'it runs on a stand-in input';
  return undefined;
}

/**
 * The note for a shown program unlikely to teach (p below TEACH_DOUBT), or undefined: said plainly beside the
 * program, so that neither an agent nor a reader takes the best program that ran for the package's main use.
 */
export function teachDoubt(x: TeachVector, p: number, ran: number): string | undefined {
  if (p >= TEACH_DOUBT) return undefined;
  const why = doubtClass(x);
  const of = ran > 1 ? `None of the ${ran} programs that ran is likely` : 'The one program that ran is unlikely';
  return `${of} to show the package's main use (teach model p=${p.toFixed(2)})${why ? `; this one: ${why}` : ''}. It is shown because it runs, not as the main use: read the README for that.`;
}

/**
 * The shown program with the doubt note heading it as comment lines (`//`, or `#` for Python and Ruby): a program that
 * no candidate bettered is still shown, because it runs, but a reader of the program alone (an agent that copies it, a
 * rater who sees code and output) is told it is not the main use instead of taking it for one. Without a note, the
 * code as it ran.
 */
export function withDoubtHeader(code: string, language: string, doubt: string | undefined): string {
  if (!doubt) return code;
  const mark = /^(python|ruby)$/.test(language) ? '#' : '//';
  const words = `tooldex: ${doubt}`.split(/\s+/);
  const lines: string[] = [];
  for (const word of words) {
    if (lines.length && `${lines[lines.length - 1]} ${word}`.length <= 100) lines[lines.length - 1] += ` ${word}`;
    else lines.push(`${mark} ${word}`);
  }
  return `${lines.join('\n')}\n${code}`;
}

/** The doubt note's sentences as teachDoubt writes them (its opening, up to its closing words). */
const DOUBT_NOTE = /\s*(None of the \d+ programs that ran is likely|The one program that ran is unlikely) to show the package's main use[^]*?read the README for that\./g;

/** A verdict's note without the doubt note (a blind rating sheet shows the program's own notes, not the model's verdict). */
export function withoutDoubtNote(note: string | undefined): string | undefined {
  const rest = note?.replace(DOUBT_NOTE, '').trim();
  return rest || undefined;
}

/**
 * The code without withDoubtHeader's comment lines: the program that ran, as the teach features read it (the fit reads
 * rated bench outputs, whose shown code carries the header) and as a blind rating sheet shows it (the model's verdict
 * is not the rater's to see).
 */
export function withoutDoubtHeader(code: string): string {
  if (!/^(#|\/\/) tooldex: /.test(code)) return code;
  const lines = code.split('\n');
  // The note's closing words may be wrapped over two comment lines: read the comment text joined, line by line.
  let text = '';
  for (const [index, line] of lines.entries()) {
    const comment = /^(?:#|\/\/) (.*)$/.exec(line);
    if (!comment) return code;
    text += ` ${comment[1]}`;
    if (/ read the README for that\.$/.test(text)) return lines.slice(index + 1).join('\n');
  }
  return code;
}

/**
 * Of the candidates that ran, the one to show: highest probability of teaching; ties (within 0.01) keep the earlier,
 * i.e. the hand-ranked order. Returns the index.
 */
export async function pickTeaching(ran: RanCandidate[], model: TeachWeights = TEACH_WEIGHTS): Promise<number> {
  return (await pickAndJudge(ran, model)).at;
}

/**
 * pickTeaching's choice and judgeShown's verdict on it, each program's features read once (they parse its code and
 * output): what verification needs when it shows one of several programs that ran.
 */
export async function pickAndJudge(ran: RanCandidate[], model: TeachWeights = TEACH_WEIGHTS): Promise<{ at: number; p: number; doubt?: string }> {
  const vectors: TeachVector[] = [];
  for (const c of ran) vectors.push(await teachFeatures(c));
  const ps = vectors.map((x) => teachProbability(x, model));
  let at = 0;
  for (let i = 1; i < ps.length; i++) if (ps[i]! > ps[at]! + 0.01) at = i;
  return { at, ...verdict(vectors[at]!, ps[at]!, ran.length) };
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
 * Refit in round 14 on all fourteen rated sets (635 programs, with round 13's fresh ones): forward-chaining over rounds
 * 10–13 (fit on the rounds before, judge the next) picks a teaching program in 124 of 129 packages where one teaches
 * against 121 for a model one round old, and 114 for today's order; leave one package out 60/86 (k = 1..4: 47 / 59 /
 * 60 / 60, three kept). Refit in round 15 on sixteen sets (692 programs, with round 14's fresh ones and round 15's
 * sheet of alternatives of r13 packages): forward-chaining over rounds 10–14 146 of 152 against 142 not refit and 137
 * for today's order; leave one package out 62/93 (k = 1..4: 50 / 62 / 62 / 62, three kept). Refit in round 16 at λ
 * 1000, the regularisation forward-chaining itself chooses (each round's λ picked on the rounds before it), then
 * calibrated (scripts/teach-calibrate.ts), on twenty sets (800 programs, with round 15's fresh ones and round 16's sheet
 * of alternatives): forward-chaining over rounds 10–15 picks a teaching program in 179 of 187 packages against 174 at
 * λ 10 and 168 for today's order (docs/quickstarts.md, "Round 16: selection").
 */
export interface TeachSelection { enabled: boolean; alternatives: number; extraRuns: number; extraMs: number; model?: TeachWeights }
export const TEACH_SELECTION: TeachSelection = { enabled: true, alternatives: 3, extraRuns: 4, extraMs: 45_000 };
