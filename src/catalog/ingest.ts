// Catalog ingestion: fetches each seed name's metadata from its registry, concurrently, with retries,
// writes in batches, records progress so an interrupted run resumes, and reports progress to a callback.
import pLimit from 'p-limit';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';
import { registries, type RegistryContext, type SeedEntry } from './registries/index.ts';
import { upsertTools } from './repository.ts';
import { loadSeeds } from './seeds.ts';
import { ECOSYSTEMS, type Ecosystem, type ToolRecord } from './types.ts';

export interface IngestOptions {
  ecosystems?: Ecosystem[];
  /** Only the first N names of each seed list (most popular first). */
  top?: number;
  concurrency?: number;
  /** Skip names fetched successfully within this many hours (resume after an interruption); 0 refetches all. */
  skipFreshHours?: number;
  onProgress?: (event: IngestProgress) => void;
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
  const seeds = options.top ? all.slice(0, options.top) : all;
  const fresh = await freshNames(store, ecosystem, options.skipFreshHours ?? 0);
  const todo = seeds.filter((seed) => !fresh.has(seed.name));
  const context: RegistryContext = { timeoutMs: config.TOOLDEX_FETCH_TIMEOUT_MS, urls: config, seedCount: all.length };
  const adapter = registries[ecosystem];
  const limit = pLimit(options.concurrency ?? 12);
  const summary: IngestSummary = { ecosystem, fetched: 0, skipped: seeds.length - todo.length, missing: 0, failed: 0, ms: 0 };
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
      summary.failed++;
      pending.push({ seed, error: (error as Error).message.slice(0, 500) });
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
