// Fits the "teaches the main use" model of quickstart selection (src/quickstart/teach-model.ts) on rated programs, with
// leave-one-set-out validation against today's hand-set score, and writes the weights to src/quickstart/teach-weights.ts.
//   node --import tsx scripts/fit-quickstart-teach.ts [--lambda 1] [--lambdas 10,100] [--fix f=w] [--write] [--skip-sets r11] [--forward-only | --no-rotations]
// Labelled sets (spent; each a JSON of rated programs with their real output, and a ratings TSV):
//   r5:   bench/quickstart-labels-r5.json       + bench/quickstarts-fresh-r5-ratings.tsv   (the chosen quickstarts)
//   alts: bench/quickstart-labels-alts.json     + bench/quickstart-labels-alts-ratings.tsv (2–4 alternatives a package)
//   r7:   bench/quickstarts-fresh-r7-results.json + bench/quickstarts-fresh-r7-ratings.tsv  (the chosen quickstarts, from the bench output)
//   r8:   bench/quickstarts-fresh-r8-results.json + bench/quickstarts-fresh-r8-ratings.tsv  (the same form, round 8)
//   r9:   bench/quickstarts-fresh-r9-results.json + bench/quickstarts-fresh-r9-ratings.tsv  (the same form, round 9)
//   alts2: bench/quickstart-labels-alts2.json   + bench/quickstart-labels-alts2-ratings.tsv (round 10: alternatives of
//         r4–r9 packages, first those whose chosen program ran but was rated trivial or wrong)
//   alts3: bench/quickstart-labels-alts3.json   + bench/quickstart-labels-alts3-ratings.tsv (round 10's second sheet)
//   r10:  bench/quickstarts-fresh-r10-results.json + -results-round9-code.json + bench/quickstarts-fresh-r10-ratings-both.tsv
//         (round 10's fresh packages, run by the round-10 and the round-9 code; every distinct program that ran, rated
//         blind from one sheet, with which run chose it)
//   alts4: bench/quickstart-labels-alts4.json   + bench/quickstart-labels-alts4-ratings.tsv (round 11: alternatives of the
//         r10 packages not rated "teaches")
//   r11:  bench/quickstarts-fresh-r11-results.json + -results-round10-code.json + bench/quickstarts-fresh-r11-ratings-both.tsv
//         (round 11's fresh packages, run by the round-11 and the round-10 code, rated blind from one sheet as r10)
//   r12mid: bench/quickstart-labels-r12mid-run.json + -ratings.tsv (round 12: r11's non-teaching packages, run mid-round;
//         not in the shipped fit, which --skip-sets r12mid reproduces: docs/quickstarts.md "Round 12: selection")
//   r12:  bench/quickstarts-fresh-r12-results.json + -results-round11-code.json + bench/quickstarts-fresh-r12-ratings-both.tsv
//         (round 12's fresh packages, run by the round-12 and the round-11 code, rated blind from one sheet as r10)
//   r13mid: bench/quickstart-labels-r13mid-run.json + -ratings.tsv (round 13: r12's non-teaching packages, run mid-round)
//   r13:  bench/quickstarts-fresh-r13-results.json + -results-round12-code.json + bench/quickstarts-fresh-r13-ratings-both.tsv
//         (round 13's fresh packages, run by the round-13 and the round-12 code, rated blind from one sheet as r10)
//   r14:  bench/quickstarts-fresh-r14-results.json + -results-round13-code.json + bench/quickstarts-fresh-r14-ratings-both.tsv
//         (round 14's fresh packages, run by the round-14 (`new`) and the round-13 (`base`) code, rated blind as r10)
//   r15:  bench/quickstarts-fresh-r15-results.json + -results-round14-code.json + bench/quickstarts-fresh-r15-ratings-both.tsv
//         (round 15's fresh packages, run once at the end of round 15 by the round-15 (`new`) and the round-14 (`base`)
//         code, rated blind as r10; spent since, training data from round 16 on)
//   r16:  bench/quickstarts-fresh-r16-results.json + -results-round15-code.json + bench/quickstarts-fresh-r16-ratings-both.tsv
//         (round 16's fresh packages, run once at the end of round 16 by the round-16 (`new`) and the round-15 (`base`)
//         code, rated blind as r10, without the doubt note's lines; training data from round 17 on)
//   r17:  bench/quickstarts-fresh-r17-results.json + -results-round16-code.json + bench/quickstarts-fresh-r17-ratings-both.tsv
//         (round 17's fresh packages, run once at the end of round 17 by the round-17 (`new`) and the round-16 (`base`)
//         code, rated blind as r16; training data from round 18 on)
//   r18:  bench/quickstarts-fresh-r18-results.json + -results-round17-code.json + bench/quickstarts-fresh-r18-ratings-both.tsv
//         (round 18's fresh packages, run once at the end of round 18 by the round-18 (`new`) and the round-17 (`base`)
//         code, 47 of 48 for the latter, rated blind as r16; training data from round 19 on)
//   r19:  bench/quickstarts-fresh-r19-results.json + -results-round18-code.json + bench/quickstarts-fresh-r19-ratings-both.tsv
//         (round 19's fresh packages, run once at the end of round 19 by the round-19 (`new`) and the round-18 (`base`)
//         code, rated blind as r16; training data from round 20 on)
//   alts5r13, alts5r14: bench/quickstart-labels-alts5-runs.json + -alts5-ratings.tsv (round 15: bench/quickstart-alternatives.ts
//         --per 3 --tries 5 over the r13 and r14 packages not rated "teaches", every alternative rated blind), split by
//         the fresh set each package came from: forward-chaining judges them with rounds 13 and 14
//   alts5br13, alts5br14: bench/quickstart-labels-alts5b-runs.json + -alts5b-ratings.tsv (the same sheet's second part:
//         the 34 packages the first run did not reach, run after the round's fresh runs on the round-15 code)
//   The shipped weights (teach-weights.ts) are round 16's fit on every set (alts6r15 too when its files are in) at
//   --lambda 1000: the λ that --lambdas 10,30,100,300,1000 chooses forward (docs/quickstarts.md "Round 16: selection").
//   Round 15's fit was --lambda 10 --skip-sets r15,alts5br13,alts5br14 (and, before its lead counts were collected,
//   without r15's leadShare and docsShare).
// Forward-chaining (printed first; --forward-only stops there): for k = 10..19, a model fitted on the sets rated before
// round k (ROUND below) judges each set rated in round k, beside the hand score and the model of a round earlier (what
// not refitting ships). It is the closest thing to the next fresh run: a change must win it.
// Validation is package-disjoint: a held-out set's packages leave every training set (the chosen program of a fresh
// package is often one of its rated alternatives).
// Metrics per held-out set: AUC of "teaches" (model vs hand score), and where a package has several rated alternatives,
// how often the pick teaches (model's top vs the hand-ranked first that ran, which is what selection picks today).
import fs from 'node:fs';
import { TEACH_FEATURES, teachFeatures, type RanCandidate, type TeachFeature, type TeachVector } from '../src/quickstart/teach-features.ts';
import { teachProbability, withoutDoubtHeader, TEACH_DOUBT, type TeachWeights } from '../src/quickstart/teach-model.ts';
import type { PackageRun } from '../bench/quickstart-alternatives.ts';
import { calibrate } from './teach-calibrate.ts';

