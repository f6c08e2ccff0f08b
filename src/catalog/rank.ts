// Ranking as one declared expression: score = Σ weight[f] · feature[f] over the named features below. The weights are
// not set by hand: scripts/fit-ranking.ts fits them (pairwise logistic regression on candidate lists, k-fold
// cross-validated) on bench/search-tuning.tsv + bench/search-heldout.tsv and writes rank-weights.ts, which ships.
import { FITTED } from './rank-weights.ts';
import { treesScore, type TreeNode } from './rank-trees.ts';
import type { Ecosystem } from './types.ts';

/** The features, in the order of a feature vector. Each is 0..1 (or 0/1) so that weights compare. */
export const FEATURES = [
  /** Weighted share of the query's terms the tool matched in any field. */
  'coverage',
  /**
   * The same share per field group (round 5), so that each has its own fitted weight: the registry's name and
   * description; its README opening. A need said in a tool's README but not in its one line is matched in a field that
   * counts on its own. (Keywords and tags had one too, `keywordCoverage`, removed in round 9: below.)
   */
  'describedCoverage',
  'readmeCoverage',
  /**
   * Popularity as a percentile within the tool's own ecosystem (every ecosystem spans 0..1), squared: the difference
   * between the 99th and the 80th percentile matters most. (A linear term beside it was removed in the sixth session:
   * the pair fit a U-shaped curve that put barely used tools above middling ones, and CV was no worse without it.)
   */
  'popularitySq',
  /** The query names the tool's ecosystem (a language, or a framework that lives there). */
  'intentMatch',
  /** The query names another ecosystem. */
  'intentOther',
  /** The query is the tool's name and nothing else ("serde", "requests python"). */
  'exactAlone',
  /** ...times popularity: where several ecosystems have the name, the more popular within its own comes first. */
  'exactAlonePop',
  /** A longer query that is a tool's name ("http client"), by popularity⁴: an obscure package's name is a description. */
  'exactPhrase',
  /** Cosine of query and tool vectors, rescaled between the candidates' mean (0) and best (1). */
  'meaning',
  /** The raw cosine (absolute similarity, not relative to the other candidates). */
  'meaningRaw',
  /**
   * How many tools of its ecosystem are named after the tool (plugins, companions: `pytest-cov` for pytest), log scale
   * 0..1 within the ecosystem (namesakes.ts; round 9): the tool others build on, against a lesser literal match.
   */
  'namesakes',
  /**
   * The query is the tool's name alone and, of the tools that bear the name (one per ecosystem: a `clap` crate and a
   * `clap` npm package), it is the most popular within its own ecosystem (round 20): the namesake a person means is
   * the one that dominates its own ecosystem, which `exactAlonePop`'s small difference in percentile left to the
   * meaning of a one-word query (the word's cosine to each namesake's description, noise for a name).
   */
  'exactAloneLead',
] as const;
// Removed after the ablations (docs/search.md, "Sixth session"): 'text' (BM25 over the fields, relative to the best
// candidate's) — on the round-3 fresh set it did not pay (fit without it: hit@1 0.583 → 0.615), and on the 492 queries of
// tuning + held-out + that spent set its removal left 5-fold CV hit@1 at 0.687 → 0.689; 'contextFramework' (the hand rule that took 2 points from
// the framework a query names as context, "rails" in "rails auth") and 'familyMember' (a plugin or sub-package that is
// not its family's head): each one's removal left CV hit@1 0.770 → 0.774 and hit@5 unchanged. Families still collapse
// to their head after ranking (search-index.ts). Removed in round 5 after the round-4 fresh ablation (229 queries, each
// refit without it): 'category' (share of the categories the query asks for that the tool is filed under; fresh hit@1
// 0.716 → 0.729 without it) and 'derivative' (the name is a more popular tool's name plus words; 0.716 → 0.721).
// Removed in round 6 after the leave-one-set-out ablation (each of the five labelled sets ranked by a fit on the other
// four, trees included): 'nameCoverage' (share of the query's terms that are words of the tool's name; pooled hit@1
// 0.698 → 0.697, MRR@10 0.776 → 0.776, better on 2 of 5 left-out sets; Signals still carries it for explanations), then
// 'popularMeaning' (meaning × popularity²; without it 0.697 → 0.707 hit@1, 0.776 → 0.784 MRR@10, better on 4 of 5;
// removing `meaning` with it was worse than removing it alone: 0.697 / 0.778).
// Removed in round 9 (leave-one-set-out over eight sets, trees included, docs/search.md "Round 9"): 'keywordCoverage'
// (share of the query's terms in the tool's keywords, categories and frameworks; Signals still carries it): it paid
// nothing on four fresh sets, and the model without it was better on pooled LOSO, with and without namesakes.
export type Feature = (typeof FEATURES)[number];

/**
 * The fitted trees name features by position: a FEATURES list reordered, grown or shrunk since the fit would make them
 * read other features without any error. The fit writes the list it read (rank-weights.ts `features`); any difference
 * stops the module here. FIT_REFIT=1 (scripts/fit-ranking.ts after such a change) loads with the shipped trees dropped.
 */
export function featureOrderMismatch(fitted: readonly string[]): string | undefined {
  if (fitted.length === FEATURES.length && fitted.every((f, i) => f === FEATURES[i])) return undefined;
  return `rank-weights.ts was fitted on features [${fitted.join(', ')}] but rank.ts declares [${FEATURES.join(', ')}]: rerun scripts/fit-ranking.ts (FIT_REFIT=1)`;
}
const fittedOrder = featureOrderMismatch(FITTED.features);
if (fittedOrder && process.env.FIT_REFIT !== '1') throw new Error(fittedOrder);

