// Fits the docs ranking's word-side expression (src/docs/rank.ts WORD_FEATURES, each times the WEIGHTS entry of the same
// name) on every spent docs question set, judged by LEAVE-ONE-SET-OUT: each set in turn is the test set, the fit sees the
// others less every question of a package the test set asks about (no package is on both sides), and the left-out set is
// ranked with the hand-set WEIGHTS and with the fit. Reported per set and per ecosystem, hit@1 and hit@3.
//   FIT_HOMES='{"tuning":"/tmp/a","heldout":"/tmp/a","fresh":"/tmp/b","fresh-r4":"/tmp/c","fresh-r5":"/tmp/d","fresh-r6":"/tmp/e","fresh-r7":"/tmp/f"}' \
//     node --import tsx scripts/fit-docs-ranking.ts          # report only
//   FIT_WRITE=1 …                                             # also writes src/docs/rank-weights.ts when the fit ships
//   FIT_WEAK=weak.json …                                      # fits on weak pseudo-questions only (scripts/docs-weak-labels.ts), judged on every set
//   FIT_ABOVE=go [FIT_ABOVE_LIST=file] …                      # the shipped weights' ranking misses by what stands above the answer
// Every fit is shrunk toward the round-10 hand-set values (PRIOR below), not the shipped WEIGHTS (fitted on these sets).
// Sets: bench/docs-tuning.tsv, docs-heldout.tsv, docs-fresh.tsv, docs-fresh-r4.tsv … docs-fresh-r20.tsv —
// all spent (run once or tuned on), so every figure here is a tuning figure. The current round's fresh set is never read
// (its name is not here).
// FIT_HOMES names an indexed store per set (a bench/docs.ts BENCH_HOME; a set without one gets a fresh store, downloads).
// How: each question is asked as the service asks it (app.docs.search, limit 3) with `observe` (RankOptions in
// src/docs/rank.ts), which hands over the candidate pool's named feature values and a `rerank` that orders the same pool
// under other weights with the ranker's own code (fusion, guide links and near-duplicate collapse included).
// Model: pairwise logistic regression (answering passage vs. the non-answering ones the hand-set word score puts
// highest, each question weighing the same, L2 penalty), Newton's method: deterministic. Candidate models: feature
// subsets × penalties (CONFIGS below). The model for a left-out set is chosen by an inner leave-one-set-out on the
// training sets only (nested), so the left-out figure is not picked on the set it reports.
// Ships (FIT_WRITE=1) only if the nested fit beats the hand-set ranking at hit@3 on most left-out sets and in total, and
// does not lose hit@1 pooled over the left-out sets (an answer pushed from #1 to #3 is a loss to an agent that reads one).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { EXTRACTOR_VERSIONS } from '../src/docs/extraction.ts';
import { analyze } from '../src/docs/lexical.ts';
import { dedupKeyIndex, keyUnder, orderPool, SECTION_TRAIL, WEIGHTS, WORD_FEATURES, wordScore as scoreOf, type DocsWeights, type FeatureRow, type RankPool, type WordFeature } from '../src/docs/rank.ts';
import { nearestOutside, probeNeighbours, type NeighbourView } from '../src/docs/semantic.ts';
import { createLogger } from '../src/log.ts';
import { freshHome } from '../test/helpers/stores.ts';
import { benchGemFixture } from '../bench/docs-artifacts.ts';
import { answers, loadQuestions, type Question } from '../bench/docs-questions.ts';
import { solve } from '../bench/linear-solve.ts';
import { selectConfigs } from './fit-docs-select.ts';
import { poolCacheKey } from './fit-docs-cache.ts';

const ALL_SETS = [['docs-tuning.tsv', 'tuning'], ['docs-heldout.tsv', 'heldout'], ['docs-fresh.tsv', 'fresh'], ['docs-fresh-r4.tsv', 'fresh-r4'], ['docs-fresh-r5.tsv', 'fresh-r5'], ['docs-fresh-r6.tsv', 'fresh-r6'], ['docs-fresh-r7.tsv', 'fresh-r7'], ['docs-fresh-r8.tsv', 'fresh-r8'], ['docs-fresh-r9.tsv', 'fresh-r9'], ['docs-fresh-r10.tsv', 'fresh-r10'], ['docs-fresh-r11.tsv', 'fresh-r11'], ['docs-fresh-r12.tsv', 'fresh-r12'], ['docs-fresh-r13.tsv', 'fresh-r13'], ['docs-fresh-r14.tsv', 'fresh-r14'], ['docs-fresh-r15.tsv', 'fresh-r15'], ['docs-fresh-r16.tsv', 'fresh-r16'], ['docs-fresh-r17.tsv', 'fresh-r17'], ['docs-fresh-r18.tsv', 'fresh-r18'], ['docs-fresh-r19.tsv', 'fresh-r19'], ['docs-fresh-r20.tsv', 'fresh-r20']] as const;
type SetName = typeof ALL_SETS[number][1];
// FIT_SETS=tuning,heldout,…: only these sets (a partial run, e.g. the sets whose pools are cached).
/**
 * The ranker's weights as the fitter handles them, with two settings that are no longer weights of the ranker (round 13):
 * `sectionTrail` (the answer-diversity setting SECTION_TRAIL of src/docs/rank.ts, 1/0; absent = the shipped setting),
 * and `bare`, the word-side bare-declaration term pruned in round 12 and deleted from the ranker in round 13, kept here
 * only for the round-10 hand-set prior (bare 0.3): its negatives and its fixed row read it off each stored pool's `bare`
 * column. A fit that ships holds `bare` at 0, so its stored rerank is the ranker's.
 */
type FitWeights = DocsWeights & { sectionTrail?: number; bare?: number; depth?: number; ownerNamed?: number; siblingMeaning?: number;
  /** Round 16's candidate: 1 = an API item's passages each count on their own (no one-passage-per-item slot; near-duplicates still collapse). */
  itemPerPassage?: number;
  /**
   * Round 17's candidate: 1 = two API items collapse as near-duplicates only when they have the same last name (one item
   * in two files or platforms); items of different names with near-identical docs (`OrderedMap.Oldest` / `Newest`) both
   * stay. Sections and module pages collapse as before.
   */
  nearSameName?: number;
  /**
   * Round 18's candidate: passages beyond the word candidates compared by meaning, the `neighbours` nearest the question
   * by cosine among the version's embedded passages (src/docs/semantic.ts nearestOutside; absent = 0, as shipped: not kept).
   * Read off each stored pool's `nnRank` / `nnSim` columns (pools asked since round 18).
   */
  neighbours?: number;
  /** With `neighbours`: only a neighbour at least this similar to the question (the similarity-threshold variant). */
  neighbourMin?: number;
  /** With `neighbours`: 1 = the nearest among the word candidates only (the pool), not among every embedded passage. */
  neighbourPool?: number;
  /**
   * Round 19's candidate: word candidates deeper than the RERANK_DEPTH compared, down to word rank `deep`, embedded before
   * ranking and compared by meaning too (read off each stored pool's `wordRank` / `deepSim` columns, pools asked since
   * round 19; absent = 0, as shipped). `deepTop`: only the N most similar of them; `deepMin`: only those at least this
   * similar; `deepProse`: 1 = only passages that are not bare declarations; `deepAbove`: only those more similar than
   * the compared candidate of this meaning rank (1 = the most similar compared one).
   */
  deep?: number; deepTop?: number; deepMin?: number; deepProse?: number; deepAbove?: number;
  /** Weights per ecosystem (round 15's candidates): a question of an ecosystem listed here is ranked under its own. */
  byEcosystem?: Record<string, FitWeights> };
/**
 * A feature the fitter can weigh: the ranker's word features, and `depth`, a candidate feature derived from the stored
 * pools alone (not in the ranker): how deep an item's symbol is, segments past the package root over 4, capped at 1
 * (`tokio::time::timeout` 0.5, a section 0). Round 13's item-against-item candidate, judged here before the ranker gets it.
 */
type FitFeature = WordFeature | DerivedFeature;
/**
 * Candidate features derived from a stored pool alone: `depth` (above) and `ownerNamed` (round 17, ownerNamedShare
 * below: the share of a member's owner's name words the question says; a member is an item whose owner's symbol is
 * another candidate's key, as printAboveClasses reads it).
 */
type DerivedFeature = 'depth' | 'ownerNamed' | 'siblingMeaning';
/**
 * Round 20 (d3) candidate for the class "the answer in the word top 10 but below #3" (D1: often top 3 by meaning):
 * `siblingMeaning`, 1 for an API item that the meaning order puts above every other compared item of the same owner
 * (`Cache.SaveTo` over `Cache.WriteTo`) — among siblings the question's words say the owner alike, so meaning decides.
 * From the stored pool alone; not shipped (docs/docs-search.md, "Round 20 (issue 20, d3)"). Its sibling `agree` (both
 * orders' top ranks) was judged here as a derived feature too and shipped: it is the ranker's WEIGHTS.agree now, which
 * orderPool applies, so the fitter searches it as a weight.
 */
const DERIVED: readonly DerivedFeature[] = ['depth', 'ownerNamed', 'siblingMeaning'];
const SETS = process.env.FIT_SETS ? ALL_SETS.filter(([, set]) => process.env.FIT_SETS!.split(',').includes(set)) : ALL_SETS;
/** Negatives per question: the non-answering passages the hand-set word score puts highest (the near relatives). */
const NEGATIVES = 20;
const OUT = path.join(import.meta.dirname, '../src/docs/rank-weights.ts');
const homes = JSON.parse(process.env.FIT_HOMES ?? '{}') as Record<string, string>;
const ecosystems = process.env.FIT_ECOSYSTEMS?.split(',').map((e) => e.trim());
const limit = process.env.FIT_LIMIT ? Number(process.env.FIT_LIMIT) : Infinity;

/**
 * Candidate models. `features` are fitted; the rest keep their hand-set weight (a feature left out is not dropped, it
 * stays as the hand-set ranking weighs it, so a small model is a small correction of the hand-set one).
 */
const SMALL: WordFeature[] = ['bm25', 'bodyCoverage', 'name', 'exact', 'importance'];
// Round 10 removed the word-side `deprecated` from the evidence features, `titleCoverage`, and round 9's `prose` and
// `explains` (docs/docs-search.md, "Round 10: ranking": none paid on held-out sets).
// Round 13 deleted the word-side `bare` (pruned in round 12) from the ranker: the evidence features are these two.
const EVIDENCE: WordFeature[] = ['example', 'section'];
/**
 * Features of the passage alone, not of its match with the question: what weak labels can teach without leaking (a
 * pseudo-question's words are its answer's own heading or sentence, so the word-match features see their source).
 */