const args = process.argv.slice(2);
const option = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const LAMBDA = Number(option('lambda') ?? 1);
const WRITE = args.includes('--write');
/** --features a,b: fit on these only (the rest weigh 0): to compare small models. */
const ONLY = option('features')?.split(',');
/** --without a,b: fit with these weighing 0 (ablation). */
const WITHOUT = option('without')?.split(',') ?? [];
const off = (f: string) => (ONLY && !ONLY.includes(f)) || WITHOUT.includes(f);
/**
 * --fix handScore=2: these features' weights (per standard deviation) are set, not fitted nor penalised: a prior the
 * fit adds to, e.g. the hand score as a fixed offset with the other features fitted around it.
 */
const FIXED = new Map((option('fix')?.split(',') ?? []).map((kv) => kv.split('=')).map(([f, v]) => [f!, Number(v)]));

export interface LabelRow extends RanCandidate { id: string; slug: string; rank: number }
interface Example { set: string; id: string; slug: string; rank: number; y: number; x: TeachVector; hand: number; written: boolean }

function ratings(file: string, key: 'id' | 'slug'): Map<string, string> {
  const [head, ...rows] = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const k = head!.indexOf(key);
  const r = head!.indexOf('rating');
  return new Map(rows.map((row) => [row[k]!.trim(), row[r]!.trim().toLowerCase()]));
}

async function load(set: string, json: string, tsv: string, key: 'id' | 'slug'): Promise<Example[]> {
  if (!fs.existsSync(json) || !fs.existsSync(tsv)) return [];
  return labelled(set, JSON.parse(fs.readFileSync(json, 'utf8')) as LabelRow[], tsv, key);
}

/**
 * The `leadShare` feature's input, from bench/quickstart-labels-lead.json: each labelled package's README lead examples'
 * called names (score.ts readmeLeadNames over the candidates `bench/quickstart-ranks.ts --lead-out` collects from the
 * package's current version; no runs). --no-lead leaves it unknown (NaN) for every example, i.e. weighing nothing.
 */
const LEAD: Record<string, { lead: string[]; docs?: RanCandidate['docsCalls'] }> = !args.includes('--no-lead') ? JSON.parse(fs.readFileSync(option('lead') ?? 'bench/quickstart-labels-lead.json', 'utf8')) : {};

async function labelled(set: string, rows: LabelRow[], tsv: string | Map<string, string>, key: 'id' | 'slug'): Promise<Example[]> {
  const rated = typeof tsv === 'string' ? ratings(tsv, key) : tsv;
  const out: Example[] = [];
  for (const row of rows) {
    const rating = rated.get(key === 'id' ? row.id : row.slug);
    if (!rating || !/^(teaches|trivial|wrong)/.test(rating)) continue;
    // A bench output's shown code carries the doubt note as a header (round 15): the features read the program that ran.
    row.program = withoutDoubtHeader(row.program);
    row.leadNames = LEAD[row.slug]?.lead;
    row.docsCalls = LEAD[row.slug]?.docs;
    out.push({ set, id: row.id, slug: row.slug, rank: row.rank, y: Number(rating.startsWith('teaches')), x: await teachFeatures(row), hand: row.score, written: row.origin === 'api' });
  }
  return out;
}

