// In-memory full-text index over the catalog (MiniSearch), rebuilt from the store whenever its revision changes.
// Why in memory: PGlite runs one query at a time, so a 10 ms SQL search queues to ~300 ms at 32 concurrent
// requests; MiniSearch answers in about a millisecond. The store stays the system of record.
import MiniSearch from 'minisearch';
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

export class CatalogSearchIndex {
  private readonly mini: MiniSearch<IndexedTool>;
  private readonly bySlug = new Map<string, ToolRecord>();

  constructor(tools: ToolRecord[]) {
    this.mini = new MiniSearch<IndexedTool>({
      fields: ['name', 'nameTokens', 'keywords', 'description', 'categories', 'languages', 'frameworks', 'readme'],
      tokenize,
      processTerm: (term) => (term.length > 1 || /\d/.test(term) ? stem(term) : null),
      searchOptions: {
        boost: { name: 5, nameTokens: 3, keywords: 2, categories: 1.5, description: 1, frameworks: 1, languages: 0.5, readme: 0.5 },
        combineWith: 'OR',
        fuzzy: false,
        prefix: false,
        weights: { fuzzy: 0.3, prefix: 0.4 },
      },
    });
    this.mini.addAll(tools.map((tool) => this.toIndexed(tool)));
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
    const candidates: Candidate[] = hits.map((hit) => {
      const tool = this.bySlug.get(hit.id as string)!;
      return {
        slug: tool.slug, name: tool.name, ecosystem: tool.ecosystem, popularity: tool.popularity,
        textScore: hit.score, matchedTerms: new Set(hit.queryTerms).size,
      };
    });
    const ranked = rankCandidates(candidates, {
      termCount: new Set(parsed.terms.map(stem)).size, ecosystem: parsed.ecosystem, nameGuess: parsed.nameGuess,
    });
    return ranked.slice(0, options.limit ?? 10).map((hit) => ({ tool: this.bySlug.get(hit.slug)!, score: hit.score }));
  }

  private toIndexed(tool: ToolRecord): IndexedTool {
    this.bySlug.set(tool.slug, tool);
    return {
      id: tool.slug,
      name: tool.name.toLowerCase(),
      nameTokens: tokenize(tool.name.replace(/^github\.com\/|^golang\.org\/x\//, '')).join(' '),
      keywords: tool.keywords.join(' '),
      description: tool.description,
      categories: tool.categories.join(' '),
      languages: tool.languages.join(' '),
      frameworks: tool.frameworks.join(' '),
      readme: typeof tool.extra.readmeExcerpt === 'string' ? tool.extra.readmeExcerpt : '',
    };
  }
}

/** A light plural/verb-form stemmer: "schemas"→"schema", "passwords"→"password", "hashing"→"hash". */
export function stem(term: string): string {
  if (term.length <= 4) return term;
  if (term.endsWith('ies')) return `${term.slice(0, -3)}y`;
  if (term.endsWith('ing') && term.length > 6) return term.slice(0, -3);
  if (term.endsWith('es') && /(ss|sh|ch|x)es$/.test(term)) return term.slice(0, -2);
  if (term.endsWith('s') && !term.endsWith('ss') && !term.endsWith('us')) return term.slice(0, -1);
  return term;
}
