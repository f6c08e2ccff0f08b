// Runs the HTTP server until SIGTERM/SIGINT, then drains requests and closes the store cleanly.
import type { Config } from './config.ts';
import { keyOperations } from './admin/operations.ts';
import { openAdminChannel } from './admin/channel.ts';
import { createApp } from './app.ts';
import { buildServer } from './http/server.ts';
import { createLogger } from './log.ts';
import { isEmbedded } from './store/index.ts';

/** The URL a process on this machine uses to reach the server (a wildcard listen address is not dialable). */
function localUrl(address: string): string {
  const url = new URL(address);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL);
  const started = Date.now();
  const app = await createApp(config, logger);
  const server = await buildServer(app);
  const address = await server.listen({ port: config.PORT, host: config.HOST });
  // Operator commands (`tooldex keys`) reach the held embedded store through this socket.
  const admin = isEmbedded(app.store) ? await openAdminChannel(config.TOOLDEX_HOME, keyOperations(app.auth), logger) : undefined;
  if (isEmbedded(app.store)) {
    app.store.advertiseUrl(localUrl(address));
    if (admin) app.store.advertiseAdminSocket(admin.path);
  }
  logger.info({ address, store: app.store.kind, tools: app.catalog.size(), readyMs: Date.now() - started }, 'tooldex ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await admin?.close();
      await server.close();
      await app.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
