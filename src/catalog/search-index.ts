// In-memory full-text index over the catalog (MiniSearch), rebuilt from the store whenever its revision changes.
// Why in memory: PGlite runs one query at a time, so a 10 ms SQL search queues to ~300 ms at 32 concurrent
// requests; MiniSearch answers in about a millisecond. The store stays the system of record.
import MiniSearch from 'minisearch';
import { stemmer as porterStem } from 'stemmer';
import { queryCategories } from './classify.ts';
import { parseQuery, tokenize } from './query.ts';
import { rankCandidates, type Candidate } from './rank.ts';
import type { SearchOptions, ToolRecord } from './types.ts';

interface IndexedTool {
  id: string;
  name: string;
  nameTokens: string;
  keywords: string;
  description: string;
  categories: string;
  languages: string;
  frameworks: string;
  readme: string;
}

export interface RankedHit {
  tool: ToolRecord;
  score: number;
}

const CANDIDATES = 300;

/** Indexed share of each README excerpt: past ~500 characters it added postings (slower queries), not hits. */
const README_INDEX_CHARS = 500;

/** Field weights of the full-text score; tuned with bench/search-queries.tsv. */
export const FIELD_BOOSTS = { name: 1, nameTokens: 1, keywords: 1.5, categories: 1.5, description: 1.5, frameworks: 1, languages: 0.5, readme: 0.5 };

function miniSearchOptions() {
  return {
    fields: ['name', 'nameTokens', 'keywords', 'description', 'categories', 'languages', 'frameworks', 'readme'],
    tokenize,
    processTerm: (term: string) => (term.length > 1 || /\d/.test(term) ? stem(term) : null),
    searchOptions: { boost: { ...FIELD_BOOSTS }, combineWith: 'OR' as const },
  };
}

export interface SerializedIndex {
  tools: ToolRecord[];
  index: unknown;
}

export class CatalogSearchIndex {
  private readonly bySlug = new Map<string, ToolRecord>();

  private constructor(private readonly mini: MiniSearch<IndexedTool>, tools: ToolRecord[]) {
    // README excerpts only feed the index; results never show them, so memory does not keep them.
    for (const tool of tools) {
      const { readmeExcerpt: _readme, ...extra } = tool.extra;
      this.bySlug.set(tool.slug, { ...tool, extra });
    }
  }

  static build(tools: ToolRecord[]): CatalogSearchIndex {
    const mini = new MiniSearch<IndexedTool>(miniSearchOptions());
    mini.addAll(tools.map(toIndexed));
    return new CatalogSearchIndex(mini, tools);
  }

  /** Rebuilds from toJSON() output without re-tokenising every tool (fast warm starts). */
  static fromJSON(serialized: SerializedIndex): CatalogSearchIndex {
    const mini = MiniSearch.loadJS<IndexedTool>(serialized.index as Parameters<typeof MiniSearch.loadJS>[0], miniSearchOptions());
    return new CatalogSearchIndex(mini, serialized.tools);
  }

  /** Adds or replaces a few tools in place (after an ingest batch), instead of rebuilding all 15,000. */
  upsert(tools: ToolRecord[]): void {
    for (const tool of tools) {
      const indexed = toIndexed(tool);
      if (this.mini.has(tool.slug)) this.mini.replace(indexed);
      else this.mini.add(indexed);
      const { readmeExcerpt: _readme, ...extra } = tool.extra;
      this.bySlug.set(tool.slug, { ...tool, extra });
    }
  }

  toJSON(): SerializedIndex {
    return { tools: [...this.bySlug.values()], index: this.mini.toJSON() };
  }

  get size(): number {
    return this.bySlug.size;
  }

  get(slug: string): ToolRecord | undefined {
    return this.bySlug.get(slug);
  }

  search(query: string, options: SearchOptions = {}): RankedHit[] {
    const parsed = parseQuery(query);
    const filter = (slug: string) => {
      const tool = this.bySlug.get(slug);
      if (!tool) return false;
      if (options.ecosystem && tool.ecosystem !== options.ecosystem) return false;
      if (options.language && !tool.languages.some((l) => l.toLowerCase() === options.language!.toLowerCase())) return false;
      if (options.category && !tool.categories.includes(options.category.toLowerCase())) return false;
      return true;
    };
    const filtered = Boolean(options.ecosystem || options.language || options.category);
    const hits = this.mini
      .search(parsed.terms.join(' '), filtered ? { filter: (result) => filter(result.id as string) } : {})
      .slice(0, CANDIDATES);
    const wanted = queryCategories(query);
    const candidates: Candidate[] = hits.map((hit) => {
      const tool = this.bySlug.get(hit.id as string)!;
      return {
        slug: tool.slug, name: tool.name, ecosystem: tool.ecosystem, popularity: tool.popularity,
        textScore: hit.score, matchedTerms: new Set(hit.queryTerms).size,
        categoryMatch: wanted.length ? wanted.filter((c) => tool.categories.includes(c)).length / wanted.length : 0,
      };
    });
    const ranked = rankCandidates(candidates, {
      termCount: new Set(parsed.terms.map(stem)).size, ecosystem: parsed.ecosystem, nameGuess: parsed.nameGuess,
    });
    return ranked.slice(0, options.limit ?? 10).map((hit) => ({ tool: this.bySlug.get(hit.slug)!, score: hit.score }));
  }
}

function toIndexed(tool: ToolRecord): IndexedTool {
  return {
    id: tool.slug,
    name: tool.name.toLowerCase(),
    nameTokens: tokenize(tool.name.replace(/^github\.com\/|^golang\.org\/x\//, '')).join(' '),
    keywords: tool.keywords.join(' '),
    description: tool.description,
    categories: tool.categories.join(' '),
    languages: tool.languages.join(' '),
    frameworks: tool.frameworks.join(' '),
    readme: typeof tool.extra.readmeExcerpt === 'string' ? tool.extra.readmeExcerpt.slice(0, README_INDEX_CHARS) : '',
  };
}

/** Porter stemming (the `stemmer` package): "validation", "validate" and "validator" all become "valid". */
export function stem(term: string): string {
  return /^[a-z]+$/.test(term) && term.length > 3 ? porterStem(term) : term;
}
