// The catalog capability: ranked search over the tool directory, tool lookup and slug resolution.
// Knows nothing of HTTP, MCP or terminals; surfaces call these functions and encode what they return.
import { LRUCache } from 'lru-cache';
import type { Logger } from '../log.ts';
import { ToolDexError } from '../errors.ts';
import type { Store } from '../store/index.ts';
import { docsUrlOf, ecosystemIcon, installCommand, registryPage } from './links.ts';
import { allTools, catalogRevision, closestSlugs, getTools, storeNow, toolsChangedSince } from './repository.ts';
import type { Embedder } from '../semantic/index.ts';
import type { IndexCache } from './index-cache.ts';
import { CatalogSearchIndex, DELTA_LIMIT } from './search-index.ts';
import { addMissing, DEFAULT_VECTORS, loadToolVectors, type ToolVectorIndexes } from './tool-vectors.ts';
import { candidateSlugs } from './slug.ts';
import type { SearchOptions, ToolRecord, ToolResult } from './types.ts';

export type { Ecosystem, SearchOptions, ToolRecord, ToolResult } from './types.ts';
export { ECOSYSTEMS } from './types.ts';

export const MAX_QUERY_LENGTH = 1000;
export const MAX_SEARCH_LIMIT = 50;

export interface Catalog {
  search(query: string, options?: SearchOptions): Promise<{ results: ToolResult[] }>;
  /** Resolves any spelling (`zod`, `npm:zod`, `@scope/name`, `NPM-Zod`) to the tool, or throws not_found with hints. */
  resolve(input: string): Promise<ToolRecord>;
  /** Brings the in-memory index up to date when the store's catalog revision moved (another instance or an ingest wrote). */
  refresh(): Promise<boolean>;
  /** Resolves once the semantic layer is in (or known to be off); searches before that rank lexically. */
  semanticReady(): Promise<void>;
  /** Whether searches rank by meaning too (the semantic layer is in). */
  semanticOn(): boolean;
  size(): number;
  close(): void;
}

export interface CatalogOptions {
  /** Poll the store's catalog revision this often and update the index when it moved (other instances, ingest). */
  watchMs?: number;
  /** Keep a derived copy of the index here for fast warm starts. */
  cache?: IndexCache;
  /** Ranked answers kept in memory until the catalog changes; 0 turns the answer cache off. */
  answerCacheSize?: number;
  /** The whole catalog as just written to the store (first start), so it need not be read back. */
  initialTools?: ToolRecord[];
  /**
   * The semantic layer's embedder (null or absent: lexical ranking only). A promise is awaited in the background:
   * the catalog answers lexically from the first moment and by meaning as soon as the model and tool vectors are in.
   */
  embedder?: Embedder | null | Promise<Embedder | null>;
  /** Tool vectors shipped with the snapshot (default data/catalog-vectors.bin). */
  vectorsFile?: string;
}

