// Starts a real tooldex server on an ephemeral port over a real store, for integration tests.
import fs from 'node:fs';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig, type ConfigOverrides } from '../../src/config.ts';
import { buildServer, type Server } from '../../src/http/server.ts';
import { createLogger } from '../../src/log.ts';
import { freshHome, freshPostgresUrl, type StoreKind } from './stores.ts';

export interface TestServer {
  url: string;
  app: App;
  server: Server;
  home: string;
  close(): Promise<void>;
}

export async function startServer(options: { store?: StoreKind; config?: ConfigOverrides } = {}): Promise<TestServer> {
  const home = await freshHome();
  const postgres = options.store === 'postgres' ? await freshPostgresUrl() : undefined;
  const config = loadConfig({
    TOOLDEX_HOME: home, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: postgres?.url,
    // Tests reach only loopback and the registries: no docs-site crawl of a real package's homepage unless a test asks.
    TOOLDEX_DOCS_SITES: 'off',
    // Quickstart verification runs real sandboxes in the background: only the tests that ask for it (quickstart tests).
    TOOLDEX_QUICKSTART_VERIFY: 'off', ...options.config,
  }, {});
  const app = await createApp(config, createLogger(config.LOG_LEVEL));
  const server = await buildServer(app);
  const address = await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address, app, server, home,
    async close() {
      await server.close();
      await app.close();
      await postgres?.drop();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
