// The docs capability: answers questions from a tool's own published docs (any version, indexed on demand)
// and builds its context. Knows nothing of HTTP, MCP or terminals; surfaces call search() and context().
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import type { Catalog, ToolRecord } from '../catalog/index.ts';
import { registryPage } from '../catalog/links.ts';
import { parseSlugReference } from '../catalog/slug.ts';
import type { Config } from '../config.ts';
import { ToolDexError, isToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Embedder } from '../semantic/index.ts';
import type { Store } from '../store/index.ts';
import { buildContext, type StoredFacts } from './context.ts';
import { EXTRACTION_IDLE, warmExtraction } from './extraction.ts';
import { Foreground } from './foreground.ts';
import { createIngestor, docsUrlFor } from './ingest.ts';
import { IngestScheduler } from './ingest-scheduler.ts';
import { LINKS } from './links.ts';
import { createPackageIndexes, indexStamp, type PackageIndex } from './package-index.ts';
import { rankPassages, type IndexedPassage } from './rank.ts';
import { checkedMaxTokens, fitPassages, fitSymbol, tokensOf, type Pointer } from './budget.ts';
import { lookupSymbol, MAX_SYMBOL, symbolSegments } from './symbol.ts';
import { flagsOfPassage } from './untrusted.ts';
import { createDocsSemantic, RERANK_DEPTH } from './semantic.ts';
import { createPassageVectorStore } from './vector-store.ts';
import { getReleases, newestReady, saveReleases, topToolSlugs, type ReleaseRow, type VersionRow } from './repository.ts';
import { MAX_DOCS_LIMIT, MAX_DOCS_QUERY, type Docs, type DocsCoverage, type DocsPassage, type DocsResult, type DocsSymbolResult, type PassageLink, type ToolContext } from './schema.ts';
import { sourceFor } from './sources/index.ts';
import { queryTerms } from './tokens.ts';
import { resolveVersion } from './versions.ts';

export type { Docs, DocsResult, DocsSymbolResult, ToolContext } from './schema.ts';

export interface DocsDeps {
  config: Config;
  store: Store;
  logger: Logger;
  catalog: Catalog;
  /** The shared semantic component's word-level embedder (the static model); null: no related-word expansion. */
  embedder?: Embedder | null;
  /** The shared semantic component's sentence encoder (transformer or endpoint); null: no whole-text comparison. */
  encoder?: Embedder | null;
  /** Per-registry slots, deadlines, failure backoff, draining (made here with defaults when not given). */
  scheduler?: IngestScheduler;
}

interface Served {
  tool: ToolRecord;
  row: VersionRow;
  latest: string;
  stale: boolean;
}

export interface DocsCapability extends Docs {
  /** Resolves when every version answered so far is in the store (its passages are written after its first answer). */
  stored(): Promise<void>;
  /** Resolves and indexes a tool version without a question (pre-indexing, `ingest --docs`). */
  prepare(slugReference: string): Promise<{ slug: string; version: string; passages: number }>;
}

