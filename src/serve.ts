// Runs the HTTP server until SIGTERM/SIGINT. The port answers from the first moment (liveness 200, everything else
// 503 starting) while the store comes up; SIGTERM drains in-flight work up to a deadline, logs it, and exits 0.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainTimeoutMs, type Config } from './config.ts';
import { keyOperations } from './admin/operations.ts';
import { openAdminChannel } from './admin/channel.ts';
import { createApp } from './app.ts';
import { buildServer } from './http/server.ts';
import { drain } from './lifecycle/drain.ts';
import { InflightWork } from './lifecycle/inflight.ts';
import { createLogger } from './log.ts';
import { openMcpSocket } from './mcp/socket.ts';
import { isEmbedded } from './store/index.ts';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** The URL a process on this machine uses to reach the server (a wildcard listen address is not dialable). */
function localUrl(address: string): string {
  const url = new URL(address);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

const json = (response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
};

/** Before the app is ready: alive, not ready. Requests are answered, never left hanging or refused. */
const answerStarting: Handler = (request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  if (path === '/livez') return json(response, 200, { status: 'alive', uptimeSeconds: Math.round(process.uptime()) });
  json(response, 503, { error: { status: 503, code: 'starting', message: 'tooldex is starting (waiting for the database or loading the catalog); retry shortly.' } },
    { 'retry-after': '5', connection: 'close' });
};

function listen(listener: http.Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, host, () => {
      listener.off('error', reject);
      const { address, family, port: bound } = listener.address() as AddressInfo;
      resolve(`http://${family === 'IPv6' ? `[${address}]` : address}:${bound}`);
    });
  });
}

export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL);
  const started = Date.now();
  let handler: Handler = answerStarting;
  const listener = http.createServer((request, response) => handler(request, response));
  listener.requestTimeout = 0; // a request may legitimately run for the install limit plus a run (Node's default cuts at 300 s)
  listener.keepAliveTimeout = 72_000; // longer than common load balancers' idle timeout, so they close first
  const address = await listen(listener, config.PORT, config.HOST);

  let stopping = false;
  const onStartupSignal = (signal: string) => {
    logger.info({ signal }, 'stopped during start-up');
    process.exit(0);
  };
  process.once('SIGTERM', onStartupSignal);
  process.once('SIGINT', onStartupSignal);

  const inflight = new InflightWork();
  let app: Awaited<ReturnType<typeof createApp>>;
  try {
    app = await createApp(config, logger, inflight);
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    listener.close();
    process.exit(1);
  }
  let fastifyHandler: Handler | undefined;
  const server = await buildServer(app, {
    serverFactory: (fastify) => {
      fastifyHandler = fastify;
      return listener;
    },
  });
  await server.ready();
  if (fastifyHandler) handler = fastifyHandler;
  // Operator commands (`tooldex keys`) reach the held embedded store through this socket.
  const admin = isEmbedded(app.store) ? await openAdminChannel(config.TOOLDEX_HOME, keyOperations(app.auth), logger) : undefined;
  // `tooldex mcp` processes on this machine share the held embedded store through this socket.
  const mcpSocket = isEmbedded(app.store) ? await openMcpSocket(config.TOOLDEX_HOME, app, logger) : undefined;
  if (isEmbedded(app.store)) {
    app.store.advertiseUrl(localUrl(address));
    if (admin) app.store.advertiseAdminSocket(admin.path);
  }
  logger.info({ address, store: app.store.kind, tools: app.catalog.size(), readyMs: Date.now() - started }, 'tooldex ready');

  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal, cut: inflight.size }, 'second signal while draining: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const report = await drain(inflight, drainTimeoutMs(config), logger);
    listener.close();
    listener.closeAllConnections(); // after the drain only idle or cut connections remain
    const closing = (async () => {
      await admin?.close();
      await mcpSocket?.close();
      await server.close();
      await app.close();
    })();
    const closed = await Promise.race([closing.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, 10_000, false).unref())]);
    if (!closed) logger.warn('closing the store and background work took over 10 s; exiting anyway');
    logger.info({ drained: report.drained, cut: report.cut.length }, 'stopped');
    process.exit(0);
  };
  process.off('SIGTERM', onStartupSignal);
  process.off('SIGINT', onStartupSignal);
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