/** L2-regularised logistic regression by gradient descent (features are already on 0–1 scales; the bias is not penalised). */
export function fit(examples: Example[], lambda: number): TeachWeights {
  const w = TEACH_FEATURES.map((f) => FIXED.get(f) ?? 0);
  // Over the examples where a feature is known (NaN: `leadShare` where the README's lead calls nothing); unknown
  // values sit at the mean, as teachProbability reads them.
  const known = (f: TeachFeature) => examples.map((e) => e.x[f]).filter(Number.isFinite);
  const center = TEACH_FEATURES.map((f) => known(f).reduce((s, x) => s + x, 0) / (known(f).length || 1));
  const scale = TEACH_FEATURES.map((f, i) => Math.sqrt(known(f).reduce((s, x) => s + (x - center[i]!) ** 2, 0) / (known(f).length || 1)) || 1);
  let b = 0;
  const n = examples.length;
  // Mean log-loss + (lambda / 2n)·|w|²: lambda is worth that many examples' pull toward 0.
  // Standardised once (the same values every step would recompute).
  const rows = examples.map((e) => TEACH_FEATURES.map((f, i) => (off(f) || !Number.isFinite(e.x[f]) ? 0 : (e.x[f] - center[i]!) / scale[i]!)));
  for (let step = 0; step < 4000; step++) {
    const gw = w.map((wi) => (lambda / n) * wi);
    let gb = 0;
    examples.forEach((e, k) => {
      const xs = rows[k]!;
      let z = b;
      for (let i = 0; i < xs.length; i++) z += xs[i]! * w[i]!;
      const p = 1 / (1 + Math.exp(-z));
      for (let i = 0; i < xs.length; i++) gw[i]! += ((p - e.y) * xs[i]!) / n;
      gb += (p - e.y) / n;
    });
    for (let i = 0; i < w.length; i++) if (!FIXED.has(TEACH_FEATURES[i]!)) w[i]! -= 0.2 * gw[i]!;
    b -= 0.2 * gb;
  }
  // Calibrated after the fit (teach-calibrate.ts): at a strong λ the probabilities crowd the base rate.
  const calibrated = calibrate(rows.map((xs) => xs.reduce((s, x, i) => s + x * w[i]!, 0)), examples.map((e) => e.y), b);
  for (let i = 0; i < w.length; i++) w[i]! *= calibrated.scale;
  b = calibrated.bias;
  return {
    bias: round(b), weights: Object.fromEntries(TEACH_FEATURES.map((f, i) => [f, round(w[i]!)])),
    center: Object.fromEntries(TEACH_FEATURES.map((f, i) => [f, round(center[i]!)])), scale: Object.fromEntries(TEACH_FEATURES.map((f, i) => [f, round(scale[i]!)])), fittedOn: '', lambda,
  };
}

const mean = (v: number[]) => v.filter((x) => !Number.isNaN(x)).reduce((s, x) => s + x, 0) / v.filter((x) => !Number.isNaN(x)).length;
const round = (v: number) => Math.round(v * 1000) / 1000;

/** Area under the ROC curve: the chance a random "teaches" scores above a random other (ties count half). */
export function auc(scores: number[], labels: number[]): number {
  let pairs = 0;
  let wins = 0;
  scores.forEach((si, i) => scores.forEach((sj, j) => {
    if (labels[i] === 1 && labels[j] === 0) { pairs++; wins += si > sj ? 1 : si === sj ? 0.5 : 0; }
  }));
  return pairs ? wins / pairs : NaN;
}

/** AUC over the examples where the score is known (not NaN). */
const LEAD_KNOWN = Object.keys(LEAD).length > 0;
/** The features judged alone per held-out set: the package-structure signals. */
const ALONE: TeachFeature[] = ['leadShare', 'docsShare'];
const aucKnown = (scores: number[], labels: number[]) => auc(scores.filter(Number.isFinite), labels.filter((_, i) => Number.isFinite(scores[i])));

/**
 * Per package with 2+ rated alternatives: does the pick teach? As selection runs: a written program is never picked
 * over a real example that ran; the first maximum wins (ties keep the ranked order). `today` is selection without the
 * model: the best-ranked that ran, except that one printing back its own input is passed over for the next (verify.ts).
 */
function pickRate(examples: Example[], score: ((e: Example) => number) | 'today'): { teaches: number; of: number } {
  const bySlug = new Map<string, Example[]>();
  for (const e of examples) bySlug.set(e.slug, [...(bySlug.get(e.slug) ?? []), e]);
  let teaches = 0;
  let of = 0;
  for (const all of bySlug.values()) {
    const group = all.some((e) => !e.written) ? all.filter((e) => !e.written) : all;
    if (all.length < 2) continue;
    const sorted = [...group].sort((a, b) => a.rank - b.rank);
    let best = sorted[0]!;
    if (score === 'today') best = sorted.find((e) => !e.x.echoesInput) ?? sorted[0]!;
    else for (const e of sorted) if (score(e) > score(best) + 1e-9) best = e;
    of++;
    teaches += best.y;
  }
  return { teaches, of };
}

/**
 * A bench output (bench/quickstarts.ts --out) as rated programs: each package's chosen program that ran, with its
 * origin, hand score, signals and output, rated by package (round 7 kept these in its results file).
 */
async function loadBench(set: string, json: string, tsv: string): Promise<Example[]> {
  if (!fs.existsSync(json) || !fs.existsSync(tsv)) return [];
  interface BenchRow { slug: string; ecosystem: RanCandidate['ecosystem']; verified: { status: string; stdout?: string }; quickstart?: { code: string; chosen?: { origin: RanCandidate['origin']; score: number; signals: string[]; rank: number } } }
  const rows = (JSON.parse(fs.readFileSync(json, 'utf8')) as BenchRow[]).flatMap((r): LabelRow[] => {
    const chosen = r.quickstart?.chosen;
    if (r.verified.status !== 'ran' || !chosen || !r.quickstart) return [];
    return [{ id: r.slug, slug: r.slug, rank: chosen.rank, ecosystem: r.ecosystem, program: r.quickstart.code, stdout: r.verified.stdout ?? '', origin: chosen.origin, score: chosen.score, signals: chosen.signals }];
  });
  return labelled(set, rows, tsv, 'slug');
}

/**
 * Two bench outputs over the same packages (round 10: its own code and the round-9 code side by side), rated from one
 * sheet: the ratings TSV has a `chosen_by` column (`both`, or the run's name). Each distinct program that ran is one
 * example; a program both runs chose is counted once, from the first run.
 */
