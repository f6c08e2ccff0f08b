// Ranking quality of the directory search on labelled queries: hit@1, hit@5 and MRR@10 per ecosystem,
// with and without a named language, for tooldex (hybrid), tooldex lexical-only and a plain BM25 baseline.
import fs from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { toSlug, ecosystemFromAlias } from '../src/catalog/slug.ts';
import type { Ecosystem, ToolRecord } from '../src/catalog/types.ts';

export interface LabelledQuery {
  query: string;
  /** Ecosystem the writer had in mind (the answers may span several). */
  ecosystem: Ecosystem;
  /** Whether the query names a language or ecosystem ("in python", "rust", "gem"). */
  named: boolean;
  acceptable: Set<string>;
  /** `60k`: none of its answers was in the 15,055-tool catalog of the previous round. */
  catalog?: string;
  /** The file it came from (its base name): folds and reports keep the sets apart. */
  set: string;
  /** Its weight in the ranking fit (1 when absent): pseudo-queries from the catalog weigh less (search-pseudo.ts). */
  weight?: number;
  /** Fit on, never ranked as a left-out set (pseudo-queries: nobody wrote them). */
  trainOnly?: boolean;
}

export const HELDOUT_FILE = path.join(import.meta.dirname, 'search-heldout.tsv');
export const TUNING_FILE = path.join(import.meta.dirname, 'search-tuning.tsv');
/**
 * The round-3 fresh set: run once at the end of that round, now spent, so it is training data like the two above (any
 * figure on it is a tuning figure).
 */
export const ROUND3_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh.tsv');
/** The round-4 fresh set (229 queries): run once at the end of that round, now spent and training data. */
export const ROUND4_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r4.tsv');
/** The round-5 fresh set (256 queries): run once at the end of that round, now spent and training data. */
export const ROUND5_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r5.tsv');
/** The round-6 fresh set (249 queries, 84 naming no language): run once at the end of that round, now spent and training data. */
export const ROUND6_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r6.tsv');
/** The round-7 fresh set (259 queries, 83 naming no language): run once at the end of that round, now spent and training data. */
export const ROUND7_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r7.tsv');
/**
 * The round-8 fresh set (272 queries, 92 naming no language): run once at the end of that round, now spent and training
 * data. The current round's fresh set is never listed here: it is run once, at the end.
 */
export const ROUND8_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r8.tsv');
/** The round-9 fresh set (282 queries, 91 naming no language): run once at the end of round 9, now spent and training data. */
export const ROUND9_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r9.tsv');
/** The round-10 fresh set (295 queries, 95 naming no language): run once at the end of round 10, now spent and training data. */
export const ROUND10_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r10.tsv');
/** The round-11 fresh set (297 queries, 118 naming no language): run once at the end of round 11, now spent and training data. */
export const ROUND11_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r11.tsv');
/** The round-12 fresh set (310 queries, 92 naming no language): run once at the end of round 12, now spent and training data. */
export const ROUND12_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r12.tsv');
/** The round-13 fresh set (268 queries, 95 naming no language): run once at the end of round 13, now spent and training data. */
export const ROUND13_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r13.tsv');
/** The round-14 fresh set (289 queries, 106 naming no language): run once at the end of round 14, now spent and training data. */
export const ROUND14_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r14.tsv');
/** The round-15 fresh set (282 queries, 108 naming no language): run once at the end of round 15, now spent and training data. */
export const ROUND15_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r15.tsv');
/** The round-16 fresh set (272 queries, 85 naming no language): run once at the end of round 16, now spent and training data. */
export const ROUND16_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r16.tsv');
/** The round-17 fresh set (273 queries, 87 naming no language): run once at the end of round 17, now spent and training data. */
export const ROUND17_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r17.tsv');
/** The round-18 fresh set (288 queries, 86 naming no language): run once at the end of round 18, now spent and training data. */
export const ROUND18_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r18.tsv');
/** The round-19 fresh set (280 queries, 89 naming no language): run once at the end of round 19, now spent and training data. */
export const ROUND19_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r19.tsv');
/**
 * The round-20 fresh set (283 queries, 103 naming no language): run once at the end of round 20, now spent and training
 * data, and the newest set written apart, so it is also measured apart (fit without it, ranked with that fit).
 */
