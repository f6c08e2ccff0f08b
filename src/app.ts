// Wires the capabilities to one store: the object every surface (HTTP, MCP, CLI) is handed.
// No global singletons: tests build as many apps as they like, each on its own store.
import path from 'node:path';
import { createAuth, type Auth } from './auth/index.ts';
import type { Config } from './config.ts';
import { createCatalog, type Catalog } from './catalog/index.ts';
import { IndexCache } from './catalog/index-cache.ts';
import { DEFAULT_SNAPSHOT, seedFromSnapshot } from './catalog/snapshot.ts';
import { createDocs, type DocsCapability } from './docs/index.ts';
import type { Logger } from './log.ts';
import { createSandbox, type SandboxService } from './sandbox/index.ts';
import { openStore, type Store } from './store/index.ts';

export interface App {
  config: Config;
  store: Store;
  logger: Logger;
  catalog: Catalog;
  auth: Auth;
  docs: DocsCapability;
  sandbox: SandboxService;
  close(): Promise<void>;
}

export async function createApp(config: Config, logger: Logger): Promise<App> {
  const store = await openStore(config);
  try {
    const started = Date.now();
    const loaded = await seedFromSnapshot(store, config.TOOLDEX_SNAPSHOT ?? DEFAULT_SNAPSHOT, (n) => {
      if (n % 5000 === 0) logger.info({ loaded: n }, 'loading catalog snapshot');
    });
    if (loaded.length > 0) logger.info({ loaded: loaded.length, ms: Date.now() - started }, 'catalog snapshot loaded');
    const cache = new IndexCache(path.join(config.TOOLDEX_HOME, 'cache'), config.DATABASE_URL ? redactUrl(config.DATABASE_URL) : 'embedded');
    const catalog = await createCatalog(store, logger, { watchMs: 5000, cache, answerCacheSize: config.TOOLDEX_SEARCH_CACHE, initialTools: loaded });
    const auth = createAuth(store, config, logger);
    const docs = createDocs({ config, store, logger, catalog });
    const sandbox = createSandbox(config, store, logger);
    return {
      config, store, logger, catalog, auth, docs, sandbox,
      async close() {
        await sandbox.close();
        catalog.close();
        await docs.close();
        await auth.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
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
