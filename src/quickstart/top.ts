// Pre-verification for `tooldex ingest --docs --top N --verify`: indexes the docs of the N most popular catalog tools and
// verifies each one's quickstart in the sandbox, over an open store. The CLI command only parses flags and shows progress.
import pLimit from 'p-limit';
import { createCatalog } from '../catalog/index.ts';
import type { Config } from '../config.ts';
import { createDocs } from '../docs/index.ts';
import { topToolSlugs } from '../docs/repository.ts';
import type { Logger } from '../log.ts';
import { createSandbox } from '../sandbox/index.ts';
import type { Store } from '../store/index.ts';
import { createQuickstarts } from './index.ts';

export interface VerifyProgress { slug: string; done: number; total: number; version?: string; status?: string; reason?: string; error?: string }

export async function verifyTopQuickstarts(store: Store, config: Config, logger: Logger, n: number, onProgress: (progress: VerifyProgress) => void = () => undefined) {
  const catalog = await createCatalog(store, logger);
  const docs = createDocs({ config, store, logger, catalog });
  const sandbox = createSandbox(config, store, logger);
  const quickstarts = createQuickstarts({ config: { ...config, TOOLDEX_QUICKSTART_SWEEP_SECONDS: 0 }, store, logger, catalog, sandbox });
  const counts: Record<string, number> = { ran: 0, failed: 0, unverifiable: 0, pending: 0, error: 0 };
  try {
    const slugs = await topToolSlugs(store, n);
    const limit = pLimit(Math.max(1, config.TOOLDEX_QUICKSTART_CONCURRENCY));
    let done = 0;
    await Promise.all(slugs.map((slug) => limit(async () => {
      try {
        const prepared = await docs.prepare(slug);
        const tool = await catalog.resolve(prepared.slug);
        const row = await quickstarts.verifyNow({ slug: tool.slug, version: prepared.version, ecosystem: tool.ecosystem, name: tool.name });
        counts[row.status] = (counts[row.status] ?? 0) + 1;
        onProgress({ slug, done: ++done, total: slugs.length, version: prepared.version, status: row.status, reason: row.result?.verified.reason ?? row.error ?? undefined });
      } catch (error) {
        counts.error = (counts.error ?? 0) + 1;
        onProgress({ slug, done: ++done, total: slugs.length, error: (error as Error).message });
      }
    })));
    return counts;
  } finally {
    await quickstarts.close();
    await sandbox.close();
    await docs.close();
    catalog.close();
  }
}