export const SPENT_FRESH_FILE = path.join(import.meta.dirname, 'search-fresh-r20.tsv');
/** Every labelled file the ranking is fit and validated on (5,176 queries), one per writer/round: the leave-one-set-out folds. */
export const TRAINING_FILES = [TUNING_FILE, HELDOUT_FILE, ROUND3_FRESH_FILE, ROUND4_FRESH_FILE, ROUND5_FRESH_FILE, ROUND6_FRESH_FILE, ROUND7_FRESH_FILE, ROUND8_FRESH_FILE, ROUND9_FRESH_FILE, ROUND10_FRESH_FILE, ROUND11_FRESH_FILE, ROUND12_FRESH_FILE, ROUND13_FRESH_FILE, ROUND14_FRESH_FILE, ROUND15_FRESH_FILE, ROUND16_FRESH_FILE, ROUND17_FRESH_FILE, ROUND18_FRESH_FILE, ROUND19_FRESH_FILE, SPENT_FRESH_FILE];
/**
 * Whether a set's queries may be written out one by one (misses, `QUICK_OUT` rows with their top 5 and answers): only
 * the training files, not the held-out set (for reporting, not tuning), and never a current or next round's fresh set
 * (`*fresh-r21*`, `*fresh-r22*`), whatever path it is given by.
 */
export function queriesPrintable(file: string): boolean {
  const resolved = path.resolve(file);
  return TRAINING_FILES.includes(resolved) && resolved !== HELDOUT_FILE && !/fresh-r(21|22)(\D|$)/.test(path.basename(resolved));
}

/** Answers are written `npm:@scope/name` (turned into slugs here) or as slugs. */
function answerSlug(answer: string): string {
  const colon = answer.indexOf(':');
  const ecosystem = colon > 0 ? ecosystemFromAlias(answer.slice(0, colon)) : undefined;
  return ecosystem ? toSlug(ecosystem, answer.slice(colon + 1)) : answer;
}

/** A labelled set: comment lines (`#`) at the top, a header naming at least `query` and `acceptable`, then rows. */
export function loadLabelledQueries(file: string): LabelledQuery[] {
  const [header = '', ...lines] = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line && !line.startsWith('#'));
  const columns = header.split('\t');
  // A set read with the wrong header scores every query 0 without a word: refuse it instead.
  for (const required of ['query', 'acceptable']) {
    if (!columns.includes(required)) throw new Error(`${file}: the header has no '${required}' column (${columns.join(', ')})`);
  }
  const cell = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? '';
  return lines.map((line) => {
    const cells = line.split('\t');
    return {
      query: cell(cells, 'query'),
      ecosystem: cell(cells, 'ecosystem') as Ecosystem,
      named: cell(cells, 'named') === 'y',
      acceptable: new Set(cell(cells, 'acceptable').split(',').map((s) => s.trim()).filter(Boolean).map(answerSlug)),
      catalog: cell(cells, 'catalog') || undefined,
      set: path.basename(file, '.tsv'),
    };
  });
}

/** Acceptable answers the catalog does not hold (a labelled set must only name tools that exist). */
export function absentAnswers(queries: LabelledQuery[], slugs: Set<string>): string[] {
  return [...new Set(queries.flatMap((q) => [...q.acceptable].filter((slug) => !slugs.has(slug))))];
}

export interface QualityReport {
  queries: number;
  hitAt1: number;
  hitAt5: number;
  mrrAt10: number;
  misses: string[];
}

export type Ranker = (query: string) => string[] | Promise<string[]>;

export async function evaluate(queries: LabelledQuery[], rank: Ranker): Promise<QualityReport> {
  let hit1 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const { query, acceptable } of queries) {
    const slugs = (await rank(query)).slice(0, 10);
    const position = slugs.findIndex((slug) => acceptable.has(slug));
    if (position === 0) hit1++;
    if (position >= 0 && position < 5) hit5++;
    else misses.push(`${query} → ${slugs.slice(0, 3).join(', ')}`);
    if (position >= 0) reciprocal += 1 / (position + 1);
  }
  const n = Math.max(1, queries.length);
  return { queries: queries.length, hitAt1: hit1 / n, hitAt5: hit5 / n, mrrAt10: reciprocal / n, misses };
}

/** The slices every figure is reported on: overall, each ecosystem, named language or not. */
export function slices(queries: LabelledQuery[]): Array<[string, LabelledQuery[]]> {
  const out: Array<[string, LabelledQuery[]]> = [['all', queries]];
  for (const ecosystem of ['npm', 'pypi', 'crates', 'go', 'rubygems'] as const) {
    out.push([ecosystem, queries.filter((q) => q.ecosystem === ecosystem)]);
  }
  out.push(['named', queries.filter((q) => q.named)], ['unnamed', queries.filter((q) => !q.named)]);
  return out.filter(([, set]) => set.length > 0);
}

/** The baseline: BM25 over name + registry description, no query understanding, no popularity. */
export function baselineRanker(tools: ToolRecord[]): Ranker {
  const mini = new MiniSearch<{ id: string; name: string; description: string }>({ fields: ['name', 'description'] });
  mini.addAll(tools.map((tool) => ({ id: tool.slug, name: tool.name, description: tool.description })));
  return (query) => mini.search(query, { combineWith: 'OR' }).slice(0, 10).map((hit) => String(hit.id));
}
