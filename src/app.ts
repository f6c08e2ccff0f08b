// Wires the capabilities to one store: the object every surface (HTTP, MCP, CLI) is handed.
// No global singletons: tests build as many apps as they like, each on its own store.
import path from 'node:path';
import { createAuth, type Auth } from './auth/index.ts';
import type { Config } from './config.ts';
import { createCatalog, type Catalog } from './catalog/index.ts';
import { IndexCache } from './catalog/index-cache.ts';
import { DEFAULT_SNAPSHOT, seedFromSnapshot } from './catalog/snapshot.ts';
import { createDocs, type DocsCapability } from './docs/index.ts';
import { IngestScheduler } from './docs/ingest-scheduler.ts';
import { InflightWork } from './lifecycle/inflight.ts';
import type { Logger } from './log.ts';
import { createSandbox, type SandboxService } from './sandbox/index.ts';
import { createEmbedder, createSentenceEncoder, type Embedder } from './semantic/index.ts';
import { openStore, type Store } from './store/index.ts';
import { startInstance, type Instance } from './store/instances.ts';
import { createChanges, type Changes } from './changes/index.ts';
import { createProjects, type Projects } from './project/index.ts';
import { createQuickstarts, type Quickstarts } from './quickstart/index.ts';
import { withVerifiedQuickstarts } from './quickstart/verified-docs.ts';
import { withContextBudget } from './docs/budget.ts';

export interface App {
  config: Config;
  store: Store;
  logger: Logger;
  catalog: Catalog;
  auth: Auth;
  docs: DocsCapability;
  sandbox: SandboxService;
  /** The one embedder for ranking by meaning (catalog and docs share it); null = full-text ranking only. */
  semantic: Embedder | null;
  /** Work under way (requests, runs, ingestions, verifications) that SIGTERM drains before exit. */
  inflight: InflightWork;
  /** Run-verified quickstarts: background verification through the sandbox under the service's own owner. */
  quickstarts: Quickstarts;
  /** Resolved projects: a lockfile's dependencies, so docs, context and test answer at the project's versions. */
  projects: Projects;
  /** What changed between two versions of a package (API difference and release notes). */
  changes: Changes;
  close(): Promise<void>;
}

export async function createApp(config: Config, logger: Logger, inflight = new InflightWork()): Promise<App> {
  const store = await openStore(config, logger);
  let instance: Instance | undefined;
  try {
    const started = Date.now();
    const loaded = await seedFromSnapshot(store, config.TOOLDEX_SNAPSHOT ?? DEFAULT_SNAPSHOT, (n) => {
      if (n % 5000 === 0) logger.info({ loaded: n }, 'loading catalog snapshot');
    });
    if (loaded.length > 0) logger.info({ loaded: loaded.length, ms: Date.now() - started }, 'catalog snapshot loaded');
    const cache = new IndexCache(path.join(config.TOOLDEX_HOME, 'cache'), config.DATABASE_URL ? redactUrl(config.DATABASE_URL) : 'embedded');
    // Loaded beside start-up: the catalog ranks lexically until the model is in (a fraction of a second later).
    // With TOOLDEX_SEMANTIC=on a missing model must stop start-up, so it is awaited here.
    const embedder = config.TOOLDEX_SEMANTIC === 'on' ? await createEmbedder(config, logger) : createEmbedder(config, logger);
    // The sentence encoder (docs only) loads on its own thread beside the catalog, not after it: start-up stays as fast.
    const encoding = createSentenceEncoder(config, logger);
    encoding.catch(() => undefined); // awaited below; a failed catalog build must not leave it unhandled
    const catalog = await createCatalog(store, logger, {
      watchMs: 5000, cache, answerCacheSize: config.TOOLDEX_SEARCH_CACHE, initialTools: loaded, embedder,
    });
    // One embedder for the whole app: by now the catalog index is built and the model has loaded beside it.
    const semantic = await embedder;
    const encoder = await encoding;
    const auth = createAuth(store, config, logger);
    await auth.ready();
    // A fleet member has a heartbeat row, so leases it takes are released if it dies (see src/store/instances.ts).
    instance = store.kind === 'postgres' ? await startInstance(store, logger) : undefined;
    const scheduler = new IngestScheduler({ config, store, logger, inflight, instanceId: instance?.id });
    await scheduler.releaseDeadLeases();
    // Verification is a client of the sandbox like POST /tools/test: its runs are tracked and drained the same way.
    const sandbox = trackRuns(createSandbox(config, store, logger), inflight);
    const quickstarts = createQuickstarts({ config, store, logger, catalog, sandbox, stopping: inflight.stopping });
    // The caller's token budget is applied to the context last, once verification has put in the program that ran.
    const docs = withContextBudget(withVerifiedQuickstarts(createDocs({ config, store, logger, catalog, embedder: semantic, encoder, scheduler }), quickstarts, config, logger));
    const projects = createProjects({ store, config, catalog });
    const changes = createChanges({ config, store, logger, catalog, prepare: (reference) => docs.prepare(reference) });
    return {
      config, store, logger, catalog, auth, docs, sandbox, semantic, inflight, quickstarts, projects, changes,
      async close() {
        await quickstarts.close();
        await sandbox.close();
        catalog.close();
        await docs.close();
        await auth.close();
        await instance?.close();
        await store.close();
      },
    };
  } catch (error) {
    await instance?.close();
    await store.close();
    throw error;
  }
}

/** Every sandbox run (REST, MCP, verifications) is in-flight work a deploy lets finish. */
function trackRuns(sandbox: SandboxService, inflight: InflightWork): SandboxService {
  const run = sandbox.run.bind(sandbox);
  return Object.assign(sandbox, {
    run: (...args: Parameters<SandboxService['run']>) =>
      inflight.track('sandbox-run', `${args[0].runtime} for ${args[1]}`, run(...args)),
  });
}

/** A database URL without its password, fit for cache keys and logs. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}