async function loadBenchPair(set: string, runs: Array<{ name: string; json: string }>, tsv: string): Promise<Example[]> {
  if (!fs.existsSync(tsv) || runs.some((r) => !fs.existsSync(r.json))) return [];
  const [head, ...lines] = fs.readFileSync(tsv, 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const col = (name: string) => head!.indexOf(name);
  const rated = lines.map((l) => ({ slug: l[col('slug')]!.trim(), by: l[col('chosen_by')]!.trim(), rating: l[col('rating')]!.trim().toLowerCase() }));
  interface BenchRow { slug: string; ecosystem: RanCandidate['ecosystem']; verified: { status: string; stdout?: string }; quickstart?: { code: string; chosen?: { origin: RanCandidate['origin']; score: number; signals: string[]; rank: number } } }
  const out: Example[] = [];
  for (const [k, run] of runs.entries()) {
    const rows = (JSON.parse(fs.readFileSync(run.json, 'utf8')) as BenchRow[]).flatMap((r): LabelRow[] => {
      const chosen = r.quickstart?.chosen;
      // The first run's programs carry the `both` ratings; a later run adds only the programs it alone chose.
      const rating = rated.find((x) => x.slug === r.slug && (x.by === run.name || (k === 0 && x.by === 'both')))?.rating;
      if (r.verified.status !== 'ran' || !chosen || !r.quickstart || !rating) return [];
      return [{ id: `${r.slug}@${run.name}`, slug: r.slug, rank: chosen.rank, ecosystem: r.ecosystem, program: r.quickstart.code, stdout: r.verified.stdout ?? '', origin: chosen.origin, score: chosen.score, signals: chosen.signals }];
    });
    const ratings = new Map(rated.filter((x) => x.by === run.name || (k === 0 && x.by === 'both')).map((x) => [`${x.slug}@${run.name}`, x.rating]));
    out.push(...await labelled(set, rows, ratings, 'id'));
  }
  return out;
}

/**
 * A round-15 sheet of alternatives (alts5: --alts5, --alts5-ratings; alts5b): bench/quickstart-alternatives.ts's own
 * output (PackageRun[], each alternative with its candidate), only the packages of one fresh set's bench output.
 */
async function loadAlts(set: string, freshResults: string, sheet: 'alts5' | 'alts5b' | 'alts6' = 'alts5'): Promise<Example[]> {
  const json = (sheet === 'alts5' ? option('alts5') : undefined) ?? `bench/quickstart-labels-${sheet}-runs.json`;
  const ratings = (sheet === 'alts5' ? option('alts5-ratings') : undefined) ?? `bench/quickstart-labels-${sheet}-ratings.tsv`;
  if (!fs.existsSync(json) || !fs.existsSync(freshResults)) return [];
  const slugs = new Set((JSON.parse(fs.readFileSync(freshResults, 'utf8')) as Array<{ slug: string }>).map((r) => r.slug));
  const runs = JSON.parse(fs.readFileSync(json, 'utf8')) as PackageRun[];
  const rows = runs.filter((r) => slugs.has(r.slug)).flatMap((r) => r.alternatives).map((a): LabelRow => ({
    id: a.id, slug: a.slug, rank: a.rank, ecosystem: a.ecosystem as RanCandidate['ecosystem'], program: a.program, stdout: a.stdout,
    origin: a.candidate.origin, score: a.candidate.score, signals: a.candidate.signals,
  }));
  return labelled(set, rows, ratings, 'id');
}

const sets = {
  r5: await load('r5', 'bench/quickstart-labels-r5.json', 'bench/quickstarts-fresh-r5-ratings.tsv', 'slug'),
  r7: await loadBench('r7', 'bench/quickstarts-fresh-r7-results.json', 'bench/quickstarts-fresh-r7-ratings.tsv'),
  r8: await loadBench('r8', 'bench/quickstarts-fresh-r8-results.json', 'bench/quickstarts-fresh-r8-ratings.tsv'),
  r9: await loadBench('r9', 'bench/quickstarts-fresh-r9-results.json', 'bench/quickstarts-fresh-r9-ratings.tsv'),
  alts: await load('alts', 'bench/quickstart-labels-alts.json', option('alts-ratings') ?? 'bench/quickstart-labels-alts-ratings.tsv', 'id'),
  alts2: await load('alts2', option('alts2') ?? 'bench/quickstart-labels-alts2.json', option('alts2-ratings') ?? 'bench/quickstart-labels-alts2-ratings.tsv', 'id'),
  // Round 10's second sheet (the same kind of packages, rated after the model was switched on): a set held out from it.
  alts3: await load('alts3', option('alts3') ?? 'bench/quickstart-labels-alts3.json', option('alts3-ratings') ?? 'bench/quickstart-labels-alts3-ratings.tsv', 'id'),
  r10: await loadBenchPair('r10', [{ name: 'round 10', json: 'bench/quickstarts-fresh-r10-results.json' }, { name: 'round 9', json: 'bench/quickstarts-fresh-r10-results-round9-code.json' }], 'bench/quickstarts-fresh-r10-ratings-both.tsv'),
  // Round 11's sheet: alternatives of the round-10 packages whose chosen program was not rated "teaches".
  alts4: await load('alts4', option('alts4') ?? 'bench/quickstart-labels-alts4.json', option('alts4-ratings') ?? 'bench/quickstart-labels-alts4-ratings.tsv', 'id'),
  // Round 11's fresh packages (spent in round 12), in r10's form.
  r11: await loadBenchPair('r11', [{ name: 'round 11', json: 'bench/quickstarts-fresh-r11-results.json' }, { name: 'round 10', json: 'bench/quickstarts-fresh-r11-results-round10-code.json' }], 'bench/quickstarts-fresh-r11-ratings-both.tsv'),
  // Round 12, mid-round: round 11's 31 packages not rated "teaches", run again on round 12's code (chosen programs,
  // rated blind by package): the same packages as r11, so a held-out r11 also leaves these out of training.
  r12mid: await loadBench('r12mid', 'bench/quickstart-labels-r12mid-run.json', 'bench/quickstart-labels-r12mid-ratings.tsv'),
  // Round 12's fresh packages (spent in round 13), in r10's form: the round-12 and the round-11 code's picks.
  r12: await loadBenchPair('r12', [{ name: 'round 12', json: 'bench/quickstarts-fresh-r12-results.json' }, { name: 'round 11', json: 'bench/quickstarts-fresh-r12-results-round11-code.json' }], 'bench/quickstarts-fresh-r12-ratings-both.tsv'),
  // Round 13, mid-round: round 12's 24 packages not rated "teaches", run again on round 13's code (the 14 reached;
  // chosen programs that ran, rated blind by package): the same packages as r12, so a held-out r12 leaves them out.
  r13mid: await loadBench('r13mid', 'bench/quickstart-labels-r13mid-run.json', 'bench/quickstart-labels-r13mid-ratings.tsv'),
  // Round 13's fresh packages (spent in round 14), in r10's form: the round-13 and the round-12 code's picks.
  r13: await loadBenchPair('r13', [{ name: 'round 13', json: 'bench/quickstarts-fresh-r13-results.json' }, { name: 'round 12', json: 'bench/quickstarts-fresh-r13-results-round12-code.json' }], 'bench/quickstarts-fresh-r13-ratings-both.tsv'),
  // Round 15's sheet of alternatives (bench/quickstart-alternatives.ts, 3 per package, 5 tries) of the round-13 and
  // round-14 fresh packages not rated "teaches", every one rated blind: split by the fresh set its package came from,
  // so that forward-chaining judges each with its round (the picks a fresh set alone cannot question).
  alts5r13: await loadAlts('alts5r13', 'bench/quickstarts-fresh-r13-results.json'),
  alts5r14: await loadAlts('alts5r14', 'bench/quickstarts-fresh-r14-results.json'),
  // Its second part, run by the lead after the round's fresh runs (the round-15 code, `0a26dc1`, quiet machine) over
  // the 34 packages the first run did not reach before its deadline, rated blind by another helper.
  alts5br13: await loadAlts('alts5br13', 'bench/quickstarts-fresh-r13-results.json', 'alts5b'),
  alts5br14: await loadAlts('alts5br14', 'bench/quickstarts-fresh-r14-results.json', 'alts5b'),
  // Round 16's sheet of alternatives (the lead's run of bench/quickstart-alternatives.ts --per 3 --tries 5 over round
  // 15's fresh packages not rated "teaches", every alternative rated blind): judged with round 15.
  alts6r15: await loadAlts('alts6r15', 'bench/quickstarts-fresh-r15-results.json', 'alts6'),
  // Round 14's fresh packages (spent in round 15), in r10's form: the round-14 (`new`) and the round-13 (`base`) code's picks.
  r14: await loadBenchPair('r14', [{ name: 'new', json: 'bench/quickstarts-fresh-r14-results.json' }, { name: 'base', json: 'bench/quickstarts-fresh-r14-results-round13-code.json' }], 'bench/quickstarts-fresh-r14-ratings-both.tsv'),
  // Round 15's fresh packages (spent in round 16), the same form: the round-15 (`new`) and the round-14 (`base`) code's picks.
  r15: await loadBenchPair('r15', [{ name: 'new', json: 'bench/quickstarts-fresh-r15-results.json' }, { name: 'base', json: 'bench/quickstarts-fresh-r15-results-round14-code.json' }], 'bench/quickstarts-fresh-r15-ratings-both.tsv'),
  // Round 16's fresh packages (spent in round 17), the same form: the round-16 (`new`) and the round-15 (`base`) code's picks.
  r16: await loadBenchPair('r16', [{ name: 'new', json: 'bench/quickstarts-fresh-r16-results.json' }, { name: 'base', json: 'bench/quickstarts-fresh-r16-results-round15-code.json' }], 'bench/quickstarts-fresh-r16-ratings-both.tsv'),
  // Round 17's fresh packages (spent in round 18), the same form: the round-17 (`new`) and the round-16 (`base`) code's picks.
  r17: await loadBenchPair('r17', [{ name: 'new', json: 'bench/quickstarts-fresh-r17-results.json' }, { name: 'base', json: 'bench/quickstarts-fresh-r17-results-round16-code.json' }], 'bench/quickstarts-fresh-r17-ratings-both.tsv'),
  // Round 18's fresh packages (spent in round 19), the same form: the round-18 (`new`) and the round-17 (`base`) code's picks.
  r18: await loadBenchPair('r18', [{ name: 'new', json: 'bench/quickstarts-fresh-r18-results.json' }, { name: 'base', json: 'bench/quickstarts-fresh-r18-results-round17-code.json' }], 'bench/quickstarts-fresh-r18-ratings-both.tsv'),
  // Round 19's fresh packages (spent in round 20), the same form: the round-19 (`new`) and the round-18 (`base`) code's picks.
  r19: await loadBenchPair('r19', [{ name: 'new', json: 'bench/quickstarts-fresh-r19-results.json' }, { name: 'base', json: 'bench/quickstarts-fresh-r19-results-round18-code.json' }], 'bench/quickstarts-fresh-r19-ratings-both.tsv'),
};
/** --skip-sets a,b: leave these labelled sets out entirely (to see what adding a set changes on the others). */
for (const skip of option('skip-sets')?.split(',') ?? []) if (skip in sets) (sets as Record<string, Example[]>)[skip] = [];
const isAlts = (e: Example) => e.set.startsWith('alts');
/**
 * Packages (with 2+ rated alternatives) where one that selection could pick teaches: the most any pick could reach.
 * The same group pickRate picks from (a written program only where no real example ran): until round 14 this counted
 * only real examples, so a package whose programs were all written could be picked right and not be counted (alts2:
 * "model 21/32, any 19").
 */
function oracle(examples: Example[]): number {
  const bySlug = new Map<string, Example[]>();
  for (const e of examples) bySlug.set(e.slug, [...(bySlug.get(e.slug) ?? []), e]);
  return [...bySlug.values()].filter((g) => g.length >= 2 && (g.some((e) => !e.written) ? g.filter((e) => !e.written) : g).some((e) => e.y)).length;
}
const pct = (a: number, b: number) => (b ? `${a}/${b} (${Math.round((100 * a) / b)} %)` : 'n/a');
for (const [name, examples] of Object.entries(sets)) console.log(`${name}: ${examples.length} rated, ${examples.filter((e) => e.y).length} teach`);
const names = Object.keys(sets).filter((k) => sets[k as keyof typeof sets].length);

/** The round each labelled set was rated in: forward-chaining fits only on what was written before round k. */
const ROUND: Record<keyof typeof sets, number> = { r5: 5, alts: 6, r7: 7, r8: 8, r9: 9, alts2: 10, alts3: 10, r10: 10, alts4: 11, r11: 11, r12mid: 12, r12: 12, r13mid: 13, r13: 13, alts5r13: 13, alts5r14: 14, alts5br13: 13, alts5br14: 14, r14: 14, r15: 15, alts6r15: 15, r16: 16, r17: 17, r18: 18, r19: 19 };
/**
 * The rounds judged forward: the newest ten, whose fresh sets (r10–r19) stand in for the next fresh run. --forward-to 18
 * stops at an earlier round (to compare with a fit that did not have the newest set).
 */
const FORWARD = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19].filter((k) => k <= Number(option('forward-to') ?? 19));