/** The weights in effect: the fitted ones; benches and the fit script may replace them for a run. */
export const WEIGHTS: Record<Feature, number> = { ...Object.fromEntries(FEATURES.map((f) => [f, 0])) as Record<Feature, number>, ...FITTED.weights };

/**
 * The hand-set ranking of the fourth round, written in these features (less its `text` weight of 1.0 and its `category`
 * weight of 0.4, features since removed): the weights stage one uses to gather the candidate lists the fit learns from (scripts/fit-ranking.ts), so
 * that the fit does not depend on the previous fit.
 */
export const HAND_WEIGHTS: Record<Feature, number> = {
  coverage: 1.5, describedCoverage: 0, readmeCoverage: 0, popularitySq: 3.0, intentMatch: 3.0, intentOther: -1.5,
  exactAlone: 10, exactAlonePop: 2, exactPhrase: 2.0, meaning: 1.5, meaningRaw: 0, namesakes: 0, exactAloneLead: 0,
};

/**
 * Trees added to the linear score (a LambdaMART boost, rank-trees.ts); empty when the linear model alone ships. Benches and
 * the fit script replace them for a run, as they do WEIGHTS.
 */
export const TREES: { value: readonly TreeNode[] } = { value: fittedOrder ? [] : FITTED.trees };

/** How far below a member's score its family's head may be and still take the member's place (in score units). */
export const FAMILY_MARGIN = { value: FITTED.familyMargin };

const PLAIN_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Name forms compared for an exact match: `@tanstack/react-query` → `tanstack-react-query`, `github.com/gin-gonic/gin` → `gin`. */
export function nameForms(name: string): string[] {
  // Most names (`zod`, `serde-json`) have one form: built for every tool at each start, so without the general path.
  if (PLAIN_NAME.test(name)) return [name];
  const lower = name.toLowerCase();
  const forms = [lower, lower.replace(/^@/, '').replace('/', '-')];
  // A Go module is known by its last path element (`chi` for github.com/go-chi/chi/v5); an npm scope's last part is not
  // the package's name (`@actions/http-client` is not "http client").
  if (/^[a-z0-9.-]+\.[a-z]+\//.test(lower)) forms.push(lower.split('/').filter((part) => !/^v\d+$/.test(part)).pop() ?? lower);
  return [...new Set(forms.map((form) => form.replace(/[_.\s]+/g, '-')))];
}

/** What search knows about one candidate for one query; features() turns it into the feature vector. */
export interface Signals {
  /** Weighted share of the query's terms the tool matched (0..1). */
  coverage: number;
  /** Weighted share of the query's terms found in the tool's name (0..1); shown by explanations, not a feature since round 6. */
  nameCoverage: number;
  /** ...in its name or description, in its keywords or tags, in its README opening (0..1 each). */
  describedCoverage: number;
  keywordCoverage: number;
  readmeCoverage: number;
  popularity: number;
  ecosystem: Ecosystem;
  exact: boolean;
  /** Cosine similarity rescaled between the candidates' mean and best (0..1), 0 without the semantic layer. */
  semantic: number;
  /** Raw cosine similarity (0 without the semantic layer). */
  cosine: number;
  /** The tool is a family member, not the head (shown by the benches; not a feature since the ablation). */
  member: boolean;
  /** Tools of its ecosystem named after it, 0..1 (namesakes.ts). */
  namesakes: number;
}

export interface RankContext {
  ecosystem?: Ecosystem;
  /** A one-word query: an exact name match is what the user asked for. */
  single: boolean;
  /**
   * The highest popularity (within its own ecosystem) among the tools the query names exactly, in the ecosystem it asks
   * for when it asks for one: what `exactAloneLead` compares a named tool with. Absent: no tool is named.
   */
  namedTop?: number;
}

/** The feature vector of one candidate, in FEATURES order. */
export function features(s: Signals, context: RankContext): number[] {
  const intent = context.ecosystem !== undefined;
  const inIntent = intent && s.ecosystem === context.ecosystem;
  // A name in another ecosystem than the one the query asks for does not count as the name ("rust library for sqlite").
  const named = s.exact && (!intent || inIntent);
  return [
    s.coverage, s.describedCoverage, s.readmeCoverage, s.popularity * s.popularity,
    inIntent ? 1 : 0, intent && !inIntent ? 1 : 0,
    named && context.single ? 1 : 0, named && context.single ? s.popularity : 0, named && !context.single ? s.popularity ** 4 : 0,
    s.semantic, s.cosine, s.namesakes,
    named && context.single && s.popularity >= (context.namedTop ?? Infinity) ? 1 : 0,
  ];
}

export function score(vector: readonly number[], weights: Record<Feature, number> = WEIGHTS): number {
  let sum = 0;
  for (let i = 0; i < FEATURES.length; i++) sum += weights[FEATURES[i]!] * vector[i]!;
  return sum;
}

export function blend(s: Signals, context: RankContext, weights: Record<Feature, number> = WEIGHTS): number {
  const vector = features(s, context);
  const trees = TREES.value;
  return trees.length === 0 ? score(vector, weights) : score(vector, weights) + treesScore(trees, vector);
}