export async function createCatalog(store: Store, logger: Logger, options: CatalogOptions = {}): Promise<Catalog> {
  let revision = await catalogRevision(store);
  const loadIndex = async (at: number, known?: ToolRecord[]) => {
    const started = Date.now();
    const cached = options.cache?.load(at);
    if (cached) {
      logger.info({ tools: cached.size, ms: Date.now() - started }, 'catalog index loaded from cache');
      return cached;
    }
    const built = CatalogSearchIndex.build(known?.length ? known : await allTools(store));
    logger.info({ tools: built.size, ms: Date.now() - started }, 'catalog index built');
    try {
      options.cache?.save(at, built);
    } catch (err) {
      logger.warn({ err }, 'could not write the search index cache');
    }
    return built;
  };
  // Agents repeat queries; a ranked answer is reused until the catalog changes (the cache is dropped on rebuild).
  const answers = options.answerCacheSize === 0 ? undefined
    : new LRUCache<string, { results: ToolResult[] }>({ max: options.answerCacheSize ?? 2000 });
  let index = await loadIndex(revision, options.initialTools);
  let embedder: Embedder | undefined;
  let vectors: ToolVectorIndexes | undefined;
  const semanticReady = (async () => {
    await new Promise((resolve) => setImmediate(resolve)); // after start-up, not during it
    index.warm();
    const loaded = await options.embedder;
    if (!loaded) return;
    const started = Date.now();
    const built = await loadToolVectors(loaded, index, options.vectorsFile ?? DEFAULT_VECTORS, logger);
    index.vectors = built;
    index.warm();
    [embedder, vectors] = [loaded, built];
    answers?.clear();
    logger.info({ vectors: built.all.size, head: built.head.size, model: loaded.id, ms: Date.now() - started }, 'tool vectors ready');
  })().catch((err: unknown) => logger.warn({ err }, 'semantic layer unavailable; ranking lexically'));
  let refreshing: Promise<boolean> | undefined;

  // Changes are picked up incrementally: tools written since the last sync (less a margin for transactions that
  // started earlier but committed later) replace their entries in place; only a large change rebuilds everything.
  let syncedAt = await storeNow(store);
  const SYNC_MARGIN_MS = 5 * 60_000;

  async function rebuild(): Promise<boolean> {
    const current = await catalogRevision(store);
    if (current === revision) return false;
    const started = Date.now();
    const now = await storeNow(store);
    // Rows inside the margin that the index already holds unchanged (e.g. the snapshot just seeded at first start)
    // are not changes: re-reading and re-embedding 70,000 of them took most of a minute.
    const changed = (await toolsChangedSince(store, new Date(syncedAt.getTime() - SYNC_MARGIN_MS)))
      .filter((tool) => !index.holds(tool));
    if (changed.length + index.pendingChanges > DELTA_LIMIT) {
      index = await loadIndex(current);
      index.vectors = vectors;
    } else index.upsert(changed);
    // A changed tool's text may have changed: its vector is computed again.
    if (embedder && vectors) await addMissing(embedder, changed, vectors);
    index.warm();
    revision = current;
    syncedAt = now;
    answers?.clear();
    logger.info({ tools: index.size, changed: changed.length, revision, ms: Date.now() - started }, 'catalog index refreshed');
    return true;
  }
  const refresh = () => (refreshing ??= rebuild().finally(() => (refreshing = undefined)));

  const timer = options.watchMs ? setInterval(() => void refresh().catch((err) => logger.warn({ err }, 'catalog refresh failed')), options.watchMs) : undefined;
  timer?.unref();

  return {
    async search(query, searchOptions = {}) {
      if (!query.trim()) throw new ToolDexError('invalid_query', 422, 'Query "q" is empty; say what the tool should do.');
      if (query.length > MAX_QUERY_LENGTH) {
        throw new ToolDexError('invalid_query', 422, `Query "q" is ${query.length} characters; the limit is ${MAX_QUERY_LENGTH}.`);
      }
      const semantic = Boolean(embedder && vectors) && searchOptions.semantic !== false;
      const key = JSON.stringify([query.trim().toLowerCase(), searchOptions.limit ?? 10, searchOptions.ecosystem ?? '',
        searchOptions.language?.toLowerCase() ?? '', searchOptions.category?.toLowerCase() ?? '', semantic]);
      const cached = answers?.get(key);
      if (cached) return cached;
      let queryVector: Float32Array | undefined;
      if (semantic) {
        try {
          queryVector = (await embedder!.embed([index.embeddingText(query).trim().toLowerCase()], 'query'))[0];
        } catch (err) {
          logger.warn({ err }, 'query embedding failed; ranking this query lexically');
        }
      }
      const answer = { results: index.search(query, searchOptions, queryVector).map((hit) => toResult(hit.tool, hit.score)) };
      answers?.set(key, answer);
      return answer;
    },
    async resolve(input) {
      const { explicit, slugs } = candidateSlugs(input);
      const found = slugs.map((slug) => index.get(slug)).filter((tool): tool is ToolRecord => Boolean(tool));
      // The index may lag a just-finished ingest by one refresh interval; the store is the system of record.
      const tools = found.length > 0 ? found : await getTools(store, slugs);
      if (tools.length > 0) return tools.sort((a, b) => b.popularity - a.popularity)[0]!;
      const name = explicit ? input.slice(input.indexOf(':') + 1) : input;
      const hints = await closestSlugs(store, name.trim());
      throw new ToolDexError('not_found', 404,
        `No tool "${input}" in the directory.${hints.length ? ` Closest: ${hints.join(', ')}.` : ' Search with GET /tools/search?q=….'}`,
        { hints });
    },
    refresh,
    semanticReady: () => semanticReady,
    semanticOn: () => Boolean(embedder && vectors),
    size: () => index.size,
    close: () => timer && clearInterval(timer),
  };
}

export function toResult(tool: ToolRecord, score = 0): ToolResult {
  return {
    id: tool.slug,
    name: tool.name,
    description: tool.description,
    shortDescription: tool.shortDescription,
    languages: tool.languages,
    frameworks: tool.frameworks,
    categories: tool.categories,
    slug: tool.slug,
    updatedAt: tool.updatedAt,
    image: ecosystemIcon(tool.ecosystem),
    ecosystem: tool.ecosystem,
    version: tool.version,
    license: tool.license,
    popularity: Math.round(tool.popularity * 1000) / 1000,
    install: installCommand(tool.ecosystem, tool.name),
    docsUrl: docsUrlOf(tool),
    registryUrl: registryPage(tool.ecosystem, tool.name),
    score: Math.round(score * 1000) / 1000,
  };
}