/**
 * Per package, does the pick teach, over every package of a set (one rated program included): `any` counts the
 * packages where some program selection could pick teaches, `teaches` those where the pick does. As pickRate selects.
 */
export function pickWhereAny(examples: Example[], score: ((e: Example) => number) | 'today'): { teaches: number; any: number; packages: number } {
  const bySlug = new Map<string, Example[]>();
  for (const e of examples) bySlug.set(e.slug, [...(bySlug.get(e.slug) ?? []), e]);
  const tally = { teaches: 0, any: 0, packages: 0 };
  for (const all of bySlug.values()) {
    const group = [...(all.some((e) => !e.written) ? all.filter((e) => !e.written) : all)].sort((a, b) => a.rank - b.rank);
    let best = score === 'today' ? group.find((e) => !e.x.echoesInput) ?? group[0]! : group[0]!;
    if (score !== 'today') for (const e of group) if (score(e) > score(best) + 1e-9) best = e;
    tally.packages++;
    tally.any += Number(group.some((e) => e.y));
    tally.teaches += best.y;
  }
  return tally;
}

/**
 * Forward-chaining, the way the next fresh run judges a change: for each round k, a model fitted only on the sets
 * rated before round k judges each set rated in round k (package-disjoint: the judged set's packages leave training;
 * a mid-round set re-runs the previous fresh set's packages). AUC of "teaches" (model vs hand score), and how many
 * packages get a teaching pick where one of their rated programs teaches (model vs today's hand-ranked first that ran).
 */