export function createDocs(deps: DocsDeps): DocsCapability {
  const scheduler = deps.scheduler ?? new IngestScheduler(deps);
  const background = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const guarded = scheduler.background('docs background work', work).catch((err) => deps.logger.warn({ err }, 'docs background work failed')).finally(() => background.delete(guarded));
    background.add(guarded);
  };
  // The encoder's thread (its model session, a few hundred ms to start, seconds under load) starts while a package is
  // downloaded and parsed for its first question, whose candidates it will embed next.
  const warmEncoder = () => deps.encoder?.warm?.();
  // A first question's ingestion and package index are held as foreground: background embedding yields to them.
  const foreground = new Foreground();
  const packageIndexes = createPackageIndexes(deps.store, deps.config.TOOLDEX_DOCS_INDEX_CACHE, deps.logger);
  // A version just indexed is searched from the passages ingestion wrote, not read back from the store.
  const indexed = (row: VersionRow, passages: IndexedPassage[]) => packageIndexes.seed(row.slug, row.version, indexStamp(row), passages);
  // Questions being answered: a version's store write waits until none has been for STORE_QUIET_MS (up to
  // STORE_WAIT_MS), so that a first question, and the ones a client asks right after it, are answered from the passages
  // in memory without the write (seconds of the event loop and of a core on PGlite) in their way.
  const answering = new Foreground();
  const answered = async () => {
    const until = Date.now() + STORE_WAIT_MS;
    const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
    do {
      await Promise.race([answering.clear(), pause(until - Date.now())]);
      await pause(Math.min(STORE_QUIET_MS, until - Date.now()));
    } while (answering.busy && Date.now() < until);
  };
  const ingestor = createIngestor({ ...deps, track, scheduler, warm: warmEncoder, foreground, indexed, answered });
  const indexes = { get: (slug: string, version: string, stamp: string) => foreground.hold(packageIndexes.get(slug, version, stamp)) };
  EXTRACTION_IDLE.ms = deps.config.TOOLDEX_DOCS_EXTRACTION_IDLE_MS;
  // The memory docs keep, said once at start (docs/semantic.md, "Memory", lists every cache and its setting).
  deps.logger.info({ packageIndexes: deps.config.TOOLDEX_DOCS_INDEX_CACHE, queryVectors: deps.config.TOOLDEX_SEMANTIC_CACHE,
    encoderThreads: deps.encoder?.kind === 'transformer' ? deps.config.TOOLDEX_SEMANTIC_ENCODER_THREADS : 0 }, 'docs caches');
  const semantic = createDocsSemantic(deps.embedder ?? null, deps.encoder ?? null, deps.logger, createPassageVectorStore(deps.store),
    { owner: scheduler.instanceId, queueBound: deps.config.TOOLDEX_SEMANTIC_ENCODER_QUEUE, waitBoundMs: deps.config.TOOLDEX_SEMANTIC_ENCODER_WAIT_MS,
      yieldTo: () => foreground.clear(), unstored: (index) => ingestor.storing(index.slug, index.version) });
  const revalidating = new Map<string, Promise<ReleaseRow | undefined>>();
  const refreshMs = () => deps.config.TOOLDEX_DOCS_REFRESH_HOURS * 3600_000;
  // Later questions skip two store round trips: release lists and ready version rows are kept a few seconds.
  const hot = new Map<string, { at: number; releases?: ReleaseRow; row?: VersionRow }>();
  const HOT_MS = 5000;
  const hotGet = (key: string) => {
    const entry = hot.get(key);
    return entry && Date.now() - entry.at < HOT_MS ? entry : undefined;
  };
  const hotSet = (key: string, value: { releases?: ReleaseRow; row?: VersionRow }) => {
    if (hot.size > 2000) hot.clear();
    hot.set(key, { at: Date.now(), ...value });
  };

  async function fetchReleases(tool: ToolRecord): Promise<ReleaseRow | undefined> {
    let pending = revalidating.get(tool.slug);
    if (!pending) {
      pending = (async () => {
        const releases = await sourceFor(deps.config, tool.ecosystem).releases(tool.name);
        if (!releases) return undefined;
        await saveReleases(deps.store, tool.slug, releases);
        hot.delete(`releases:${tool.slug}`);
        return { ...releases, checkedAt: new Date() };
      })().finally(() => revalidating.delete(tool.slug));
      revalidating.set(tool.slug, pending);
    }
    return pending;
  }

  /** Stale-while-revalidate: a newer latest found in the background is indexed in the background too. */
  const failedChecks = new Map<string, number>();
  function revalidate(tool: ToolRecord, known: ReleaseRow): void {
    // A registry that just failed is not asked again on every request; one try a minute per tool.
    if (revalidating.has(tool.slug) || Date.now() - (failedChecks.get(tool.slug) ?? 0) < 60_000) return;
    track(fetchReleases(tool).then(async (fresh) => {
      failedChecks.delete(tool.slug);
      if (fresh && fresh.latest !== known.latest) await ingestor.ensureIndexed(tool, fresh.latest);
    }, (error: unknown) => {
      if (failedChecks.size > 10_000) failedChecks.clear();
      failedChecks.set(tool.slug, Date.now());
      throw error;
    }));
  }

  async function serve(slugReference: string): Promise<Served> {
    const reference = parseSlugReference(slugReference);
    const tool = await deps.catalog.resolve(reference.tool);
    let releases = hotGet(`releases:${tool.slug}`)?.releases ?? await getReleases(deps.store, tool.slug);
    if (releases) hotSet(`releases:${tool.slug}`, { releases });
    let stale = false;
    const deadlineAt = scheduler.deadline(); // one slow registry answers in time: stale docs or 503, never a long wait
    if (!releases) {
      // A tool asked about for the first time: its docs are about to be indexed, so the extraction thread and this
      // ecosystem's parsers start loading now, beside the release list's round trip, not after it.
      warmExtraction(tool.ecosystem, deps.logger);
      warmEncoder();
      try {
        releases = await scheduler.within(deadlineAt, scheduler.call(tool.ecosystem, () => fetchReleases(tool)), `The release list of ${tool.name}`);
      } catch (error) {
        return serveCached(tool, reference.version, error);
      }
      if (!releases) throw new ToolDexError('not_found', 404, `${tool.name} is in the directory but its registry does not list it (removed or renamed?).`, { hints: [] });
    } else if (Date.now() - releases.checkedAt.getTime() >= refreshMs()) {
      stale = true;
      revalidate(tool, releases);
    }
    let version: string;
    try {
      version = resolveVersion(releases, reference.version, tool.name);
    } catch (error) {
      // A version published since the last check: look again once, synchronously.
      if (!isToolDexError(error) || error.code !== 'version_not_found' || Date.now() - releases.checkedAt.getTime() < 60_000) throw error;
      const fresh = await fetchReleases(tool).catch(() => undefined);
      if (!fresh) throw error;
      releases = fresh;
      stale = false;
      version = resolveVersion(fresh, reference.version, tool.name);
    }
    try {
      const key = `row:${tool.slug}@${version}`;
      const row = hotGet(key)?.row ?? await scheduler.within(deadlineAt, ingestor.ensureIndexed(tool, version), `Indexing the docs of ${tool.name}@${version}`);
      if (row.siteStatus !== 'pending') hotSet(key, { row }); // a crawl still running will add passages
      return { tool, row, latest: releases.latest, stale };
    } catch (error) {
      return serveCached(tool, reference.version, error);
    }
  }

  /** Registry down: the newest indexed version, marked stale, when the client did not pin one; else 503. */
  async function serveCached(tool: ToolRecord, pinned: string | undefined, error: unknown): Promise<Served> {
    if (!isToolDexError(error) || error.code !== 'upstream_unavailable') throw error;
    const cached = pinned && pinned !== 'latest' ? undefined : await newestReady(deps.store, tool.slug);
    if (!cached) throw error;
    deps.logger.warn({ slug: tool.slug, err: error }, 'registry unreachable; serving cached docs');
    return { tool, row: cached, latest: cached.version, stale: true };
  }

  const docs: DocsCapability = {
    async search(slugReference, query, options = {}): Promise<DocsResult> {
      const question = query.trim();
      if (!question) throw new ToolDexError('invalid_query', 422, 'Query "q" is empty; ask a question about the tool.');
      if (question.length > MAX_DOCS_QUERY) throw new ToolDexError('invalid_query', 422, `Query "q" is ${question.length} characters; the limit is ${MAX_DOCS_QUERY}.`);
      const maxTokens = checkedMaxTokens(options.maxTokens);
      // With a budget, the budget says how many passages go whole (unless limit does), and the ranking goes deeper for pointers.
      const limit = Math.min(Math.max(options.limit ?? (maxTokens ? MAX_DOCS_LIMIT : 5), 1), MAX_DOCS_LIMIT);
      const depth = maxTokens ? POINTER_DEPTH : limit;
      const began = performance.now();
      const { tool, row, latest, stale } = await serve(slugReference);
      const served = performance.now();
      const index = await indexes.get(tool.slug, row.version, indexStamp(row));
      const indexed = performance.now();
      const identifiers = queryTerms(question).identifiers;
      // With a sentence encoder, two passes: words pick the candidates, whose meaning is then compared with the question
      // (the candidates are ranked only then: not for a question ranked by words alone under back-pressure).
      const lexicalTop = () => rankPassages(index.passages, index.lexical, question, { limit: RERANK_DEPTH, identifiers }).map((p) => p.doc);
      const meaning = await semantic.meaning(index, question, lexicalTop);
      const compared = performance.now();
      const ranked = rankPassages(index.passages, index.lexical, question, {
        limit: depth, identifiers, related: meaning.related, uses: (doc) => index.links?.[doc]?.uses ?? [],
        ...(meaning.similarity ? { semantic: meaning.similarity } : {}),
        ...(options.observe ? { observe: options.observe } : {}),
      });
      // Where a question's time goes (debug): the version served (a first question indexes it here), its package
      // index read and built, meaning (a first question embeds its candidates), the ranking (bench/docs-first.ts).
      deps.logger.debug({ slug: tool.slug, version: row.version, serveMs: served - began, indexMs: indexed - served,
        meaningMs: compared - indexed, rankMs: performance.now() - compared, ranking: meaning.ranking }, 'docs answered');
      const envelope = {
        slug: tool.slug,
        docsUrl: row.docsUrl ?? docsUrlFor(tool),
        query: question,
        version: row.version,
        latestVersion: latest,
        ...(stale ? { stale: true } : {}),
        ...partialCoverage(row.facts),
        ranking: meaning.ranking,
      };
      const passages = ranked.map((p) => {
        const flags = flagsOfPassage(index.passages[p.doc]!); // the index's own object: read once per package index
        const links = linksOf(index, p.doc);
        return {
          url: p.url, title: p.title ?? undefined, content: p.content, headings: p.headings, source: p.source,
          ...(p.symbol ? { symbol: p.symbol } : {}), ...(p.internal ? { internal: true } : {}),
          ...(p.deprecated ? { deprecated: true } : {}), ...(flags.length ? { flags } : {}), ...(links.length ? { links } : {}),
          score: Math.round(p.score * 1000) / 1000,
        };
      });
      if (!maxTokens) return { ...envelope, results: passages.slice(0, limit) };
      // Links are extras under a budget: the passages and pointers are fitted as without them, and a whole passage's
      // links are added only from what the budget has left (so they never cost a passage or a pointer).
      const withoutLinks = passages.map(({ links: _links, ...passage }) => passage);
      const fitted = fitPassages(envelope, withoutLinks, { maxTokens, maxWhole: limit, pointerOf: pointerTo, overhead: options.overhead });
      let used = fitted.budget.usedTokens;
      const whole = fitted.whole.map((passage, i) => {
        const links = passages[i]!.links;
        const cost = links ? tokensOf({ links }) + 1 : 0;
        if (!links || used + cost > maxTokens) return passage;
        used += cost;
        return { ...passage, links };
      });
      return { ...envelope, results: whole, pointers: fitted.pointers, budget: { ...fitted.budget, usedTokens: used } };
    },

    async lookup(slugReference, symbol, options = {}): Promise<DocsSymbolResult> {
      const asked = symbol.trim();
      if (!symbolSegments(asked).length) throw new ToolDexError('invalid_symbol', 422, 'Parameter "symbol" names no API item; write it as the package does ("tokio::time::timeout", "lodash.debounce").');
      if (asked.length > MAX_SYMBOL) throw new ToolDexError('invalid_symbol', 422, `Parameter "symbol" is ${asked.length} characters; the limit is ${MAX_SYMBOL}.`);
      const maxTokens = checkedMaxTokens(options.maxTokens);
      const { tool, row, latest, stale } = await serve(slugReference);
      const index = await indexes.get(tool.slug, row.version, indexStamp(row));
      const facts = row.facts as { importName?: string };
      const found = lookupSymbol(index.passages, asked, [tool.name, ...(facts.importName ? [facts.importName] : [])]);
      const answer: DocsSymbolResult = {
        slug: tool.slug, docsUrl: row.docsUrl ?? docsUrlFor(tool), version: row.version, latestVersion: latest,
        ...(stale ? { stale: true } : {}), ...partialCoverage(row.facts), symbol: asked, ...found,
        ...(found.found ? {} : { message: `${tool.name} ${row.version} has no API item named "${asked}"`
          + `${found.suggestions.length ? '; the closest names are in suggestions' : ''}. Look one up by its exact name, or ask a question with q.` }),
      };
      return maxTokens ? fitSymbol(answer, maxTokens, options.overhead) : answer;
    },

    async context(slugReference, options = {}): Promise<ToolContext> {
      checkedMaxTokens(options.maxTokens); // applied where the context is complete: withContextBudget (src/app.ts)
      const { tool, row, latest, stale } = await serve(slugReference);
      const defaults: StoredFacts = { entryPoints: [], typesIncluded: null, requirements: {}, quickstart: null };
      const facts: StoredFacts = { ...defaults, ...(row.facts as Partial<StoredFacts>) };
      const context = buildContext(tool, row.version, latest, facts,
        row.docsUrl ?? docsUrlFor(tool), registryPage(tool.ecosystem, tool.name));
      return stale ? { ...context, stale: true } : context;
    },

    async prepare(slugReference) {
      const { tool, row } = await serve(slugReference);
      // Callers of prepare read the version from the store next (what changed between versions, `ingest --docs`):
      // a version answered from memory is theirs once its write is done, not at its first answer.
      await ingestor.writtenOne(tool.slug, row.version);
      return { slug: tool.slug, version: row.version, passages: row.passages };
    },

    idle: async () => {
      await ingestor.written();
      await semantic.idle();
    },

    stored: () => ingestor.written(),

    async close() {
      await semantic.close();
      while (background.size) await Promise.allSettled([...background]);
      scheduler.close();
    },
  };
  const { search, lookup } = docs;
  return {
    ...docs,
    search: (...asked) => answering.hold(search(...asked)),
    lookup: (...asked) => answering.hold(lookup(...asked)),
  };
}