const PASSAGE_ONLY: WordFeature[] = ['importance', 'internal', 'centrality', 'example', 'section'];
/**
 * Round 11's declared features (src/docs/rank.ts WEIGHTS) that are left: the owner's centrality, text beyond the name,
 * guide calls. Round 11's `member`, `field` and `moduleDoc`, and the word-side `bare`, were pruned in round 12 and
 * deleted from the ranker in round 13, so round 11's recipe and round 12's pruned one are now the same features.
 */
const STRUCTURE: WordFeature[] = ['ownerCentrality'];
const ROUND11: WordFeature[] = [...STRUCTURE, 'textCoverage', 'guideCalled'];
const ROUND12: WordFeature[] = ['example', 'section', 'textCoverage', 'ownerCentrality', 'guideCalled'];
const PRUNED: Partial<FitWeights> = { bare: 0 };
const FEATURE_SETS: Record<string, WordFeature[]> = {
  passage: PASSAGE_ONLY,
  structure: STRUCTURE,
  'evidence+structure': [...EVIDENCE, ...STRUCTURE],
  'evidence+text': [...EVIDENCE, 'textCoverage'],
  'evidence+guide': [...EVIDENCE, 'guideCalled'],
  'evidence+round11': [...EVIDENCE, ...ROUND11],
  round11: ROUND11,
  all: [...WORD_FEATURES],
  'all-evidence': WORD_FEATURES.filter((f) => !EVIDENCE.includes(f)),
  small: SMALL,
  'small+evidence': [...SMALL, ...EVIDENCE],
  evidence: EVIDENCE,
};
/**
 * What a fit starts from and is shrunk toward: the round-10 hand-set values of the features round 11 fitted (bare 0.3,
 * the rest 0), not the shipped WEIGHTS — those were fitted on the spent sets, so shrinking toward them would leak every
 * left-out set into its own fold. FIT_PRIOR=shipped shrinks toward WEIGHTS instead (round 11's behaviour).
 */
const ROUND10: Partial<FitWeights> = { bare: 0.3, example: 0, section: 0, textCoverage: 0, ownerCentrality: 0, guideCalled: 0, sectionTrail: 0 };
const PRIOR: FitWeights = process.env.FIT_PRIOR === 'shipped' ? WEIGHTS : { ...WEIGHTS, ...ROUND10 };
const LAMBDAS = (process.env.FIT_LAMBDAS ?? '0.1,1,10').split(',').map(Number);
/**
 * `logistic`: the pairwise fit. `search`: hit@3 itself, by one pass of coordinate search over `features` (each tried at
 * GRID values, the others held), a move kept only when it gains at least MIN_GAIN training questions — the few-parameter
 * model that optimises what is judged, not a surrogate.
 */
interface Config { name: string; kind: 'logistic' | 'search' | 'fixed'; features: Array<FitFeature | 'rrf' | 'rrfK' | 'neighbours' | 'agree'>; lambda: number; objective?: 'hit3' | 'hit1+hit3'; zero?: WordFeature; set?: Partial<FitWeights>;
  /** A search config's values for `rrf` (default GRID's). */
  rrfGrid?: number[];
  /** A search config's values for the fusion's rank constant `rrfK` (1/(k + rank)). */
  rrfKGrid?: number[];
  /** Fit each ecosystem's training questions apart (its own weights, in `byEcosystem`), instead of one model for all. */
  perEcosystem?: boolean;
  /** With `perEcosystem`: only these ecosystems get their own model; the others keep the shipped weights. */
  only?: string[] }
/** Values coordinate search tries: the evidence weights either way; the fusion's meaning weight (rrf) around 1. */
const GRID = (key: string) => (key === 'rrf' ? [0.5, 0.6, 0.75, 0.85, 1.5] : key === 'ownerNamed' ? OWNER_GRID : key === 'agree' || key === 'siblingMeaning' ? AGREE_GRID : key === 'neighbours' ? NEIGHBOUR_GRID : [-0.3, -0.15, 0, 0.15, 0.3]);
/** Round 18's meaning neighbours (0 = off): a few up to as many again as the word candidates (RERANK_DEPTH 24). */
const NEIGHBOUR_GRID = [0, 1, 2, 4, 8, 16, 32];
/** Round 20's agree / siblingMeaning (a bonus, 0 = off). */
const AGREE_GRID = [0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 1];
/** Round 17's ownerNamed (a bonus, 0 = off): searched up to about the weight of a guide section (`section` 0.58). */
const OWNER_GRID = [0.1, 0.2, 0.3, 0.45, 0.6];
/**
 * Round 15: round 14 shipped rrf 0.5, the bottom of GRID, so the fusion is searched below it too (0 is the word order
 * with the similarity added, not "no meaning": rrf > 0 is what selects rank fusion in orderPool, so 0 is not a value).
 */
const LOW_RRF = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 1];
const MIN_GAIN = 2;
const ALL_CONFIGS: Config[] = [
  ...Object.entries(FEATURE_SETS).flatMap(([name, features]) => LAMBDAS.map((lambda) => ({ name: `${name} l=${lambda}`, kind: 'logistic' as const, features, lambda }))),
  // Nothing fitted: the hand-set weights, and the hand-set weights less one feature (a removal judged as a model choice,
  // so the nested leave-one-set-out decides it on the training sets, not on the set it reports).
  { name: 'hand-set', kind: 'fixed', features: [], lambda: 0 },
  // The round-10 hand-set weights (the prior): the baseline a held-out figure can be compared with, as nothing in it was
  // fitted on these sets; 'hand-set' above is the shipped WEIGHTS, fitted on ten of them.
  { name: 'round-10 hand-set', kind: 'fixed', features: [], lambda: 0, set: ROUND10 },
  // The BM25 feature alone over the same pools (no other word feature, no meaning): the baseline beside the figures.
  { name: 'bm25 alone', kind: 'fixed', features: [], lambda: 0, set: { ...Object.fromEntries(WORD_FEATURES.map((f) => [f, 0])), bm25: 1, rrf: 0, semantic: 0 } },
  // Round 11's shipped weights as they shipped (a section counted once per URL).
  // (its member/field/moduleDoc weights were 0 and its word-side bare 0.1; since round 13 this row is read without
  // the bare term, which the ranker no longer has.)
  { name: 'round-11 shipped', kind: 'fixed', features: [], lambda: 0, set: { sectionTrail: 0 } },
  ...WORD_FEATURES.filter((f) => WEIGHTS[f] !== 0).map((f) => ({ name: `drop ${f}`, kind: 'fixed' as const, features: [], lambda: 0, zero: f })),
  // Round 10's best weak-label row (coordinate search of rrf + evidence on pseudo-questions only: rrf 0.5, section 0.3),
  // declared then as the candidate to judge on the round-10 pools once spent: nothing fitted here.
  // Answer diversity (round 12): a section counts once per URL and heading trail, not per URL (rank.ts sectionTrail).
  { name: 'section trail', kind: 'fixed', features: [], lambda: 0, set: { sectionTrail: 1 } },
  { name: 'trail+evidence+round11 l=10', kind: 'logistic', features: [...EVIDENCE, ...ROUND11], lambda: 10, set: { sectionTrail: 1 } },
  // Round 12's pruned fit: the largest joint removal within the stated bar in the eleven-set ablation
  // (docs/docs-search.md, "Round 12: ranking"): bare, member, field and moduleDoc removed (held at 0).
  { name: 'round12 l=10', kind: 'logistic', features: ROUND12, lambda: 10, set: PRUNED },
  { name: 'trail+round12 l=10', kind: 'logistic', features: ROUND12, lambda: 10, set: { ...PRUNED, sectionTrail: 1 } },
  // Round 13's symbol-depth candidate (not shipped then: +1 hit@3 over twelve sets), re-judged forward-chaining.
  { name: 'trail+round12+depth l=10', kind: 'logistic', features: [...ROUND12, 'depth'], lambda: 10, set: { ...PRUNED, sectionTrail: 1 } },
  // FIT_DROP_SETS='a,b;c': joint removals from the round-11 fit (each listed group held at 0 and refitted without).
  ...(process.env.FIT_DROP_SETS ?? '').split(';').filter(Boolean).map((group) => {
    const drop = group.split(',') as WordFeature[];
    return { name: `without ${drop.join('+')} l=10`, kind: 'logistic' as const, features: [...EVIDENCE, ...ROUND11].filter((f) => !drop.includes(f)), lambda: 10, set: Object.fromEntries(drop.map((f) => [f, 0])) };
  }),
  { name: 'weak rrf+section', kind: 'fixed', features: ['rrf', 'section'], lambda: 0, set: { rrf: 0.5, section: 0.3 } },
  { name: 'search evidence', kind: 'search', features: EVIDENCE, lambda: 0 },
  { name: 'search round11', kind: 'search', features: ROUND11, lambda: 0 },
  { name: 'search rrf', kind: 'search', features: ['rrf'], lambda: 0 },
  { name: 'search rrf+evidence', kind: 'search', features: ['rrf', ...EVIDENCE], lambda: 0 },
  // The same searches scored by hit@1 + hit@3: the shipping rule judges both, so the fit may as well optimise both.
  { name: 'search13 rrf', kind: 'search', features: ['rrf'], lambda: 0, objective: 'hit1+hit3' },
  { name: 'search13 rrf+evidence', kind: 'search', features: ['rrf', ...EVIDENCE], lambda: 0, objective: 'hit1+hit3' },
  // Round 15's fusion candidates: one weight on the grid below 0.5, and one weight per ecosystem on it.
  { name: 'search13 low rrf', kind: 'search', features: ['rrf'], lambda: 0, objective: 'hit1+hit3', rrfGrid: LOW_RRF },
  { name: 'search13 eco rrf', kind: 'search', features: ['rrf'], lambda: 0, objective: 'hit1+hit3', rrfGrid: LOW_RRF, perEcosystem: true },
  // Round 12's recipe fitted per ecosystem (crates' item-against-item class is the largest of any ecosystem's).
  { name: 'eco trail+round12 l=10', kind: 'logistic', features: ROUND12, lambda: 10, set: { ...PRUNED, sectionTrail: 1 }, perEcosystem: true },
  // Declared after the row above showed crates +4 forward-chaining (its other ecosystems lost): crates' own fit alone.
  // The fusion's rank constant (10 since round 6, never searched): a smaller k lets a passage at the top of one order
  // count for more against one that is middling in both — the 66 crates misses whose answer tops one order alone.
  ...[2, 4, 6, 10, 15].map((k) => ({ name: `fixed rrfK ${k}`, kind: 'fixed' as const, features: [], lambda: 0, set: { rrfK: k } })),
  { name: 'search13 rrfK', kind: 'search', features: ['rrfK'], lambda: 0, objective: 'hit1+hit3', rrfKGrid: [2, 4, 6, 15, 30, 60] },
  { name: 'search13 rrfK+rrf', kind: 'search', features: ['rrfK', 'rrf'], lambda: 0, objective: 'hit1+hit3', rrfGrid: LOW_RRF, rrfKGrid: [2, 4, 6, 15, 30, 60] },
  // Round 16: 14 crates/Go misses over the spent sets have another passage of the answer's own item (a second chunk, a
  // Go Example of it) holding the item's one slot; this lets each passage of an item count alone.
  { name: 'fixed item per passage', kind: 'fixed', features: [], lambda: 0, set: { itemPerPassage: 1 } },
  // Round 17: crates' and Go's largest miss class is an item under items; the question often names the answer's owner type.
  ...[0.15, 0.3, 0.45].map((w) => ({ name: `fixed ownerNamed ${w}`, kind: 'fixed' as const, features: [], lambda: 0, set: { ownerNamed: w } })),
  { name: 'fixed near same name', kind: 'fixed', features: [], lambda: 0, set: { nearSameName: 1 } },
  { name: 'search13 ownerNamed', kind: 'search', features: ['ownerNamed'], lambda: 0, objective: 'hit1+hit3' },
  { name: 'trail+round12+ownerNamed l=10', kind: 'logistic', features: [...ROUND12, 'ownerNamed'], lambda: 10, set: { ...PRUNED, sectionTrail: 1 } },
  // Round 18: 174 answers over sixteen sets had no meaning rank (beyond the 24 word candidates compared by meaning).
  ...[1, 2, 4, 8, 16, 32].map((n) => ({ name: `fixed neighbours ${n}`, kind: 'fixed' as const, features: [], lambda: 0, set: { neighbours: n } })),
  ...[0.6, 0.7, 0.8].map((min) => ({ name: `fixed neighbours 32 min ${min}`, kind: 'fixed' as const, features: [], lambda: 0, set: { neighbours: 32, neighbourMin: min } })),
  ...[1, 2, 4, 8].map((n) => ({ name: `fixed pool neighbours ${n}`, kind: 'fixed' as const, features: [], lambda: 0, set: { neighbours: n, neighbourPool: 1 } })),
  { name: 'search13 neighbours', kind: 'search', features: ['neighbours'], lambda: 0, objective: 'hit1+hit3' },
  // Round 19: the answers outside the compared word candidates, embedded at question time (a time budget) before ranking.
  ...[32, 48, 100].map((d) => ({ name: `fixed deep ${d}`, kind: 'fixed' as const, features: [], lambda: 0, set: { deep: d } })),
  ...[1, 2, 4, 8].map((n) => ({ name: `fixed deep 100 top ${n}`, kind: 'fixed' as const, features: [], lambda: 0, set: { deep: 100, deepTop: n } })),
  ...[0.7, 0.75, 0.8].map((min) => ({ name: `fixed deep 100 min ${min}`, kind: 'fixed' as const, features: [], lambda: 0, set: { deep: 100, deepMin: min } })),
  ...[48, 100].map((d) => ({ name: `fixed deep ${d} prose`, kind: 'fixed' as const, features: [], lambda: 0, set: { deep: d, deepProse: 1 } })),
  ...[1, 3].map((a) => ({ name: `fixed deep 100 above ${a}`, kind: 'fixed' as const, features: [], lambda: 0, set: { deep: 100, deepAbove: a } })),
  ...[1, 3].map((a) => ({ name: `fixed deep 48 above ${a}`, kind: 'fixed' as const, features: [], lambda: 0, set: { deep: 48, deepAbove: a } })),
  // Round 20 (d3): the answer in the word top 10 but below #3, often top 3 by meaning (declared before any figure was read).
  // `fixed agree 0` is the ranking before round 20 (the baseline); the searches start from it (`set`).
  ...[0, 0.1, 0.2, 0.3, 0.6].map((w) => ({ name: `fixed agree ${w}`, kind: 'fixed' as const, features: [], lambda: 0, set: { agree: w } })),
  ...[0.1, 0.2, 0.3, 0.6].map((w) => ({ name: `fixed siblingMeaning ${w}`, kind: 'fixed' as const, features: [], lambda: 0, set: { siblingMeaning: w } })),
  { name: 'search13 agree', kind: 'search', features: ['agree'], lambda: 0, objective: 'hit1+hit3', set: { agree: 0 } },
  { name: 'search13 siblingMeaning', kind: 'search', features: ['siblingMeaning'], lambda: 0, objective: 'hit1+hit3', set: { agree: 0 } },
  { name: 'search13 agree+siblingMeaning', kind: 'search', features: ['agree', 'siblingMeaning'], lambda: 0, objective: 'hit1+hit3', set: { agree: 0 } },
  { name: 'crates trail+round12 l=10', kind: 'logistic', features: ROUND12, lambda: 10, set: { ...PRUNED, sectionTrail: 1 }, perEcosystem: true, only: ['crates'] },
];
// FIT_CONFIGS=name,…: only these candidates (in the plain report and in the nested choice alike). Exact names; `name*`
// for every config whose name starts so (scripts/fit-docs-select.ts).
const CONFIGS = selectConfigs(ALL_CONFIGS, process.env.FIT_CONFIGS);

