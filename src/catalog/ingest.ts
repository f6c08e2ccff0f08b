// Catalog ingestion: fetches each seed name's metadata from its registry, concurrently, with retries,
// writes in batches, records progress so an interrupted run resumes, and reports progress to a callback.
// Offline (or for a name whose registry cannot be reached and that the store does not hold yet) the record is
// built from the shipped seed list instead; names already fetched keep their record and take the list's popularity.
import pLimit from 'p-limit';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';
import { registries, type RegistryContext, type SeedEntry } from './registries/index.ts';
import { HttpStatusError } from './registries/http.ts';
import { cratesRecentDownloads, discoverCrates, npmMonthlyDownloads } from './registries/popularity.ts';
import { updatePopularity, upsertTools } from './repository.ts';
import { recordFromSeed } from './seed-record.ts';
import { loadSeeds } from './seeds.ts';
import { toSlug } from './slug.ts';
import { ECOSYSTEMS, type Ecosystem, type ToolRecord } from './types.ts';

export interface IngestOptions {
  ecosystems?: Ecosystem[];
  /** Only the first N names of each seed list (most popular first). */
  top?: number;
  concurrency?: number;
  /** Skip names fetched successfully within this many hours (resume after an interruption); 0 refetches all. */
  skipFreshHours?: number;
  onProgress?: (event: IngestProgress) => void;
  /** Build records from the seed lists only (no network); tools already in the store keep their record. */
  offline?: boolean;
  /**
   * Ask registries that publish popularity (npm's downloads API, crates.io's API) for current figures and rank by them
   * (default true); when they cannot be reached the shipped lists' figures stay.
   */
  measurePopularity?: boolean;
  /** Also ingest the N most downloaded crates by crates.io's own ranking (when its API is reachable). */
  discoverCrates?: number;
  /** Only these names per ecosystem (as in the seed lists), e.g. to fetch a few new well-known names. */
  names?: Partial<Record<Ecosystem, string[]>>;
}

export interface IngestProgress {
  ecosystem: Ecosystem;
  done: number;
  total: number;
  failed: number;
}

export interface IngestSummary {
  ecosystem: Ecosystem;
  fetched: number;
  /** Records built from the seed list (offline, or registry unreachable for a new name). */
  fromSeed: number;
  skipped: number;
  missing: number;
  failed: number;
  ms: number;
}

const BATCH = 100;

export async function ingestCatalog(store: Store, config: Config, logger: Logger, options: IngestOptions = {}): Promise<IngestSummary[]> {
  const summaries: IngestSummary[] = [];
  for (const ecosystem of options.ecosystems ?? ECOSYSTEMS) {
    summaries.push(await ingestEcosystem(store, config, logger, ecosystem, options));
  }
  return summaries;
}

async function ingestEcosystem(
  store: Store, config: Config, logger: Logger, ecosystem: Ecosystem, options: IngestOptions,
): Promise<IngestSummary> {
  const started = Date.now();
  const all = loadSeeds(ecosystem);
  const wanted = options.names ? new Set((options.names[ecosystem] ?? []).map((name) => name.toLowerCase())) : undefined;
  const listed = wanted ? all.filter((seed) => wanted.has(seed.name.toLowerCase())) : all;
  const seeds = options.top ? listed.slice(0, options.top) : [...listed];
  const seedCount = all.filter((seed) => !seed.extra).length;
  if (options.offline) return ingestOffline(store, ecosystem, seeds, seedCount, started, logger);
  if (ecosystem === 'crates' && options.discoverCrates) {
    const known = new Set(seeds.map((seed) => seed.name.toLowerCase()));
    for (const found of await discoverCrates(options.discoverCrates, config, logger)) {
      if (!known.has(found.name.toLowerCase())) seeds.push({ ...found, rank: seeds.length + 1 });
    }
  }
  if (options.measurePopularity !== false) await measurePopularity(ecosystem, seeds, config, logger);
  const fresh = await freshNames(store, ecosystem, options.skipFreshHours ?? 0);
  const todo = seeds.filter((seed) => !fresh.has(seed.name));
  const held = await heldSlugs(store, ecosystem);
  const context: RegistryContext = { timeoutMs: config.TOOLDEX_FETCH_TIMEOUT_MS, urls: config, seedCount };
  const adapter = registries[ecosystem];
  const limit = pLimit(options.concurrency ?? 12);
  const summary: IngestSummary = { ecosystem, fetched: 0, fromSeed: 0, skipped: seeds.length - todo.length, missing: 0, failed: 0, ms: 0 };
  let pending: Array<{ seed: SeedEntry; tool?: ToolRecord; error?: string }> = [];
  let done = 0;
  let writing = Promise.resolve();

  const flush = () => {
    const batch = pending;
    pending = [];
    writing = writing.then(() => writeBatch(store, ecosystem, batch));
    return writing;
  };

  await Promise.all(todo.map((seed) => limit(async () => {
    try {
      const tool = await adapter.fetchTool(seed, context);
      if (tool) summary.fetched++;
      else summary.missing++;
      pending.push({ seed, tool, error: tool ? undefined : 'not found in registry' });
    } catch (error) {
      // The registry could not be reached (not a refusal): a name the store lacks still gets its seed-list record.
      const unreachable = !(error instanceof HttpStatusError) && Boolean(seed.summary) && !held.has(toSlug(ecosystem, seed.name));
      if (unreachable) {
        summary.fromSeed++;
        pending.push({ seed, tool: recordFromSeed(ecosystem, seed, seedCount) });
      } else {
        summary.failed++;
        pending.push({ seed, error: (error as Error).message.slice(0, 500) });
      }
      logger.debug({ ecosystem, name: seed.name, err: (error as Error).message }, 'ingest fetch failed');
    }
    done++;
    options.onProgress?.({ ecosystem, done, total: todo.length, failed: summary.failed + summary.missing });
    if (pending.length >= BATCH) await flush();
  })));
  await flush();
  summary.ms = Date.now() - started;
  logger.info(summary, 'ingest finished');
  return summary;
}