/**
 * The longest a version's store write waits for the questions being answered: longer than a large package's first
 * package index and meaning under load (kubernetes: 6-10 s at load 20; 2 s let the write start inside them), short
 * enough that a server never idle between questions still stores it well inside the ingestion lease.
 */
const STORE_WAIT_MS = 10_000;
/** How long no question must have been under way before the write starts (a client's next question comes sooner). */
const STORE_QUIET_MS = 500;

/** Ranked past the passages that go whole, for the pointers a budget leaves room for. */
const POINTER_DEPTH = 40;

/** A passage's guide ↔ API links as an answer shows them: the items a section uses, the sections that use an item. */
function linksOf(index: PackageIndex, doc: number): PassageLink[] {
  const links = index.links?.[doc];
  if (!links) return [];
  const items = links.uses.map((i): PassageLink => {
    const item = index.passages[i]!;
    return { relation: 'uses', title: item.symbol ?? item.title ?? '', url: item.url };
  });
  const sections = links.usedIn.map((i): PassageLink => {
    const section = index.passages[i]!;
    return { relation: 'usedIn', title: section.headings.length ? section.headings.join(' › ') : section.title ?? section.source, url: section.url };
  });
  return [...items, ...sections].slice(0, LINKS.perPassage);
}

const pointerTo = (passage: DocsPassage): Pointer => ({
  title: passage.headings?.length ? passage.headings.join(' › ') : passage.title ?? passage.symbol ?? passage.url,
  ...(passage.symbol ? { symbol: passage.symbol } : {}), url: passage.url,
});