/** One asked question: its candidate pool (feature rows), which candidates answer, and `order`, the top 3 under other weights. */
interface Asked { q: Pick<Question, 'tool' | 'ecosystem' | 'question'>; set: SetName; pkg: string; rows: FeatureRow[]; answering: Set<number>; order: (weights: FitWeights, limit?: number) => number[]; why: Diagnosis;
  /** Each candidate's de-duplication key (`symbol:…` or `section:<url>`): what a passage is, for the miss classes. */
  keyOf?: Map<number, string>;
  /** Stored columns that are not word features (the passage's `bare` flag; the member/field/moduleDoc columns of pools asked before round 13). */
  extra: Map<number, Record<string, number>> }

/**
 * Why a question is answered or not, as a class (FIT_DIAGNOSE=file writes one line per question): the answer is in no
 * passage (`extracted` false), in none the words retrieve (`pooled` false), and where the answer stands by words alone
 * (the hand-set word score), by meaning alone (similarity) and as answered; what the answer and the passages above it are.
 */
interface Diagnosis {
  extracted: boolean; pooled: boolean; answered: number; byWords: number; byMeaning: number; poolSize: number;
  answer?: { symbol: string | null; source: string; bare: boolean; section: boolean; example: boolean; deprecated: boolean; chars: number };
  above: Array<{ symbol: string | null; source: string; bare: boolean; section: boolean }>;
}

const keep = (q: Question) => !ecosystems || ecosystems.includes(q.ecosystem);
const packageOf = (q: Question) => q.tool.slice(0, q.tool.lastIndexOf('@'));

/**
 * A stored pool: what `orderPool` needs to rerank it without the store (each candidate's features, word match, meaning
 * similarity and de-duplication key; the near-duplicate pairs among the candidates that can reach the answer), and which
 * candidates answer. Kept on disk per set (FIT_CACHE, default the OS temp dir), keyed by the extractor versions, the
 * feature code, the judge, the question file and the store (scripts/fit-docs-cache.ts), so a refit or an ablation reads
 * the pools in seconds instead of asking every question again (about 20 minutes for seven sets under load).
 */
interface StoredPool {
  tool: string; ecosystem: string; question: string; why: Diagnosis; semantic: boolean;
  /** Per candidate: doc, matched (0/1), similarity (null without vectors), then the features in `features`' order. */
  rows: Array<Array<number | null>>;
  /** The feature names of `rows` (WORD_FEATURES when the pool was asked; absent in pools stored before round 11). */
  features?: string[];
  /** Per candidate (as rows): index into `keyNames`. */
  keys: number[]; keyNames: string[];
  answering: number[];
  /** The answering candidates under the judge before round 14 (bench/docs-questions.ts `published`; absent in older pools). */
  answeringPublished?: number[];
  /** The candidates whose near-duplicate pairs are listed (`near`); one outside them is taken for no duplicate. */
  reachable: number[]; near: Array<[number, number]>;
}
/** Candidates whose near-duplicate pairs are stored: the best by the hand-set word score and by meaning, and every answer. */
const REACH_WORDS = 100;
const REACH_MEANING = 60;
/** Dedup look-ups that fell outside the stored candidates (reported: 0 means the stored rerank is the ranker's exactly). */
let outsideReach = 0;

const cacheKey = (file: string, home: string | undefined, questions: Question[]) =>
  poolCacheKey({ root: path.join(import.meta.dirname, '..'), file, home, questions, extractors: EXTRACTOR_VERSIONS });
const cacheDir = process.env.FIT_CACHE ?? path.join(os.tmpdir(), 'tooldex-fit-docs-cache');