/**
 * --lambdas 10,100,300: the regularisation chosen forward too (nested): for round k, each λ is judged by forward-chaining
 * over the rounds before k alone (each round k' < k from the sets before k'), and the λ whose models pick a teaching
 * program most often there (mean AUC breaking ties) fits round k's model. Without it, every round uses --lambda.
 */
const LAMBDAS = option('lambdas')?.split(',').map(Number);
function lambdaFor(k: number): number {
  if (!LAMBDAS) return LAMBDA;
  let best = { lambda: LAMBDA, picks: -1, auc: -1 };
  for (const lambda of LAMBDAS) {
    let picks = 0;
    const aucs: number[] = [];
    for (const inner of [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].filter((r) => r < k)) {
      for (const held of names.filter((n) => ROUND[n as keyof typeof sets] === inner)) {
        const test = sets[held as keyof typeof sets];
        const heldSlugs = new Set(test.map((e) => e.slug));
        const model = fit(names.filter((n) => ROUND[n as keyof typeof sets] < inner).flatMap((n) => sets[n as keyof typeof sets]).filter((e) => !heldSlugs.has(e.slug)), lambda);
        picks += pickWhereAny(test, (e) => teachProbability(e.x, model)).teaches;
        aucs.push(auc(test.map((e) => teachProbability(e.x, model)), test.map((e) => e.y)));
      }
    }
    const a = mean(aucs);
    if (picks > best.picks || (picks === best.picks && a > best.auc)) best = { lambda, picks, auc: a };
  }
  console.log(`round ${k}: λ ${best.lambda} chosen on the rounds before (picks ${best.picks}, mean AUC ${best.auc.toFixed(3)})`);
  return best.lambda;
}