/** The `partial` note of a result, when ingestion had to leave part of a package out. */
function partialCoverage(facts: Record<string, unknown>): { partial?: DocsCoverage } {
  const coverage = facts.coverage as { found?: number; indexed?: number; skippedSources?: number } | undefined;
  if (!coverage || ((coverage.found ?? 0) <= (coverage.indexed ?? 0) && !coverage.skippedSources)) return {};
  const found = coverage.found ?? 0, indexed = coverage.indexed ?? 0, skipped = coverage.skippedSources ?? 0;
  return { partial: {
    indexedPassages: indexed, foundPassages: found, skippedSourceFiles: skipped,
    message: `This package is too large to index whole: ${indexed} of ${found} passages are indexed (README, guides and the most public API first)`
      + `${skipped ? ` and ${skipped} source files were not parsed` : ''}. Ask about a specific symbol, or read the source at the passage URLs.`,
  } };
}

export interface IngestProgress { slug: string; done: number; total: number; version?: string; passages?: number; error?: string }

/** `tooldex ingest --docs --top N`: indexes the latest docs of the N most popular tools, two at a time. */
export async function ingestTopDocs(app: { docs: DocsCapability; store: Store }, n: number, onProgress: (progress: IngestProgress) => void = () => undefined): Promise<{ indexed: number; failed: number }> {
  const slugs = await topToolSlugs(app.store, n);
  const limit = pLimit(2);
  let done = 0, failed = 0;
  await Promise.all(slugs.map((slug) => limit(async () => {
    try {
      const result = await app.docs.prepare(slug);
      onProgress({ slug, done: ++done, total: slugs.length, version: result.version, passages: result.passages });
    } catch (error) {
      failed++;
      onProgress({ slug, done: ++done, total: slugs.length, error: (error as Error).message });
    }
  })));
  return { indexed: done - failed, failed };
}