/** The asked questions of one set: read from the cache when its key matches, else asked and stored. */
async function pools(file: string, questions: Question[], set: SetName, home: string | undefined): Promise<Asked[]> {
  let cached = path.join(cacheDir, `${set}-${cacheKey(file, home, questions)}.json`);
  // FIT_ANY_CACHE=1: the newest stored pools of the set whatever their key (features they lack read as 0, or derived
  // below); for a fit whose feature code moved on after its pools were asked. Said on stderr, never silent.
  // Only pools of the same questions count (per-ecosystem pools of one set share its file prefix).
  if (!fs.existsSync(cached) && process.env.FIT_ANY_CACHE === '1' && fs.existsSync(cacheDir)) {
    const asked = JSON.stringify(questions.map((q) => `${q.tool}\t${q.question}`));
    const sameQuestions = (file: string) => JSON.stringify((JSON.parse(fs.readFileSync(file, 'utf8')) as StoredPool[]).map((p) => `${p.tool}\t${p.question}`)) === asked;
    const newest = fs.readdirSync(cacheDir).filter((f) => new RegExp(`^${set}-[0-9a-f]{16}\\.json$`).test(f))
      .map((f) => path.join(cacheDir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs).find(sameQuestions);
    if (newest) { console.error(`  ${set}: FIT_ANY_CACHE, pools of another key: ${newest}`); cached = newest; }
  }
  if (fs.existsSync(cached) && process.env.FIT_REFRESH !== '1') {
    const stored = JSON.parse(fs.readFileSync(cached, 'utf8')) as StoredPool[];
    console.error(`  ${set}: ${stored.length} pools from ${cached}`);
    return stored.map((p) => fromStored(p, set));
  }
  const stored = await ask(questions, home);
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(cached, JSON.stringify(stored));
  return stored.map((p) => fromStored(p, set));
}

/** Reranks a stored pool with the ranker's own ordering (src/docs/rank.ts orderPool): the top 3 docs under `weights`. */
function fromStored(p: StoredPool, set: SetName): Asked {
  // Read by name: a feature the pool lacks is 0 (a pool stored before the feature was declared); a stored column that
  // is no word feature (any longer) is kept aside in `extra`.
  const names = p.features ?? LEGACY_FEATURES;
  const others = names.filter((f) => !(WORD_FEATURES as readonly string[]).includes(f));
  const rows: FeatureRow[] = p.rows.map(([doc, matched, similarity, ...values]) => ({
    doc: doc!, matched: matched === 1, ...(similarity !== null && similarity !== undefined ? { similarity } : {}),
    features: Object.fromEntries(WORD_FEATURES.map((f) => [f, names.includes(f) ? values[names.indexOf(f)] ?? 0 : 0])) as Record<WordFeature, number>,
  }));
  const keyOf = new Map(rows.map((r, i) => [r.doc, p.keyNames[p.keys[i]!]!]));
  const extra = new Map(p.rows.map(([doc, , , ...values], i) => {
    const stored = Object.fromEntries(others.map((f) => [f, values[names.indexOf(f)] ?? 0]));
    // A module page's passage is the one whose dedup key carries its heading trail (rank.ts dedupKey): the same test.
    stored.moduleDoc ??= Number(p.keyNames[p.keys[i]!]!.includes('\u0000'));
    return [doc!, stored];
  }));
  const bareOf = (doc: number) => extra.get(doc)?.bare ?? 0;
  const asked = new Set(analyze(p.question));
  const itemKeys = new Set(keyOf.values());
  for (const [doc, stored] of extra) {
    const key = keyOf.get(doc)!;
    stored.depth = depthOf(key);
    const symbol = key.startsWith('symbol:') && !key.includes('\u0000') ? key.slice('symbol:'.length) : '';
    const cut = Math.max(symbol.lastIndexOf('::'), symbol.lastIndexOf('.'));
    stored.ownerNamed = cut > 0 && itemKeys.has(`symbol:${symbol.slice(0, cut)}`) ? ownerNamedShare(symbol, asked) : 0;
  }
  // Round 20's `siblingMeaning` (DERIVED above): meaning ranks by the stored similarity (what the fusion ranks).
  const meaningOrder = rows.filter((r) => r.similarity).sort((a, b) => b.similarity! - a.similarity! || a.doc - b.doc);
  const ownerOf = (doc: number) => {
    const key = keyOf.get(doc)!;
    if (!key.startsWith('symbol:') || key.includes('\u0000')) return undefined;
    const symbol = key.slice('symbol:'.length);
    const cut = Math.max(symbol.lastIndexOf('::'), symbol.lastIndexOf('.'));
    return cut > 0 ? symbol.slice(0, cut) : undefined;
  };
  const bestOfOwner = new Map<string, { doc: number; siblings: number }>();
  for (const r of meaningOrder) {
    const owner = ownerOf(r.doc);
    if (owner === undefined) continue;
    const best = bestOfOwner.get(owner);
    if (!best) bestOfOwner.set(owner, { doc: r.doc, siblings: 0 });
    else if (keyOf.get(r.doc) !== keyOf.get(best.doc)) best.siblings++;
  }
  for (const [doc, stored] of extra) {
    const owner = ownerOf(doc);
    const best = owner === undefined ? undefined : bestOfOwner.get(owner);
    stored.siblingMeaning = Number(best !== undefined && best.siblings > 0 && best.doc === doc);
  }
  const simOf = new Map(rows.map((r) => [r.doc, r.similarity ?? 0]));
  // The neighbours' rank among the pool's own candidates (the `neighbourPool` variant).
  const poolRank = new Map([...extra].filter(([, x]) => x.nnRank).sort(([a, x], [b, y]) => y.nnSim! - x.nnSim! || a - b).map(([doc], i) => [doc, i + 1]));
  // Round 19's deep candidates under `weights`: the uncompared word candidates it compares by meaning.
  const comparedSims = [...simOf.values()].filter((v) => v !== 0).sort((a, b) => b - a);
  const deepChoice = (weights: FitWeights) => {
    const deep = [...extra].filter(([doc, x]) => x.wordRank && x.wordRank <= weights.deep! && x.deepSim && !simOf.get(doc)
      && (!weights.deepProse || !x.bare) && x.deepSim >= (weights.deepMin ?? -1)
      && (!weights.deepAbove || x.deepSim > (comparedSims[weights.deepAbove - 1] ?? -1)))
      .sort(([a, x], [b, y]) => y.deepSim! - x.deepSim! || a - b);
    return new Set(deep.slice(0, weights.deepTop ?? Infinity).map(([doc]) => doc));
  };
  const reachable = new Set(p.reachable);
  const near = new Set(p.near.map(([a, b]) => `${Math.min(a, b)} ${Math.max(a, b)}`));
  const isNear = (a: number, b: number) => {
    if (!reachable.has(a) || !reachable.has(b)) { outsideReach++; return false; }
    return near.has(`${Math.min(a, b)} ${Math.max(a, b)}`);
  };
  const order = (fitted: FitWeights, limit = 3) => {
    const weights = fitted.byEcosystem?.[p.ecosystem] ?? fitted;
    if (weights.guideUse !== 0 || weights.deprecatedMeaning !== WEIGHTS.deprecatedMeaning || weights.bareMeaning !== WEIGHTS.bareMeaning || weights.duplicate !== WEIGHTS.duplicate) {
      throw new Error('a stored pool reranks under the word weights and the fusion only');
    }
    const scores = rows.map((r) => ({ doc: r.doc, score: scoreOf(weights, r.features) + (weights.bare ?? 0) * bareOf(r.doc) + derivedScore(weights, extra.get(r.doc)), matched: r.matched }));
    const keyed = (doc: number) => { const k = keyUnder(trailOf(weights), keyOf.get(doc)!); return weights.itemPerPassage && k.startsWith('symbol:') ? `${k}\u0002${doc}` : k; };
    const near = weights.nearSameName ? (a: number, b: number) => sameItemName(keyOf.get(a)!, keyOf.get(b)!) && isNear(a, b) : isNear;
    const neighbours = weights.neighbours ?? 0;
    const deepChosen = weights.deep ? deepChoice(weights) : undefined;
    const similarity = (doc: number) => {
      const compared = simOf.get(doc) ?? 0;
      if (compared === 0 && deepChosen?.has(doc)) return extra.get(doc)!.deepSim!;
      if (compared !== 0 || !neighbours) return compared;
      const nn = extra.get(doc);
      const rank = weights.neighbourPool ? poolRank.get(doc) : nn?.nnRank;
      return nn && rank && rank <= neighbours && (nn.nnSim ?? 0) >= (weights.neighbourMin ?? -1) ? nn.nnSim ?? 0 : 0;
    };
    return orderPool(weights, scores, p.semantic ? similarity : undefined, keyed, near, limit).map((r) => r.doc);
  };
  // FIT_JUDGE=published: the answers as the judge before round 14 counted them (pools that stored them).
  const answering = process.env.FIT_JUDGE === 'published' && p.answeringPublished ? p.answeringPublished : p.answering;
  return { q: { tool: p.tool, ecosystem: p.ecosystem, question: p.question }, set, pkg: packageOf(p as unknown as Question), rows, answering: new Set(answering), order, why: p.why, keyOf, extra };
}

/**
 * Round 17's candidate `ownerNamed`: the share of a member's owner's name words that the question says (`Lock` of
 * `redislock.Lock.Refresh` for "refresh a lock"; `Session` of `requests.Session.mount`). The largest class of crates'
 * and Go's ranking misses is an item under other items (round 16: 81 and 77 over fifteen spent sets), and a question
 * often names the type whose method it wants. `asked` is the question's terms (lexical `analyze`); the owner's words are
 * its last segment's parts, stemmed the same way. Not shipped (docs/docs-search.md, "Round 17").
 */
function ownerNamedShare(symbol: string, asked: ReadonlySet<string>): number {
  const cut = Math.max(symbol.lastIndexOf('::'), symbol.lastIndexOf('.'));
  if (cut <= 0) return 0;
  const owner = symbol.slice(0, cut);
  const words = [...new Set(analyze(owner.slice(Math.max(owner.lastIndexOf('::') + 2, owner.lastIndexOf('.') + 1, owner.lastIndexOf('/') + 1)), false))];
  return words.length ? words.filter((w) => asked.has(w)).length / words.length : 0;
}

/** Whether two de-duplication keys may be one item: not both plain API items, or both of the same last name. */
function sameItemName(a: string, b: string): boolean {
  const item = (key: string) => (key.startsWith('symbol:') && !key.includes('\u0000') ? key.slice('symbol:'.length) : null);
  const [x, y] = [item(a), item(b)];
  if (x === null || y === null) return true;
  const last = (symbol: string) => symbol.split(/::|\.|\//).pop()!.toLowerCase();
  return last(x) === last(y);
}

/** The derived features' part of a candidate's word score under `weights` (0 where their weights are unset). */
const derivedScore = (weights: FitWeights, stored: Record<string, number> | undefined) => DERIVED.reduce((sum, f) => sum + (weights[f] ?? 0) * (stored?.[f] ?? 0), 0);

/** `depth` of a candidate from its de-duplication key: an item's symbol segments past the root (Go: past the import path), over 4, capped at 1; a section or a module page 0. */
function depthOf(key: string): number {
  if (!key.startsWith('symbol:') || key.includes('\u0000')) return 0;
  const symbol = key.slice('symbol:'.length);
  const parts = symbol.slice(symbol.lastIndexOf('/') + 1).split(/::|\./).filter(Boolean);
  return Math.min(Math.max(parts.length - 1, 0), 4) / 4;
}

/** The column order of pools stored before their feature names were (before round 11): round 10's word features. */
const LEGACY_FEATURES = ['bm25', 'bodyCoverage', 'proximity', 'name', 'exact', 'importance', 'internal', 'centrality', 'bare', 'example', 'section'];
/** The answer-diversity setting a weights object stands for (absent: the ranker's SECTION_TRAIL). */
const trailOf = (weights: FitWeights) => (weights.sectionTrail === undefined ? SECTION_TRAIL : weights.sectionTrail !== 0);
/** Weights a stored pool is checked under against the live ranker when it is made (the hand-set ones and a far move). */
const CHECK_WEIGHTS: FitWeights[] = [WEIGHTS, { ...WEIGHTS, rrf: 0.5, example: 0.3, section: 0.3, ownerCentrality: -0.2, name: 0.6 }, { ...WEIGHTS, sectionTrail: SECTION_TRAIL ? 0 : 1 }];
let checkedPools = 0;
let checkMismatches = 0;

/** Asks each question of one store; the last observed pool of a search is the one whose top 3 it answered with. */
async function ask(questions: Question[], home: string | undefined): Promise<StoredPool[]> {
  const gems = questions.some((q) => q.ecosystem === 'rubygems') ? await benchGemFixture() : undefined;
  const dir = home ?? await freshHome();
  if (!fs.existsSync(dir)) fs.cpSync(await freshHome(), dir, { recursive: true });
  const app = await createApp(loadConfig({
    TOOLDEX_HOME: dir, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_DOCS_DEADLINE_MS: 600_000,
    // The encoder answers every question whatever the load (as bench/docs.ts BENCH_BACKPRESSURE=off): a pool's
    // similarities must not depend on what else the machine was doing.
    TOOLDEX_SEMANTIC_ENCODER_QUEUE: 1_000_000, TOOLDEX_SEMANTIC_ENCODER_WAIT_MS: 0,
    ...(gems ? { TOOLDEX_RUBYGEMS_URL: gems.url } : {}),
  }, {}), createLogger('warn'));
  const stored: StoredPool[] = [];
  // Every question's full similarity view (round 18's neighbours candidate), read off the same meaning pass.
  const probed: { view?: NeighbourView } = {};
  probeNeighbours((view) => { probed.view = view; });
  for (const q of questions) {
    let last: RankPool | undefined;
    probed.view = undefined;
    try {
      await app.docs.search(q.tool, q.question, { limit: 3, observe: (pool) => { last = pool; } });
    } catch (error) {
      console.error(`  could not ask ${q.tool}: ${(error as Error).message}`);
      continue;
    }
    const pool = last;
    const head = { tool: q.tool, ecosystem: q.ecosystem, question: q.question };
    if (!pool) {
      const why = { extracted: false, pooled: false, answered: 0, byWords: 0, byMeaning: 0, poolSize: 0, above: [] };
      stored.push({ ...head, why, semantic: false, rows: [], keys: [], keyNames: [], answering: [], reachable: [], near: [] });
      continue;
    }
    const answering = new Set(pool.rows.filter((r) => answers(pool.passages[r.doc]!, q.expect)).map((r) => r.doc));
    const byWords = [...pool.rows].sort((l, r) => wordScore(r, WEIGHTS) - wordScore(l, WEIGHTS) || l.doc - r.doc).slice(0, REACH_WORDS).map((r) => r.doc);
    const byMeaning = pool.rows.filter((r) => r.similarity).sort((l, r) => r.similarity! - l.similarity! || l.doc - r.doc).slice(0, REACH_MEANING).map((r) => r.doc);
    // Rank (1-based) and similarity of each candidate among the embedded passages outside the compared word candidates,
    // the similarity less the ranker's deprecated and bare terms (rank.ts rankWith), as a compared one's is stored.
    const nnRank = new Map<number, number>();
    const view = probed.view as NeighbourView | undefined; // set by the probe during the search
    if (view) nearestOutside(view.similarity, view.compared, Infinity).forEach((doc, i) => nnRank.set(doc, i + 1));
    const nnSim = (doc: number) => {
      const passage = pool.passages[doc]!;
      return view!.similarity[doc]! - (passage.deprecated ? WEIGHTS.deprecatedMeaning : 0) - (passage.bare ? WEIGHTS.bareMeaning : 0);
    };
    const neighbourly = pool.rows.filter((r) => (nnRank.get(r.doc) ?? Infinity) <= NEIGHBOUR_GRID.at(-1)!).map((r) => r.doc);
    // Round 19: the word candidates down to REACH_WORDS that were not compared, embedded now and compared (the probe's
    // `compare`; the service never does this), as if a question-time budget had embedded them before ranking.
    const wordRank = new Map(byWords.map((doc, i) => [doc, i + 1]));
    const comparedNow = new Set(view?.compared ?? []);
    const deepSims = view ? await view.compare(byWords.filter((doc) => !comparedNow.has(doc))) : new Map<number, number>();
    const deepSim = (doc: number) => {
      const passage = pool.passages[doc]!;
      return deepSims.get(doc)! - (passage.deprecated ? WEIGHTS.deprecatedMeaning : 0) - (passage.bare ? WEIGHTS.bareMeaning : 0);
    };
    const reachable = [...new Set([...byWords, ...byMeaning, ...answering, ...neighbourly])];
    const { keys, keyNames } = dedupKeyIndex(pool.rows.map((r) => pool.passages[r.doc]!));
    const entry: StoredPool = {
      ...head, why: diagnose(q, pool, answering), semantic: pool.semantic,
      // The passage's `bare` flag rides along as a column that is no word feature (the round-10 prior reads it).
      rows: pool.rows.map((r) => [r.doc, r.matched ? 1 : 0, r.similarity ?? null, ...WORD_FEATURES.map((f) => r.features[f]), pool.passages[r.doc]!.bare ? -1 : 0,
        nnRank.get(r.doc) ?? 0, nnRank.has(r.doc) ? nnSim(r.doc) : 0, wordRank.get(r.doc) ?? 0, deepSims.has(r.doc) ? deepSim(r.doc) : 0]),
      features: [...WORD_FEATURES, 'bare', 'nnRank', 'nnSim', 'wordRank', 'deepSim'],
      keys, keyNames, answering: [...answering], reachable, near: pool.nearDuplicates(reachable),
      answeringPublished: pool.rows.filter((r) => answers(pool.passages[r.doc]!, q.expect, 'published')).map((r) => r.doc),
    };
    // The stored rerank must be the live one: checked on every pool as it is made.
    const replay = fromStored(entry, 'tuning');
    for (const weights of CHECK_WEIGHTS) {
      checkedPools++;
      const live = pool.rerank(weights, { sectionTrail: trailOf(weights) }).slice(0, 3).map((r) => r.doc).join(' ');
      if (replay.order(weights).join(' ') !== live) checkMismatches++;
    }
    stored.push(entry);
  }
  probeNeighbours(undefined);
  // The pools are asked: a store that does not close cleanly (a sandbox folder gone from an old home) loses none of them.
  await app.close().catch((error: Error) => console.error(`  the store did not close cleanly: ${error.message}`));
  await gems?.close();
  if (!home) fs.rmSync(dir, { recursive: true, force: true });
  return stored;
}

function diagnose(q: Question, pool: RankPool, answering: Set<number>): Diagnosis {
  const position = (order: FeatureRow[]) => order.findIndex((r) => answering.has(r.doc)) + 1;
  const byWords = [...pool.rows].sort((l, r) => wordScore(r, WEIGHTS) - wordScore(l, WEIGHTS) || l.doc - r.doc);
  const byMeaning = pool.rows.filter((r) => r.similarity).sort((l, r) => r.similarity! - l.similarity! || l.doc - r.doc);
  const ranked = pool.rerank(WEIGHTS);
  const describe = (doc: number) => {
    const p = pool.passages[doc]!;
    return { symbol: p.symbol, source: p.source, bare: Boolean(p.bare), section: !p.symbol, example: p.content.includes('```'), deprecated: Boolean(p.deprecated), chars: p.content.length };
  };
  const at = ranked.findIndex((r) => answering.has(r.doc));
  const best = at >= 0 ? ranked[at]!.doc : byWords.find((r) => answering.has(r.doc))?.doc;
  return {
    extracted: pool.passages.some((p) => answers(p, q.expect)), pooled: answering.size > 0, answered: at + 1,
    byWords: position(byWords), byMeaning: position(byMeaning), poolSize: pool.rows.length,
    ...(best !== undefined ? { answer: describe(best) } : {}),
    above: ranked.slice(0, at >= 0 ? at : 3).map((r) => describe(r.doc)),
  };
}

/** 1-based rank of the first answer in the top 3 under `weights`, 0 when none (memoised per weights object). */
const rankCache = new WeakMap<FitWeights, Map<Asked, number>>();
function rankOf(a: Asked, weights: FitWeights): number {
  let cache = rankCache.get(weights);
  if (!cache) rankCache.set(weights, cache = new Map());
  let at = cache.get(a);
  if (at === undefined) cache.set(a, at = a.order(weights).findIndex((doc) => a.answering.has(doc)) + 1);
  return at;
}
const hit = (k: number) => (a: Asked, weights: FitWeights) => { const at = rankOf(a, weights); return at >= 1 && at <= k; };
const hit1 = hit(1);
const hit3 = hit(3);
const count = (list: Asked[], weights: FitWeights) => list.filter((a) => hit3(a, weights)).length;
const count1 = (list: Asked[], weights: FitWeights) => list.filter((a) => hit1(a, weights)).length;
/** hit@1 + hit@3: what the model choice and the hit@1-aware searches maximise. */
const both = (list: Asked[], weights: FitWeights) => count(list, weights) + count1(list, weights);
const wordScore = (row: FeatureRow, weights: Record<WordFeature, number>) => scoreOf(weights, row.features);

function fit(list: Asked[], config: Config): FitWeights {
  if (config.kind === 'fixed') return config.set ? { ...WEIGHTS, ...config.set } : config.zero ? { ...WEIGHTS, [config.zero]: 0 } : WEIGHTS;
  if (config.perEcosystem) {
    // Each ecosystem's model fitted on its own training questions only.
    const one = { ...config, perEcosystem: false };
    const byEcosystem = Object.fromEntries([...new Set(list.map((a) => a.q.ecosystem))].sort().filter((e) => !config.only || config.only.includes(e))
      .map((e) => [e, fit(list.filter((a) => a.q.ecosystem === e), one)]));
    return { ...WEIGHTS, byEcosystem };
  }
  if (config.kind !== 'search') return logistic(list, config);
  return search(list, config.features, config.objective === 'hit1+hit3' ? both : count, config);
}

/** A fitted config's weights as printed: its features, or its per-ecosystem fusion weights. */
const shown = (config: Config, weights: FitWeights, sep: string): string => (weights.byEcosystem
  ? Object.entries(weights.byEcosystem).map(([e, w]) => `${e}:${shown(config, w, '/')}`).join(sep)
  : config.features.map((f) => `${f}=${weights[f]}`).join(sep));

/** Coordinate search of training hit@3 (or `score`) over `features`, from the hand-set weights. */
function search(list: Asked[], features: Config['features'], score = count, grids: Pick<Config, 'rrfGrid' | 'rrfKGrid' | 'set'> = {}): FitWeights {
  // A config's `set` is where the search starts (round 20's `agree` searched from 0, the weights before it shipped).
  let best: FitWeights = { ...WEIGHTS, ...grids.set };
  let bestN = score(list, best);
  for (const f of features) {
    let pick = best;
    let pickN = bestN;
    for (const value of (f === 'rrf' ? grids.rrfGrid : f === 'rrfK' ? grids.rrfKGrid : undefined) ?? GRID(f)) {
      if (value === best[f]) continue;
      const weights = { ...best, [f]: value };
      const n = score(list, weights);
      if (n >= pickN + MIN_GAIN || (pick !== best && n > pickN)) [pick, pickN] = [weights, n];
    }
    [best, bestN] = [pick, pickN];
  }
  return best;
}

/**
 * A question's answering rows and its NEGATIVES near relatives (by PRIOR's word score, which no fit changes): read once
 * per question, not per fit (sorting every pool on every fold was most of an ablation's time).
 */
const sidesMemo = new WeakMap<Asked, { positives: FeatureRow[]; negatives: FeatureRow[] }>();
function pairSides(a: Asked): { positives: FeatureRow[]; negatives: FeatureRow[] } {
  let sides = sidesMemo.get(a);
  if (!sides) {
    const scored = a.rows.filter((r) => !a.answering.has(r.doc)).map((r) => ({ r, score: wordScore(r, PRIOR) + (PRIOR.bare ?? 0) * (a.extra.get(r.doc)?.bare ?? 0) }));
    const negatives = scored.sort((l, r) => r.score - l.score || l.r.doc - r.r.doc).slice(0, NEGATIVES).map(({ r }) => r);
    sidesMemo.set(a, sides = { positives: a.rows.filter((r) => a.answering.has(r.doc)), negatives });
  }
  return sides;
}

/** Pairwise logistic regression by Newton's method on `features` (the others at their hand-set weight, as an offset). */
function logistic(list: Asked[], config: Config): FitWeights {
  const { lambda } = config;
  const features = config.features.filter((f): f is FitFeature => f !== 'rrf' && f !== 'rrfK');
  const fixed = WORD_FEATURES.filter((f) => !features.includes(f));
  // A fitted feature's value: a word feature's from the row, a derived one's (depth, ownerNamed) from the stored columns.
  const value = (a: Asked, row: FeatureRow, f: FitFeature) => ((DERIVED as readonly string[]).includes(f) ? a.extra.get(row.doc)?.[f] ?? 0 : row.features[f as WordFeature]);
  // An ablated feature (`zero`) is held at 0 instead of its hand-set weight.
  // A config's `set` (e.g. sectionTrail) holds for the fitted model too.
  const base: FitWeights = { ...PRIOR, ...config.set, ...(config.zero ? { [config.zero]: 0 } : {}) };
  const d = features.length;
  const pairs: Array<{ x: number[]; offset: number; weight: number }> = [];
  for (const a of list) {
    const { positives, negatives } = pairSides(a);
    if (!positives.length || !negatives.length) continue;
    const weight = 1 / (positives.length * negatives.length);
    for (const p of positives) {
      for (const n of negatives) {
        pairs.push({
          x: features.map((f) => value(a, p, f) - value(a, n, f)),
          offset: fixed.reduce((sum, f) => sum + base[f] * (p.features[f] - n.features[f]), 0)
            + (base.bare ?? 0) * ((a.extra.get(p.doc)?.bare ?? 0) - (a.extra.get(n.doc)?.bare ?? 0)),
          weight,
        });
      }
    }
  }
  // Shrunk toward PRIOR (not toward 0): a strong penalty leaves the prior ranking as it is.
  const prior = features.map((f) => PRIOR[f] ?? 0);
  const w = [...prior];
  for (let step = 0; step < 50; step++) {
    const gradient = w.map((v, i) => 2 * lambda * (v - prior[i]!));
    const hessian = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 2 * lambda + 1e-9 : 0)));
    for (const { x, offset, weight } of pairs) {
      const margin = offset + x.reduce((sum, v, i) => sum + v * w[i]!, 0);
      const p = 1 / (1 + Math.exp(-margin));
      for (let i = 0; i < d; i++) {
        gradient[i]! -= weight * (1 - p) * x[i]!;
        for (let j = 0; j < d; j++) hessian[i]![j]! += weight * p * (1 - p) * x[i]! * x[j]!;
      }
    }
    const delta = solve(hessian, gradient);
    for (let i = 0; i < d; i++) w[i]! -= delta[i]!;
    if (Math.max(...delta.map(Math.abs)) < 1e-8) break;
  }
  return { ...base, ...Object.fromEntries(features.map((f, i) => [f, Number(w[i]!.toFixed(4))])) };
}