/** Replaces the shipped popularity figures by the registry's current ones where it publishes them. */
async function measurePopularity(ecosystem: Ecosystem, seeds: SeedEntry[], config: Config, logger: Logger): Promise<void> {
  const names = seeds.map((seed) => seed.name);
  const measured = ecosystem === 'npm' ? await npmMonthlyDownloads(names, config, logger)
    : ecosystem === 'crates' ? await cratesRecentDownloads(names, config, logger) : new Map<string, number>();
  if (measured.size === 0) return;
  seeds.forEach((seed, i) => {
    const downloads = measured.get(seed.name);
    if (downloads !== undefined) seeds[i] = { ...seed, downloads, extra: false };
  });
  logger.info({ ecosystem, measured: measured.size }, 'popularity from the registry');
}

/** Seed-list records for names the store lacks; names it holds keep their (fetched) record and take the list's popularity. */
async function ingestOffline(
  store: Store, ecosystem: Ecosystem, seeds: SeedEntry[], seedCount: number, started: number, logger: Logger,
): Promise<IngestSummary> {
  const held = await heldSlugs(store, ecosystem);
  const records = seeds.map((seed) => recordFromSeed(ecosystem, seed, seedCount));
  const known = records.filter((tool) => held.has(tool.slug));
  // The npm and PyPI lists are registry facts (every name exists); a name from the project's own lists that has
  // no summary is only worth a record once a registry has described it (it may be a name the registry refused).
  const registryFact = ecosystem === 'npm' || ecosystem === 'pypi';
  const undescribed = records.filter((tool) => !held.has(tool.slug) && !tool.description && !registryFact);
  const fresh = records.filter((tool) => !held.has(tool.slug) && (tool.description || registryFact));
  for (let i = 0; i < fresh.length; i += OFFLINE_BATCH) await upsertTools(store, fresh.slice(i, i + OFFLINE_BATCH));
  for (let i = 0; i < known.length; i += OFFLINE_BATCH) await updatePopularity(store, known.slice(i, i + OFFLINE_BATCH));
  const summary: IngestSummary = { ecosystem, fetched: 0, fromSeed: fresh.length, skipped: known.length, missing: undescribed.length, failed: 0, ms: Date.now() - started };
  logger.info(summary, 'offline ingest finished');
  return summary;
}

const OFFLINE_BATCH = 2000;

async function heldSlugs(store: Store, ecosystem: Ecosystem): Promise<Set<string>> {
  const rows = await store.query<{ slug: string }>('select slug from tools where ecosystem = $1', [ecosystem]);
  return new Set(rows.map((row) => row.slug));
}

async function writeBatch(store: Store, ecosystem: Ecosystem, batch: Array<{ seed: SeedEntry; tool?: ToolRecord; error?: string }>) {
  if (batch.length === 0) return;
  // Tools and their progress rows land together: a crash never records progress for a tool not written.
  await store.transaction(async (tx) => {
    await upsertTools(tx, batch.flatMap((item) => (item.tool ? [item.tool] : [])));
    await tx.query(
      `insert into ingest_progress (ecosystem, name, status, error, done_at)
       select $1, name, status, error, now() from jsonb_to_recordset($2::jsonb) as t(name text, status text, error text)
       on conflict (ecosystem, name) do update set status = excluded.status, error = excluded.error, done_at = now()`,
      [ecosystem, JSON.stringify(batch.map((item) => ({ name: item.seed.name, status: item.tool ? 'ok' : 'failed', error: item.error ?? null })))]);
  });
}

async function freshNames(store: Store, ecosystem: Ecosystem, hours: number): Promise<Set<string>> {
  if (hours <= 0) return new Set();
  const rows = await store.query<{ name: string }>(
    `select name from ingest_progress where ecosystem = $1 and status = 'ok' and done_at > now() - make_interval(hours => $2)`,
    [ecosystem, hours]);
  return new Set(rows.map((row) => row.name));
}
