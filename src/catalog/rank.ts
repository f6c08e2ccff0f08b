// Ranking: the signals blended into one score (full text, query coverage, popularity within the tool's ecosystem,
// ecosystem intent, exact name, category intent, meaning) and their weights, tuned on bench/search-tuning.tsv.
import type { Ecosystem } from './types.ts';

export const WEIGHTS = {
  text: 1.0,
  coverage: 1.5,
  /** Popularity as a percentile within the tool's own ecosystem, so no ecosystem outweighs another. */
  popularity: 3.0,
  /** Popularity enters as percentile^exponent: the difference between the 99th and the 80th percentile matters most. */
  popularityExponent: 2,
  /** The query names an ecosystem (or a framework that lives in one): tools elsewhere drop behind. */
  ecosystemIntent: 3.0,
  /**
   * The query is a tool's name: a one-word query puts that tool first; a longer one ("http client") favours it by its
   * popularity, since a phrase that happens to be an obscure package's name is usually a description, not a name.
   */
  exactName: 2.0,
  exactNameAlone: 10.0,
  category: 0.4,
  /** Taken from the framework a query names as its context ("rails" in "rails auth"). */
  cueSelf: 2.0,
  /** Cosine similarity of query and tool vectors (hybrid ranking), relative to the best candidate's. */
  semantic: 1.5,
};

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

export interface Signals {
  /** Full-text score relative to the best candidate's (0..1). */
  text: number;
  /** Weighted share of the query's terms the tool matched (0..1). */
  coverage: number;
  popularity: number;
  ecosystem: Ecosystem;
  exact: boolean;
  /** Share of the categories the query asks for that the tool is filed under (0..1). */
  category: number;
  /** Cosine similarity relative to the best candidate's (0..1), 0 without the semantic layer. */
  semantic: number;
}

export interface RankContext {
  ecosystem?: Ecosystem;
  /** A one-word query: an exact name match is what the user asked for. */
  single: boolean;
}

export function blend(s: Signals, context: RankContext): number {
  const intent = context.ecosystem ? (s.ecosystem === context.ecosystem ? 1 : -0.5) : 0;
  // Several tools can bear the name (clap on crates.io and npm): the most popular one comes first. A name in another
  // ecosystem than the one the query asks for does not outrank the intent ("rust library for sqlite").
  const named = s.exact && (!context.ecosystem || s.ecosystem === context.ecosystem);
  const exact = named ? (context.single ? WEIGHTS.exactNameAlone + 2 * s.popularity : WEIGHTS.exactName * s.popularity ** 4) : 0;
  return WEIGHTS.text * s.text + WEIGHTS.coverage * s.coverage + WEIGHTS.popularity * s.popularity ** WEIGHTS.popularityExponent
    + WEIGHTS.ecosystemIntent * intent + exact + WEIGHTS.category * s.category + WEIGHTS.semantic * s.semantic;
}