/** Training questions for test set `test`: the other sets, less every package the test set asks about. */
const trainingFor = (list: Asked[], test: SetName) => {
  const tested = new Set(list.filter((a) => a.set === test).map((a) => a.pkg));
  return list.filter((a) => a.set !== test && !tested.has(a.pkg));
};

/**
 * Hit@1 + hit@3 of `config` by leave-one-set-out within `list` (the inner loop of model choice): both, because the
 * shipping rule judges both (round 6's hit@3-only choice picked a model that lost hit@1).
 */
function looCount(list: Asked[], config: Config): number {
  let n = 0;
  for (const set of new Set(list.map((a) => a.set))) n += both(list.filter((a) => a.set === set), fit(trainingFor(list, set), config));
  return n;
}

/** The config the inner leave-one-set-out on `list` ranks best (ties: the earlier, i.e. listed smaller/stronger-first). */
// FIT_NESTED_CONFIGS=name,…: the nested choice among these only (the plain report still shows every CONFIGS row).
const NESTED_CONFIGS = selectConfigs(CONFIGS, process.env.FIT_NESTED_CONFIGS);
function choose(list: Asked[]): Config {
  let best = NESTED_CONFIGS[0]!;
  let bestN = -1;
  for (const config of NESTED_CONFIGS) {
    const n = looCount(list, config);
    if (n > bestN) [best, bestN] = [config, n];
  }
  return best;
}