function forwardChain(): void {
  const fresh: Array<{ model: number; hand: number; stale: number }> = [];
  const picks = { model: 0, today: 0, any: 0, stale: 0 };
  const judged: Array<{ p: number; y: number }> = [];
  for (const k of FORWARD) {
    const lambda = lambdaFor(k);
    for (const held of names.filter((n) => ROUND[n as keyof typeof sets] === k)) {
      const test = sets[held as keyof typeof sets];
      const heldSlugs = new Set(test.map((e) => e.slug));
      const train = names.filter((n) => ROUND[n as keyof typeof sets] < k).flatMap((n) => sets[n as keyof typeof sets]).filter((e) => !heldSlugs.has(e.slug));
      const model = fit(train, lambda);
      // Not refitting: the model of a round earlier (fitted on rounds < k − 1), i.e. the weights shipped unchanged.
      const stale = fit(train.filter((e) => ROUND[e.set as keyof typeof sets] < k - 1), lambda);
      const y = test.map((e) => e.y);
      const m = auc(test.map((e) => teachProbability(e.x, model)), y);
      const h = auc(test.map((e) => e.hand), y);
      const st = auc(test.map((e) => teachProbability(e.x, stale)), y);
      const mp = pickWhereAny(test, (e) => teachProbability(e.x, model));
      const sp = pickWhereAny(test, (e) => teachProbability(e.x, stale));
      const tp = pickWhereAny(test, 'today');
      if (held === `r${k}`) fresh.push({ model: m, hand: h, stale: st });
      test.forEach((e) => judged.push({ p: teachProbability(e.x, model), y: e.y }));
      picks.stale += sp.teaches;
      picks.model += mp.teaches;
      picks.today += tp.teaches;
      picks.any += mp.any;
      // The doubt note (teach-model.ts TEACH_DOUBT) as this set would have seen it: on how many of its programs that
      // do not teach it speaks, and on how many that teach it speaks wrongly.
      const doubted = test.filter((e) => teachProbability(e.x, model) < TEACH_DOUBT);
      console.log(`forward r${k} ${held} (fit on ${train.length} from rounds < ${k}; ${test.length} rated, ${mp.packages} packages): AUC model ${m.toFixed(3)} vs hand ${h.toFixed(3)} vs not refit ${st.toFixed(3)}; pick teaches where one teaches: model ${mp.teaches}/${mp.any} vs today's ${tp.teaches}/${tp.any} vs not refit ${sp.teaches}/${sp.any}; doubt note on ${doubted.filter((e) => !e.y).length}/${test.filter((e) => !e.y).length} not teaching, ${doubted.filter((e) => e.y).length}/${test.filter((e) => e.y).length} teaching`);
    }
  }
  // The doubt note's threshold (teach-model.ts TEACH_DOUBT): of the programs judged forward below p, how many teach.
  console.log(`forward-chaining, programs below p (teach / all): ${[0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5].map((t) => `${t}: ${judged.filter((j) => j.p < t && j.y).length}/${judged.filter((j) => j.p < t).length}`).join(', ')} of ${judged.length} (${judged.filter((j) => j.y).length} teach)`);
  console.log(`forward-chaining, fresh sets r${FORWARD[0]}–r${FORWARD[FORWARD.length - 1]}: mean AUC model ${mean(fresh.map((f) => f.model)).toFixed(3)} vs hand ${mean(fresh.map((f) => f.hand)).toFixed(3)} vs not refit ${mean(fresh.map((f) => f.stale)).toFixed(3)}; picks over every judged set: model ${picks.model}/${picks.any} vs today's ${picks.today}/${picks.any} vs not refit ${picks.stale}/${picks.any}`);
}
forwardChain();
// With --lambdas: the λ the same rule chooses for the next round, from every round rated so far (what to ship).
if (LAMBDAS) lambdaFor(FORWARD[FORWARD.length - 1]! + 1);
/** --forward-only: the forward-chaining figures alone (no other rotation, no final fit). */
if (args.includes('--forward-only')) process.exit(0);
/** --no-rotations: forward-chaining, then the final fit (and --write) without the leave-one-out rotations (minutes). */
const ROTATIONS = !args.includes('--no-rotations');
for (const held of ROTATIONS ? names : []) {
  // Package-disjoint: the held-out set's packages leave every training set (a fresh set's chosen program is often one
  // of the same package's rated alternatives).
  const test = sets[held as keyof typeof sets];
  const heldSlugs = new Set(test.map((e) => e.slug));
  const train = names.filter((n) => n !== held).flatMap((n) => sets[n as keyof typeof sets]).filter((e) => !heldSlugs.has(e.slug));
  if (!train.length) continue;
  const model = fit(train, LAMBDA);
  const p = test.map((e) => teachProbability(e.x, model));
  const y = test.map((e) => e.y);
  const modelPick = pickRate(test, (e) => teachProbability(e.x, model));
  const handPick = pickRate(test, 'today');
  console.log(`held out ${held} (fit on ${train.length}): AUC model ${auc(p, y).toFixed(3)} vs hand score ${auc(test.map((e) => e.hand), y).toFixed(3)}; accuracy at 0.5 ${pct(p.filter((pi, i) => (pi >= 0.5 ? 1 : 0) === y[i]).length, y.length)}`
    + `; pick teaches: model ${pct(modelPick.teaches, modelPick.of)} vs today's (hand-ranked first that ran) ${pct(handPick.teaches, handPick.of)}`
    + (LEAD_KNOWN ? `; alone (AUC where known): ${ALONE.map((f) => `${f} ${aucKnown(test.map((e) => e.x[f]), y).toFixed(3)}`).join(', ')}` : ''));
}
// Leave one ecosystem out over every rated set (a second rotation: a model that only learnt one ecosystem's habits fails it).
if (ROTATIONS) {
  const pooled = names.flatMap((n) => sets[n as keyof typeof sets]);
  const eco = (e: Example) => e.slug.split('-')[0]!;
  const modelAucs: number[] = [];
  const handAucs: number[] = [];
  let modelPicks = { teaches: 0, of: 0 };
  let handPicks = { teaches: 0, of: 0 };
  for (const held of [...new Set(pooled.map(eco))]) {
    const model = fit(pooled.filter((e) => eco(e) !== held), LAMBDA);
    const test = pooled.filter((e) => eco(e) === held);
    // AUC within each held-out ecosystem, then averaged: pooling four models' probabilities would mix calibrations.
    const ys = test.map((e) => e.y);
    modelAucs.push(auc(test.map((e) => teachProbability(e.x, model)), ys));
    handAucs.push(auc(test.map((e) => e.hand), ys));
    const m = pickRate(test.filter(isAlts), (e) => teachProbability(e.x, model));
    const h = pickRate(test.filter(isAlts), 'today');
    modelPicks = { teaches: modelPicks.teaches + m.teaches, of: modelPicks.of + m.of };
    handPicks = { teaches: handPicks.teaches + h.teaches, of: handPicks.of + h.of };
  }
  console.log(`leave one ecosystem out (${pooled.length} rated): mean AUC model ${mean(modelAucs).toFixed(3)} vs hand score ${mean(handAucs).toFixed(3)}; pick teaches (alternatives): model ${pct(modelPicks.teaches, modelPicks.of)} vs today's ${pct(handPicks.teaches, handPicks.of)}`);
}
// Leave one package out, for the picks: every rated example of other packages (both sets) trains the model that picks
// among this package's alternatives.
if (ROTATIONS) {
  const pooled = names.flatMap((n) => sets[n as keyof typeof sets]);
  const alts = pooled.filter(isAlts);
  let model = { teaches: 0, of: 0 };
  let today = { teaches: 0, of: 0 };
  // How many programs that ran selection should choose among (TEACH_SELECTION.alternatives): the model's pick among
  // each package's first k by rank, k = 1 being the hand-ranked first. Each run costs time before the first answer.
  const firstK = [1, 2, 3, 4].map((k) => ({ k, teaches: 0, of: 0 }));
  // Per alternatives' set as well: the round-10 set was chosen where selection matters (trivial or wrong picks).
  const bySet = new Map<string, { model: number; today: number; of: number }>();
  for (const slug of new Set(alts.map((e) => e.slug))) {
    const fitted = fit(pooled.filter((e) => e.slug !== slug), LAMBDA);
    const test = alts.filter((e) => e.slug === slug);
    const m = pickRate(test, (e) => teachProbability(e.x, fitted));
    const t = pickRate(test, 'today');
    if (test.length >= 2) {
      for (const tally of firstK) {
        // As selection runs: a written program is never an alternative to a real example that ran.
        const pool = test.some((e) => !e.written) ? test.filter((e) => !e.written) : test;
        const first = [...pool].sort((a, b) => a.rank - b.rank).slice(0, tally.k);
        const best = first.reduce((b, e) => (teachProbability(e.x, fitted) > teachProbability(b.x, fitted) + 1e-9 ? e : b), first[0]!);
        tally.teaches += best.y;
        tally.of++;
      }
    }
    model = { teaches: model.teaches + m.teaches, of: model.of + m.of };
    today = { teaches: today.teaches + t.teaches, of: today.of + t.of };
    const tally = bySet.get(test[0]!.set) ?? { model: 0, today: 0, of: 0 };
    bySet.set(test[0]!.set, { model: tally.model + m.teaches, today: tally.today + t.teaches, of: tally.of + m.of });
  }
  if (alts.length) console.log(`leave one package out (alternatives): pick teaches: model ${pct(model.teaches, model.of)} vs today's ${pct(today.teaches, today.of)}; any alternative teaches in ${pct(oracle(alts), model.of)}; `
    + [...bySet].map(([set, t]) => `${set}: model ${t.model}/${t.of}, today's ${t.today}/${t.of}, any ${oracle(alts.filter((e) => e.set === set))}`).join('; '));
  if (alts.length) console.log(`leave one package out, the model's pick among the first k that ran (by rank): ${firstK.map((t) => `k=${t.k} ${t.teaches}/${t.of}`).join(', ')}`);
}
// --hand-plus feature: the other way to use a signal, in the hand score (score + k·feature, unknown = 0), per set: AUC
// of "teaches" and, on the alternatives' sets, how often the pick teaches (today's order for k = 0). Nothing is fitted,
// so no set is held out: k is chosen on the other sets by reading the table.
const HAND_PLUS = option('hand-plus') as TeachFeature | undefined;
if (HAND_PLUS) {
  for (const k of [0, 1, 2, 4, 6, 10]) {
    const plus = (e: Example) => e.hand + k * (Number.isFinite(e.x[HAND_PLUS]) ? e.x[HAND_PLUS] : 0);
    const parts = names.map((n) => {
      const test = sets[n as keyof typeof sets];
      const pick = k === 0 ? pickRate(test, 'today') : pickRate(test, plus);
      return `${n} AUC ${auc(test.map(plus), test.map((e) => e.y)).toFixed(3)}${pick.of ? ` picks ${pick.teaches}/${pick.of}` : ''}`;
    });
    console.log(`hand score + ${k}·${HAND_PLUS}: ${parts.join('; ')}`);
  }
}
const all = names.flatMap((n) => sets[n as keyof typeof sets]);
const final = { ...fit(all, LAMBDA), fittedOn: `${names.map((n) => `${n} ${sets[n as keyof typeof sets].length}`).join(', ')} rated programs; lambda ${LAMBDA}` };
console.log('fitted on all:', JSON.stringify(final));
if (WRITE) {
  fs.writeFileSync('src/quickstart/teach-weights.ts', `// Written by scripts/fit-quickstart-teach.ts (do not edit by hand): ${final.fittedOn}.\nimport type { TeachWeights } from './teach-model.ts';\n\nexport const TEACH_WEIGHTS: TeachWeights = ${JSON.stringify(final, null, 2)};\n`);
  console.log('wrote src/quickstart/teach-weights.ts');
}
