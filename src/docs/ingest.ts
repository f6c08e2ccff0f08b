// Ingestion of one tool version: artifact → passages → store, shared by concurrent requests (an in-process
// promise map) and across instances (a lease row in docs_versions). The docs site is crawled inline or afterwards.
import type { Config } from '../config.ts';
import type { ToolRecord } from '../catalog/index.ts';
import { ToolDexError, isToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';
import { findQuickstart, type StoredFacts } from './context.ts';
import type { Foreground } from './foreground.ts';
import type { IngestScheduler } from './ingest-scheduler.ts';
import { extractorVersion, extractPassages, warmExtraction } from './extraction.ts';
import { warmIndexThread } from './index-parts.ts';
import { HeldLease } from './lease.ts';
import type { PassageDraft } from './extract/types.ts';
import type { IndexedPassage } from './rank.ts';
import { RETRY_AFTER_SECONDS } from './fetch.ts';
import {
  claimLease, getVersion, holdsLease, insertPassages, markFailed, markReady, markSite, passageCount, preparePassages, replacePassages, restoreReady,
  type VersionRow,
} from './repository.ts';
import { storableJsonText, storableText } from '../store/index.ts';
import { sourceFor } from './sources/index.ts';
import { crawlSite } from './sources/site.ts';

const LEASE_SECONDS = 120;
const WAIT_POLL_MS = 200;
/** How long a request waits for another instance's ingestion before answering 503 ingestion_busy. */
const WAIT_FOR_OTHER_MS = 30_000;

export interface IngestDeps {
  config: Config;
  store: Store;
  logger: Logger;
  /** Background work (site crawls, revalidation) the capability awaits on close. */
  track(work: Promise<unknown>): void;
  /** Slots per registry, failure backoff, in-flight registration, lease ownership (src/docs/ingest-scheduler.ts). */
  scheduler: IngestScheduler;
  /** Starts what the first question will need after indexing (the sentence encoder's thread), beside the download. */
  warm?: () => void;
  /** A version just indexed, with its passages as stored: its first question's index is built from them. */
  indexed?: (row: VersionRow, passages: IndexedPassage[]) => void;
  /** Where an ingestion is held as a first question's work, which background embedding yields to. */
  foreground?: Foreground;
  /**
   * Resolves when the questions being answered now are answered (or soon enough): a version's passages are written to
   * the store after its first question's answer, not before it (storing is seconds of the event loop on PGlite).
   */
  answered?: () => Promise<void>;
  /** The ingestion lease's length (LEASE_SECONDS) and how often it is renewed while the ingestion runs (a third of it). */
  lease?: { seconds: number; renewEveryMs?: number };
}

/** An ingestion's outcome: the version as it will be stored, and (when its first answers come first) its store write. */
interface Ingested {
  row: VersionRow;
  durable?: Promise<void>;
}

export function docsUrlFor(tool: ToolRecord, facts?: Partial<StoredFacts>): string | null {
  return facts?.docsUrl ?? tool.docsUrl ?? facts?.homepage ?? tool.homepage ?? facts?.repository ?? tool.repository ?? null;
}

export function createIngestor(deps: IngestDeps) {
  const inflight = new Map<string, Promise<VersionRow>>();

  async function crawl(tool: ToolRecord, version: string, docsUrl: string | null, startOrd: number): Promise<string> {
    if (!docsUrl || deps.config.TOOLDEX_DOCS_SITES === 'off') return 'off';
    try {
      const result = await crawlSite(docsUrl, {
        timeoutMs: deps.config.TOOLDEX_FETCH_TIMEOUT_MS, maxPages: deps.config.TOOLDEX_DOCS_MAX_PAGES,
        maxPageBytes: 2 * 1024 * 1024, allowPrivate: deps.config.TOOLDEX_DOCS_PRIVATE_SITES === 'allow',
      });
      if (result.passages.length) {
        await insertPassages(deps.store, tool.slug, version, result.passages, startOrd);
      }
      deps.logger.info({ slug: tool.slug, version, via: result.via, pages: result.pages, passages: result.passages.length, skipped: result.skipped.length }, 'docs site crawled');
      return result.via === 'none' ? 'none' : `${result.via}:${result.pages}`;
    } catch (error) {
      deps.logger.warn({ slug: tool.slug, version, err: error }, 'docs site crawl failed');
      return 'failed';
    }
  }

  /** Indexes (tool, version) under `lease` (claimLease): its store write happens only while the lease is still its own. */
  async function ingest(tool: ToolRecord, version: string, lease: HeldLease): Promise<Ingested> {
    const started = Date.now();
    warmExtraction(tool.ecosystem, deps.logger);
    warmIndexThread(deps.logger);
    deps.warm?.();
    const artifact = await sourceFor(deps.config, tool.ecosystem).artifact(tool.name, version);
    const downloaded = Date.now();
    const extracted = await extractPassages(artifact, { ecosystem: tool.ecosystem, name: tool.name, version }, deps.logger);
    const extractedAt = Date.now();
    const passages: PassageDraft[] = extracted.passages;
    const coverage = { found: extracted.found, indexed: passages.length, skippedSources: extracted.skippedSources };
    const quickstart = findQuickstart(passages, tool.ecosystem, tool.name, artifact.facts.importName ?? tool.name);
    const facts: StoredFacts = { ...artifact.facts, quickstart };
    const docsUrl = docsUrlFor(tool, facts);
    const inline = deps.config.TOOLDEX_DOCS_SITES === 'inline';
    const ready = { docsUrl, facts: { ...facts, coverage }, siteStatus: deps.config.TOOLDEX_DOCS_SITES === 'off' ? 'off' : 'pending',
      extractor: extractorVersion(tool.ecosystem), indexedAt: new Date() };
    const prepared = preparePassages(passages, 0, extracted.identifiers);
    const store = () => lease.use(async (held) => {
      await deps.store.transaction(async (tx) => {
        // A lease that ended anyway (a process stalled past it) may have been taken over by another instance: the
        // other ingestion's version stands, this one is not written over it (nor beside it: passages twice).
        if (!(await holdsLease(tx, tool.slug, version, held))) {
          throw new ToolDexError('ingestion_busy', 503, `The docs of ${tool.name}@${version} are indexed by another instance: its lease was taken over.`);
        }
        await replacePassages(tx, tool.slug, version, prepared);
        await markReady(tx, tool.slug, version, ready);
      });
      lease.stop(); // markReady ended it
    });
    // Where a first question's wait goes: download, extraction (worker thread), storing (0 when it comes after).
    const timing = (storedAt: number) => deps.logger.info({ slug: tool.slug, version, passages: passages.length, skipped: artifact.skipped,
      ms: storedAt - started, downloadMs: downloaded - started, extractMs: extractedAt - downloaded, storeMs: storedAt - extractedAt }, 'docs indexed');
    if (inline) {
      // The crawl's passages join the first answer: stored first, then everything read back.
      await store();
      timing(Date.now());
      await markSite(deps.store, tool.slug, version, await crawl(tool, version, docsUrl, passages.length));
      const row = (await getVersion(deps.store, tool.slug, version))!;
      if (row.passages === prepared.stored.length) deps.indexed?.(row, prepared.stored);
      return { row };
    }
    // Answered from the passages in memory, as the store will hold them (same text, facts and stamp); written
    // after the first answers, in one transaction with the ready mark, so a restart mid-write leaves no half version.
    const row: VersionRow = {
      slug: tool.slug, version, status: 'ready', docsUrl: docsUrl && storableText(docsUrl), passages: prepared.stored.length,
      facts: JSON.parse(storableJsonText(JSON.stringify(ready.facts))) as Record<string, unknown>, siteStatus: ready.siteStatus,
      error: null, indexedAt: ready.indexedAt, leaseActive: false, extractor: ready.extractor,
    };
    timing(Date.now());
    deps.indexed?.(row, prepared.stored);
    const durable = (deps.answered?.() ?? Promise.resolve()).then(async () => {
      const at = Date.now();
      await store();
      deps.logger.info({ slug: tool.slug, version, passages: passages.length, storeMs: Date.now() - at }, 'docs stored');
    });
    if (deps.config.TOOLDEX_DOCS_SITES === 'background') {
      deps.track(durable.then(() => crawl(tool, version, docsUrl, passages.length)).then((status) => markSite(deps.store, tool.slug, version, status)));
    }
    return { row, durable };
  }

  /** Ready, and made by this extractor of the tool's ecosystem (or a newer one, during a rolling deploy). */
  const isCurrent = (tool: ToolRecord, row: VersionRow) => row.status === 'ready' && row.extractor >= extractorVersion(tool.ecosystem);

  async function waitForOther(tool: ToolRecord, version: string, deadline: number): Promise<VersionRow | undefined> {
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      const row = await getVersion(deps.store, tool.slug, version);
      if (!row || isCurrent(tool, row) || !row.leaseActive || row.status === 'failed') return row;
    }
    throw new ToolDexError('ingestion_busy', 503, `The docs of ${tool.name}@${version} are being indexed by another instance; try again shortly.`,
      { retryAfterSeconds: 5 });
  }

  /**
   * An ingestion that failed: a version that was ready goes back to the passages it had (returned), any other is
   * marked failed (a refused artifact for good, anything else until it is asked for again).
   */
  async function settleFailure(tool: ToolRecord, version: string, wasReady: boolean, lease: string, error: unknown): Promise<VersionRow | undefined> {
    // Both marks apply only while `lease` is still the row's: one taken over by another instance is left to it.
    if (wasReady) {
      // Indexing again for a newer extractor failed (registry away, …): the passages it had stay and are served.
      deps.logger.warn({ slug: tool.slug, version, err: error }, 'docs not indexed again; serving the earlier extraction');
      await restoreReady(deps.store, tool.slug, version, lease);
      const row = await getVersion(deps.store, tool.slug, version);
      return row?.status === 'ready' ? row : undefined;
    }
    const code = isToolDexError(error) ? error.code : 'internal';
    await markFailed(deps.store, tool.slug, version, `${code}: ${(error as Error).message}`, extractorVersion(tool.ecosystem), lease)
      .catch(() => undefined);
    return undefined;
  }

  /** Versions answered from memory whose store write is under way: served from their row here until it ends. */
  const storing = new Map<string, { row: VersionRow; write: Promise<unknown> }>();
  function remember(tool: ToolRecord, version: string, row: VersionRow, durable: Promise<void>, failed: (error: unknown) => Promise<unknown>,
    lease: HeldLease): void {
    const key = `${tool.slug}@${version}`;
    const write = durable.catch(async (error: unknown) => {
      deps.logger.warn({ slug: tool.slug, version, err: error }, 'docs passages not stored; the next question indexes them again');
      await failed(error);
    }).finally(() => {
      lease.stop();
      storing.delete(key);
    });
    storing.set(key, { row, write });
    deps.track(write);
  }

  async function ensure(tool: ToolRecord, version: string): Promise<VersionRow> {
    const deadline = Date.now() + WAIT_FOR_OTHER_MS;
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await getVersion(deps.store, tool.slug, version);
      if (row && isCurrent(tool, row)) return row;
      if (row?.status === 'failed' && row.error?.startsWith('artifact_refused:') && row.extractor >= extractorVersion(tool.ecosystem)) {
        // A hostile or broken artifact stays refused; it is not downloaded again for every question, only once more
        // when the ecosystem's extractor changes (it may read what the earlier one refused).
        throw new ToolDexError('artifact_refused', 502, row.error.slice('artifact_refused:'.length).trim());
      }
      // The lease is taken inside a slot, so a queued ingestion does not hold a lease it is not using.
      const done = await deps.scheduler.ingest(tool.ecosystem, `${tool.slug}@${version}`, async () => {
        const seconds = deps.lease?.seconds ?? LEASE_SECONDS;
        const claimed = await claimLease(deps.store, tool.slug, version, seconds, extractorVersion(tool.ecosystem));
        if (!claimed) return undefined;
        await deps.scheduler.ownLease(tool.slug, version);
        // Renewed until the write or the failure mark ends it: a long extraction keeps its version.
        const lease = new HeldLease(deps.store, tool.slug, version, claimed, { seconds, renewEveryMs: deps.lease?.renewEveryMs, logger: deps.logger });
        const failed = (error: unknown) => {
          lease.stop();
          return lease.use((held) => settleFailure(tool, version, row?.status === 'ready', held, error));
        };
        let ingested: Ingested;
        try {
          const indexing = ingest(tool, version, lease);
          ingested = await (deps.foreground ? deps.foreground.hold(indexing) : indexing);
        } catch (error) {
          const restored = await failed(error);
          if (restored) return restored;
          throw error;
        }
        if (ingested.durable) remember(tool, version, ingested.row, ingested.durable, failed, lease);
        else lease.stop();
        return ingested.row;
      });
      if (done) return done;
      const after = await waitForOther(tool, version, deadline);
      if (after && isCurrent(tool, after)) return after;
    }
    throw new ToolDexError('ingestion_busy', 503, `Could not index ${tool.name}@${version}; try again shortly.`, { retryAfterSeconds: RETRY_AFTER_SECONDS });
  }

  return {
    /** Indexed (slug, version), ingesting it first if needed; concurrent callers share one ingestion. */
    ensureIndexed(tool: ToolRecord, version: string): Promise<VersionRow> {
      const key = `${tool.slug}@${version}`;
      const answered = storing.get(key);
      if (answered) return Promise.resolve(answered.row);
      let pending = inflight.get(key);
      if (!pending) {
        pending = ensure(tool, version).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      return pending;
    },
    passageCount: (slug: string, version: string) => passageCount(deps.store, slug, version),
    /** Resolves when the versions answered from memory are written to the store (or their write failed). */
    async written(): Promise<void> {
      while (storing.size) await Promise.allSettled([...storing.values()].map(({ write }) => write));
    },
    /** Resolves when (slug, version), if it was answered from memory, is written to the store (or its write failed). */
    async writtenOne(slug: string, version: string): Promise<void> {
      await storing.get(`${slug}@${version}`)?.write;
    },
    /** Whether (slug, version) is answered from memory while its passages are being written to the store. */
    storing: (slug: string, version: string) => storing.has(`${slug}@${version}`),
  };
}

export type Ingestor = ReturnType<typeof createIngestor>;