const started = Date.now();
const all: Asked[] = [];
for (const [file, set] of SETS) {
  const questions = loadQuestions(file, set === 'heldout' ? 'heldout' : set).filter(keep).slice(0, limit);
  // FIT_ECOSYSTEMS=a,b: pools asked and stored per ecosystem, so runs of one ecosystem each add up to a run of several.
  for (const part of ecosystems ? ecosystems.map((e) => questions.filter((q) => q.ecosystem === e)) : [questions]) {
    if (part.length) all.push(...await pools(file, part, set, homes[set] ?? (set === 'heldout' ? homes.tuning : undefined)));
  }
  console.error(`asked ${set}: ${questions.length} questions, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
if (checkedPools) console.log(`stored pools checked against the live ranker: ${checkMismatches} of ${checkedPools} top-3 orders differ`);
const inPool = all.filter((a) => a.answering.size).length;
console.log(`asked in ${((Date.now() - started) / 1000).toFixed(0)} s: ${all.length} questions (${SETS.map(([, set]) => `${all.filter((a) => a.set === set).length} ${set}`).join(' + ')}) `
  + `over ${new Set(all.map((a) => a.pkg)).size} packages; ${inPool} have an answering passage in the pool`);

if (process.env.FIT_DIAGNOSE) {
  fs.writeFileSync(process.env.FIT_DIAGNOSE, all.map((a) => JSON.stringify({ set: a.set, tool: a.q.tool, ecosystem: a.q.ecosystem, question: a.q.question, ...a.why })).join('\n'));
}
printMissClasses(all.map((a) => ({ set: a.set, ecosystem: a.q.ecosystem, ...a.why })));
if (process.env.FIT_ABOVE) printAboveClasses(all.filter((a) => process.env.FIT_ABOVE === 'all' || process.env.FIT_ABOVE!.split(',').includes(a.q.ecosystem)), WEIGHTS);

/**
 * FIT_ABOVE=go (or all, or a list): the ranking misses of `weights` (the shipped ones) read off the stored pools — the
 * answer in the pool, none in the top 3 — by what the answer is and what stands above it. Each passage is classed by its
 * de-duplication key and its features, never by name: a guide/README section, a module's doc section, an item of
 * another package of the module (its package segment differs from the answer's), a field, a member of the answer's own
 * type (a sibling), a member of another type, the answer's owner type itself, or a top-level item.
 */
function printAboveClasses(list: Asked[], weights: FitWeights): void {
  const segments = (symbol: string) => symbol.split(/::|\./);
  const ownerOf = (symbol: string) => { const cut = Math.max(symbol.lastIndexOf('::'), symbol.lastIndexOf('.')); return cut > 0 ? symbol.slice(0, cut) : ''; };
  // Member, field and module page: the stored columns of pools asked before round 13; else a member is an item whose
  // owner's symbol is another candidate's key (the pool's view of rank.ts's owner test) and no field is known.
  const structure = (a: Asked, doc: number) => {
    const stored = a.extra.get(doc) ?? {};
    const key = a.keyOf?.get(doc) ?? '';
    const symbol = key.startsWith('symbol:') ? key.slice('symbol:'.length).split('\u0000')[0]! : '';
    const owner = symbol && ownerOf(symbol);
    const member = stored.member ?? Number(Boolean(owner) && [...(a.keyOf?.values() ?? [])].includes(`symbol:${owner}`));
    return { member, field: stored.field ?? 0, moduleDoc: stored.moduleDoc ?? 0 };
  };
  const kind = (a: Asked, doc: number, answer: string | undefined): string => {
    const key = a.keyOf?.get(doc) ?? '';
    const row = structure(a, doc);
    if (key.startsWith('section:')) return 'guide/README section';
    if (row.moduleDoc) return 'module doc section';
    const symbol = key.slice('symbol:'.length);
    if (answer && segments(answer)[0] !== segments(symbol)[0]) return "another package's item";
    if (row.field) return 'field';
    if (row.member) {
      if (answer && ownerOf(answer) === ownerOf(symbol)) return 'sibling member (same type)';
      if (answer && answer === ownerOf(symbol)) return "a member of the answer's type";
      return 'member of another type';
    }
    if (answer && ownerOf(answer) === symbol) return "the answer's owner type";
    return 'top-level item';
  };
  const answerKind = (a: Asked, doc: number): string => {
    const key = a.keyOf?.get(doc) ?? '';
    const row = structure(a, doc);
    if (key.startsWith('section:')) return 'guide/README section';
    if (row.moduleDoc) return 'module doc section';
    return row.field ? 'field' : row.member ? 'member' : 'top-level item';
  };
  const above = new Map<string, { passages: number; misses: number }>();
  const answers = new Map<string, number>();
  const depth = new Map<string, number>();
  let misses = 0;
  for (const a of list) {
    if (!a.answering.size || hit3(a, weights)) continue;
    const full = a.order(weights, 60);
    const at = full.findIndex((doc) => a.answering.has(doc));
    const answerDoc = at >= 0 ? full[at]! : [...a.answering][0]!;
    misses++;
    const ak = answerKind(a, answerDoc);
    answers.set(ak, (answers.get(ak) ?? 0) + 1);
    const band = at < 0 ? 'below the 60 kept (or a collapsed duplicate)' : at < 10 ? '#4-#10' : '#11-#60';
    depth.set(band, (depth.get(band) ?? 0) + 1);
    const answerKey = a.keyOf?.get(answerDoc) ?? '';
    const answerSymbol = answerKey.startsWith('symbol:') ? answerKey.slice('symbol:'.length).split('\u0000')[0] : undefined;
    if (process.env.FIT_ABOVE_LIST) {
      const show = (doc: number) => { const r = a.rows.find((x) => x.doc === doc)!; return `${(a.keyOf?.get(doc) ?? '').replace(/\u0000/g, ' > ')} [${WORD_FEATURES.filter((f) => r.features[f]).map((f) => `${f}=${r.features[f].toFixed(2)}`).join(' ')}; sim ${r.similarity?.toFixed(3) ?? '-'}]`; };
      fs.appendFileSync(process.env.FIT_ABOVE_LIST, `${a.set}\t${a.q.tool}\t${a.q.question}\n  answer #${at + 1}: ${show(answerDoc)}\n${full.slice(0, 3).map((doc) => `  above: ${show(doc)}\n`).join('')}`);
    }
    const seen = new Set<string>();
    for (const doc of full.slice(0, 3)) {
      const k = kind(a, doc, answerSymbol);
      const entry = above.get(k) ?? { passages: 0, misses: 0 };
      entry.passages++;
      if (!seen.has(k)) entry.misses++;
      seen.add(k);
      above.set(k, entry);
    }
  }
  const sorted = <T>(m: Map<string, T>, by: (v: T) => number) => [...m].sort((l, r) => by(r[1]) - by(l[1]));
  console.log(`\nranking misses (answer pooled, not in the top 3) of ${list.length} questions: ${misses}`);
  console.log(`  the answer is: ${sorted(answers, (n) => n).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  console.log(`  the answer stands: ${sorted(depth, (n) => n).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  console.log('  in the top 3 above it (passages of the 3 per miss; misses with at least one):');
  for (const [k, v] of sorted(above, (v) => v.passages)) console.log(`    ${k} | ${v.passages} | ${v.misses}`);
}

/**
 * The misses of the hand-set ranking by class, per ecosystem over every set (each a row of counts): the answer in no
 * passage, in none the words retrieve, and below #3 by what the answer is — a guide/README section (no symbol) or an API
 * item (a module's doc page included) — and what the top 3 above it are: API items, sections, or both.
 */
function printMissClasses(list: Array<{ set: string; ecosystem: string } & Diagnosis>): void {
  const classOf = (d: Diagnosis): string | undefined => {
    if (d.answered >= 1 && d.answered <= 3) return undefined;
    if (!d.extracted) return 'not extracted';
    if (!d.pooled || !d.answer) return 'not in the word pool';
    const under = d.above.some((a) => !a.section) ? (d.above.some((a) => a.section) ? 'both' : 'API items') : 'sections';
    return `${d.answer.section ? 'guide/README section' : 'API item'} below #3, under ${under}`;
  };
  const ecos = [...new Set(list.map((d) => d.ecosystem))].sort();
  const classes = new Map<string, Map<string, number>>();
  for (const d of list) {
    const c = classOf(d);
    if (!c) continue;
    const row = classes.get(c) ?? new Map<string, number>();
    classes.set(c, row);
    row.set(d.ecosystem, (row.get(d.ecosystem) ?? 0) + 1);
  }
  console.log(`\nmisses of the hand-set ranking by class (every set): class | ${ecos.join(' | ')} | all`);
  for (const [c, row] of [...classes].sort((l, r) => [...r[1].values()].reduce((a, b) => a + b, 0) - [...l[1].values()].reduce((a, b) => a + b, 0))) {
    console.log(`  ${c} | ${ecos.map((e) => row.get(e) ?? 0).join(' | ')} | ${[...row.values()].reduce((a, b) => a + b, 0)}`);
  }
  const totals = ecos.map((e) => list.filter((d) => d.ecosystem === e));
  console.log(`  misses | ${totals.map((l) => l.filter((d) => classOf(d)).length).join(' | ')} | ${list.filter((d) => classOf(d)).length}`);
  console.log(`  questions | ${totals.map((l) => l.length).join(' | ')} | ${list.length}`);
}
const groups = (list: Asked[]) => [...[...new Set(list.map((a) => a.q.ecosystem))].sort(), 'all'].map((e) => [e, list.filter((a) => e === 'all' || a.q.ecosystem === e)] as const);
const figures = (list: Asked[], weights: FitWeights) => groups(list)
  .map(([e, l]) => `${e} ${l.filter((a) => hit1(a, weights)).length}/${l.filter((a) => hit3(a, weights)).length}/${l.length}`).join('  ');

const sum = (list: number[]) => list.reduce((total, n) => total + n, 0);

// FIT_WEAK=file (scripts/docs-weak-labels.ts): fit each config on the weak pseudo-questions ONLY (made from the structure
// of packages no spent set asks about) and judge the fitted weights on every spent set against the hand-set weights.
// Nothing of the spent sets enters the fit, so each set's figure is held-out for the weights; the choice among configs
// is not (it is read off these figures), so the candidate that may ship is declared beforehand: FIT_WEAK_CANDIDATE.
if (process.env.FIT_WEAK) {
  type WeakPool = StoredPool & { kind: string };
  const weak = JSON.parse(fs.readFileSync(process.env.FIT_WEAK, 'utf8')) as { seed: number; packages: string[]; features: string[]; pools: WeakPool[] };
  // Rows are stored in the weak file's feature order; read them by name (a feature the file lacks is 0).
  const remap = (p: WeakPool): WeakPool => ({
    ...p, features: [...WORD_FEATURES], rows: p.rows.map(([doc, matched, similarity, ...values]) => [doc!, matched!, similarity ?? null, ...WORD_FEATURES.map((f) => (weak.features.includes(f) ? values[weak.features.indexOf(f)] ?? 0 : 0))]),
  });
  const pseudo = weak.pools.map((p) => ({ kind: p.kind, asked: fromStored(remap(p), 'weak' as SetName) }));
  const weakAsked = pseudo.map((p) => p.asked);
  console.log(`\nweak supervision: ${weakAsked.length} pseudo-questions over ${weak.packages.length} packages (seed ${weak.seed}), ${weakAsked.filter((a) => a.answering.size).length} with the answer in the pool`);
  for (const kind of [...new Set(pseudo.map((p) => p.kind))]) {
    const list = pseudo.filter((p) => p.kind === kind).map((p) => p.asked);
    console.log(`  ${kind}: ${list.length}; hand-set hit@1/hit@3 ${count1(list, WEIGHTS)}/${count(list, WEIGHTS)}`);
  }
  // The model choice without any spent set: each config fitted on three quarters of the weak packages and scored
  // (hit@1 + hit@3) on the rest, rotated; the best is the weak-chosen model, judged below like the declared candidate.
  const weakPackages = [...new Set(weakAsked.map((a) => a.pkg))];
  const foldOf = new Map(weakPackages.map((pkg, i) => [pkg, i % 4]));
  const weakCv = (config: Config) => [0, 1, 2, 3].reduce((n, fold) => n + both(weakAsked.filter((a) => foldOf.get(a.pkg) === fold), fit(weakAsked.filter((a) => foldOf.get(a.pkg) !== fold), config)), 0);
  const cvScores = CONFIGS.map((config) => [config, weakCv(config)] as const);
  const weakChosen = cvScores.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
  console.log(`weak cross-validation by package (4 folds), hit@1+hit@3 on held-out pseudo-questions: ${cvScores.map(([c, n]) => `${c.name} ${n}`).join(', ')}; chosen: ${weakChosen.name}`);
  const candidate = process.env.FIT_WEAK_CANDIDATE ?? 'passage l=10';
  const handPer = SETS.map(([, set]) => all.filter((a) => a.set === set));
  console.log(`judged on the spent sets (${SETS.map(([, set]) => set).join(' ')}): hit@3 pooled (per set), hit@1 pooled; per ecosystem hit@1/hit@3/n`);
  console.log(`  ${'hand-set'.padEnd(24)} hit@3 ${count(all, WEIGHTS)} (${handPer.map((l) => count(l, WEIGHTS)).join(' ')}) hit@1 ${count1(all, WEIGHTS)}`);
  console.log(`    ${figures(all, WEIGHTS)}`);
  for (const config of CONFIGS) {
    const weights = fit(weakAsked, config);
    const per = handPer.map((l) => count(l, weights));
    const better = per.filter((n, i) => n > count(handPer[i]!, WEIGHTS)).length;
    const worse = per.filter((n, i) => n < count(handPer[i]!, WEIGHTS)).length;
    const total = count(all, weights);
    const ships = config.name === candidate && total > count(all, WEIGHTS) && better * 2 > SETS.length && count1(all, weights) >= count1(all, WEIGHTS);
    const verdict = config.name === candidate ? (ships ? ' — declared candidate: ships' : ' — declared candidate: does not ship') : '';
    console.log(`  ${config.name.padEnd(24)} hit@3 ${total} (${per.join(' ')}; better on ${better}, worse on ${worse}) hit@1 ${count1(all, weights)}; weak training hit@1/hit@3 ${count1(weakAsked, weights)}/${count(weakAsked, weights)}${verdict}${config === weakChosen ? ' — chosen by weak cross-validation' : ''}`);
    console.log(`    ${figures(all, weights)}`);
    console.log(`    weights ${shown(config, weights, ' ')}`);
  }
  process.exit(0);
}
// FIT_ABLATE=config-name: each feature in turn held at 0. For the hand-set weights (nothing fitted: on every set), and
// for the named logistic config refitted without it by leave-one-set-out (held-out: the figure of a feature's worth).
if (process.env.FIT_ABLATE) {
  const base = ALL_CONFIGS.find((c) => c.name === process.env.FIT_ABLATE);
  if (!base || base.kind !== 'logistic') throw new Error(`FIT_ABLATE names a logistic config: ${ALL_CONFIGS.filter((c) => c.kind === 'logistic').map((c) => c.name).join(', ')}`);
  // Per left-out set: hit@1, hit@3, and hit@3 per ecosystem (so a feature's worth can be read per ecosystem too).
  const ecos = [...new Set(all.map((a) => a.q.ecosystem))].sort();
  const perSet = (weights: (i: number) => FitWeights) => SETS.map(([, set], i) => {
    const test = all.filter((a) => a.set === set);
    const w = weights(i);
    return [count1(test, w), count(test, w), ecos.map((e) => count(test.filter((a) => a.q.ecosystem === e), w))] as const;
  });
  // FIT_ABLATE_NEWEST=n: also the subtotal over the n newest left-out sets (the last n of SETS).
  const newest = Number(process.env.FIT_ABLATE_NEWEST ?? 4);
  const line = (label: string, figures: ReadonlyArray<readonly [number, number, readonly number[]]>) => console.log(`  ${label.padEnd(28)} hit@1 ${sum(figures.map((f) => f[0]))} hit@3 ${sum(figures.map((f) => f[1]))}`
    + `  (newest ${newest}: hit@1 ${sum(figures.slice(-newest).map((f) => f[0]))} hit@3 ${sum(figures.slice(-newest).map((f) => f[1]))}; hit@3 by ecosystem ${ecos.map((e, j) => `${e} ${sum(figures.map((f) => f[2][j]!))}`).join(' ')}; hit@3 per set ${figures.map((f) => f[1]).join(' ')})`);
  // FIT_ABLATE_FEATURES=a,b: only these features are ablated (each refit is a leave-one-set-out of its own).
  const only = process.env.FIT_ABLATE_FEATURES?.split(',');
  const ablations = WORD_FEATURES.filter((f) => (WEIGHTS[f] !== 0 || base.features.includes(f)) && (!only || only.includes(f)));
  console.log(`\nablation, hand-set weights (the feature's weight set to 0; tuning: the hand-set weights were set on these sets):`);
  line('hand-set', perSet(() => WEIGHTS));
  // FIT_ABLATE_HAND=0: skip the unfitted rows (the held-out refits below are the figure that decides).
  if (process.env.FIT_ABLATE_HAND !== '0') for (const f of ablations.filter((f) => WEIGHTS[f] !== 0)) line(`hand-set, ${f}=0`, perSet(() => ({ ...WEIGHTS, [f]: 0 })));
  console.log(`ablation, ${base.name} refitted without each feature, leave-one-set-out (held-out per set):`);
  const fitted = (config: Config) => perSet((i) => fit(trainingFor(all, SETS[i]![1]), config));
  line(base.name, fitted(base));
  for (const f of ablations) line(`${base.name}, ${f}=0`, fitted({ ...base, name: `${base.name} -${f}`, features: base.features.filter((g) => g !== f), zero: f }));
}

if (process.env.FIT_ABLATE_ONLY === '1') {
  console.log(`stored reranks that met a candidate outside the stored near-duplicate pairs: ${outsideReach} look-ups (taken as no duplicate)`);
  process.exit(0);
}

// Per config: plain leave-one-set-out (for the report: how each model generalises). Then the nested choice.
console.log(`\nleave-one-set-out hit@3 per config (sum over left-out sets, then per set: ${SETS.map(([, set]) => set).join(' ')}):`);
const handPerSet = SETS.map(([, set]) => count(all.filter((a) => a.set === set), WEIGHTS));
const handTotal = handPerSet.reduce((sum, n) => sum + n, 0);
const hit1Of = (weights: (i: number) => FitWeights) => SETS.map(([, set], i) => count1(all.filter((a) => a.set === set), weights(i)));
console.log(`  ${'hand-set'.padEnd(24)} ${handTotal}/${all.length}  (${handPerSet.join(' ')}); hit@1 ${sum(hit1Of(() => WEIGHTS))} (${hit1Of(() => WEIGHTS).join(' ')})`);
const looWeights = new Map<Config, FitWeights[]>();
let bestConfig = CONFIGS[0]!;
let bestTotal = -1;
for (const config of CONFIGS) {
  const weights = SETS.map(([, set]) => fit(trainingFor(all, set), config));
  looWeights.set(config, weights);
  const perSet = SETS.map(([, set], i) => count(all.filter((a) => a.set === set), weights[i]!));
  const total = perSet.reduce((sum, n) => sum + n, 0);
  if (total > bestTotal) [bestConfig, bestTotal] = [config, total];
  console.log(`  ${config.name.padEnd(24)} ${total}/${all.length}  (${perSet.join(' ')}; better on ${perSet.filter((n, i) => n > handPerSet[i]!).length}, worse on ${perSet.filter((n, i) => n < handPerSet[i]!).length}); hit@1 ${sum(hit1Of((i) => weights[i]!))} (${hit1Of((i) => weights[i]!).join(' ')})`);
}

// FIT_NESTED=1: the model for each left-out set chosen by an inner leave-one-set-out on its training sets (slow: about
// CONFIGS × 4 fits per set); else the config with the best leave-one-set-out total above (chosen on these figures: the
// choice among a few configs is itself a small fit to them).
const nested = process.env.FIT_NESTED === '1';
console.log(`\n${nested ? 'nested leave-one-set-out (model chosen by an inner leave-one-set-out on the training sets)' : `leave-one-set-out of the best config (${bestConfig.name})`}; per ecosystem hit@1/hit@3/n:`);
let wins = 0;
let losses = 0;
let fittedTotal = 0;
let fitted1 = 0;
const heldOut: Array<{ test: Asked[]; weights: FitWeights }> = [];
const hand1 = count1(all, WEIGHTS);
for (const [i, [, set]] of SETS.entries()) {
  const test = all.filter((a) => a.set === set);
  const training = trainingFor(all, set);
  const config = nested ? choose(training) : bestConfig;
  const weights = nested ? fit(training, config) : looWeights.get(config)![i]!;
  const [hand, fitted] = [count(test, WEIGHTS), count(test, weights)];
  heldOut.push({ test, weights });
  fittedTotal += fitted;
  fitted1 += count1(test, weights);
  if (fitted > hand) wins++;
  if (fitted < hand) losses++;
  console.log(`${set} (trained on ${training.length}, model ${config.name}):`);
  console.log(`  hand-set ${figures(test, WEIGHTS)}`);
  console.log(`  fitted   ${figures(test, weights)}`);
  console.log(`  weights  ${shown(config, weights, ' ')}`);
}
const ships = wins > losses && wins * 2 > SETS.length && fittedTotal > handTotal && fitted1 >= hand1;
// Pooled per ecosystem over the left-out sets (each set under its own fold's weights): hit@1/hit@3/n.
const pooledBy = (use: (h: typeof heldOut[number]) => FitWeights) => [...new Set(all.map((a) => a.q.ecosystem)), 'all'].sort().map((e) => {
  const of = (h: typeof heldOut[number]) => h.test.filter((a) => e === 'all' || a.q.ecosystem === e);
  return `${e} ${sum(heldOut.map((h) => count1(of(h), use(h))))}/${sum(heldOut.map((h) => count(of(h), use(h))))}/${sum(heldOut.map((h) => of(h).length))}`;
}).join('  ');
console.log(`pooled over the left-out sets, hand-set: ${pooledBy(() => WEIGHTS)}`);
console.log(`pooled over the left-out sets, fitted:   ${pooledBy((h) => h.weights)}`);
console.log(`\nleft-out hit@3 in total: fitted ${fittedTotal}/${all.length} vs hand-set ${handTotal}/${all.length}; fitted better on ${wins} sets, worse on ${losses}; `
  + `hit@1 fitted ${fitted1} vs hand-set ${hand1}: ${ships ? 'the fit ships' : 'hand-set weights stay'}`);

printForwardChaining();

/**
 * Forward-chaining (round 14): each of the newest sets in turn (FIT_FORWARD_FROM, default fresh-r10, to the last of SETS)
 * is judged under weights fitted only on the sets written BEFORE it (SETS order is the order they were written), less
 * every package it asks about — the closest the spent sets come to the fresh run, where the fit has seen no later set.
 * Per config, and the nested choice (the config picked by an inner leave-one-set-out on that training only). The
 * shipped weights (`hand-set`) were fitted on the sets through fresh-r11, so for them fresh-r10 and fresh-r11 are
 * in-sample; `round-10 hand-set` (nothing fitted on these sets) is the baseline that is held out everywhere.
 */
function printForwardChaining(): void {
  const names = SETS.map(([, set]) => set as string);
  const from = names.indexOf(process.env.FIT_FORWARD_FROM ?? 'fresh-r10');
  if (from < 1) return;
  const judged = names.slice(from) as SetName[];
  const before = (set: SetName) => {
    const earlier = new Set(names.slice(0, names.indexOf(set)));
    const tested = new Set(all.filter((a) => a.set === set).map((a) => a.pkg));
    return all.filter((a) => earlier.has(a.set) && !tested.has(a.pkg));
  };
  const testOf = (set: SetName) => all.filter((a) => a.set === set);
  const ecos = [...new Set(all.map((a) => a.q.ecosystem))].sort();
  const row = (label: string, weightsFor: (set: SetName) => FitWeights) => {
    const per = judged.map((set) => { const w = weightsFor(set); const t = testOf(set); return { w, t, h1: count1(t, w), h3: count(t, w) }; });
    const n = sum(per.map((p) => p.t.length));
    const byEco = ecos.map((e) => `${e} ${sum(per.map((p) => count1(p.t.filter((a) => a.q.ecosystem === e), p.w)))}/${sum(per.map((p) => count(p.t.filter((a) => a.q.ecosystem === e), p.w)))}`).join(' ');
    console.log(`  ${label.padEnd(28)} ${per.map((p) => `${p.h1}/${p.h3}`).join('  ')}  | sum ${sum(per.map((p) => p.h1))}/${sum(per.map((p) => p.h3))}/${n}, mean hit@3 ${(sum(per.map((p) => p.h3 / p.t.length)) / per.length).toFixed(3)}  (${byEco})`);
    return per;
  };
  console.log(`\nforward-chaining: fit on the sets before set k, judge on set k; hit@1/hit@3 per set (${judged.join(' ')}), sum, mean hit@3, (per ecosystem hit@1/hit@3):`);
  for (const config of CONFIGS) {
    const per = row(config.name, (set) => fit(before(set), config));
    if (config.kind !== 'fixed') console.log(`    weights per set: ${per.map((p) => shown(config, p.w, ',')).join(' | ')}`);
  }
  if (nested) {
    const chosen = new Map(judged.map((set) => [set, choose(before(set))]));
    row('nested choice', (set) => fit(before(set), chosen.get(set)!));
    console.log(`    chosen per set: ${judged.map((set) => chosen.get(set)!.name).join(' | ')}`);
  }
}

const finalConfig = nested ? choose(all) : bestConfig;
const final = fit(all, finalConfig);
console.log(`final model (${finalConfig.name}, fitted on all ${all.length}): ${final.byEcosystem ? shown(finalConfig, final, ' ') : WORD_FEATURES.map((f) => `${f}=${final[f]}`).join(' ')}`);
console.log(`final model's training figures: ${figures(all, final)} (hand-set ${figures(all, WEIGHTS)})`);
console.log(`stored reranks that met a candidate outside the stored near-duplicate pairs: ${outsideReach} look-ups (taken as no duplicate)`);

if (process.env.FIT_WRITE === '1') {
  if (!ships) console.log('not written: the fit does not beat the hand-set weights on most left-out sets and in total');
  else {
    fs.writeFileSync(OUT, `// Written by scripts/fit-docs-ranking.ts: do not edit by hand (rerun the script; it is deterministic for the same stores).
export const FITTED_DOCS = {
  source: '${finalConfig.kind === 'search' ? 'coordinate search' : 'pairwise logistic fit'} (${finalConfig.name}) on ${SETS.map(([file]) => `bench/${file}`).join(' + ')} (${all.length} questions); nested leave-one-set-out hit@3 ${fittedTotal}/${all.length} (hand-set ${handTotal}), better on ${wins} of ${SETS.length} sets, worse on ${losses}; hit@1 ${fitted1} (hand-set ${hand1})',
  weights: { ${finalConfig.features.map((f) => `${f}: ${final[f]}`).join(', ')} },
};
`);
    console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
  }
}
process.exit(0);
