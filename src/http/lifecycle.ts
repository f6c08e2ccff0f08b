// The HTTP side of draining: every request is in-flight work until its response is sent, and once SIGTERM
// started a drain, new requests (except health probes) get 503 shutting_down with Retry-After and Connection: close.
import type { FastifyInstance } from 'fastify';
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';

/** Probes stay answerable while draining: readiness must say "no" and liveness "yes" until the process exits. */
export const PROBE_PATHS = new Set(['/livez', '/healthz', '/readyz']);

export const DRAIN_RETRY_AFTER_SECONDS = 5;

export function shuttingDown(): ToolDexError {
  return new ToolDexError('shutting_down', 503,
    'This instance is shutting down for a deploy; retry (another instance will answer).', { retryAfterSeconds: DRAIN_RETRY_AFTER_SECONDS });
}

export async function registerLifecycle(server: FastifyInstance, app: App): Promise<void> {
  server.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (PROBE_PATHS.has(path)) return;
    if (app.inflight.draining) {
      reply.header('connection', 'close');
      throw shuttingDown();
    }
    const work = app.inflight.begin('request', `${request.method} ${path.slice(0, 200)}`);
    // 'close' fires when the response is finished or the connection dropped, whichever comes first.
    reply.raw.once('close', work.end);
  });
}
