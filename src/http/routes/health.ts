// Probes: GET /livez (liveness: the process answers; 200 even while the database is away or draining) and
// GET /healthz = /readyz (readiness: 200 when this instance should get traffic; 503 starting/draining/store away).
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from '../../store/index.ts';
import { ToolDexError } from '../../errors.ts';
import { shuttingDown } from '../lifecycle.ts';

export const readinessBody = z.object({
  status: z.literal('ok'),
  store: z.enum(['pglite', 'postgres']),
  tools: z.number().int().describe('Tools in the directory index.'),
}).describe('Ready');

export const livenessBody = z.object({
  status: z.literal('alive'),
  uptimeSeconds: z.number(),
}).describe('Alive');

export const healthRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  const ready = async () => {
    if (app.inflight.draining) throw shuttingDown();
    const availability = app.store.availability?.();
    if (availability && !availability.available) {
      throw new ToolDexError('store_unavailable', 503, 'Not ready: the database does not answer.', { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS });
    }
    try {
      await app.store.query('select 1');
    } catch (error) {
      if (isStoreUnavailable(error)) throw error;
      throw new ToolDexError('store_unavailable', 503, 'Not ready: the store does not answer; see the server log.', { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS });
    }
    return { status: 'ok' as const, store: app.store.kind, tools: app.catalog.size() };
  };
  const probe = { tags: ['service'], querystring: z.object({}) };
  server.get('/healthz', { schema: { ...probe, summary: 'Readiness: 200 when this instance should receive traffic (store answers, not draining)' } }, ready);
  server.get('/readyz', { schema: { ...probe, summary: 'Readiness (same as /healthz)' } }, ready);
  server.get('/livez', { schema: { ...probe, summary: 'Liveness: 200 while the process answers, even when the database is away or it is draining' } },
    async () => ({ status: 'alive' as const, uptimeSeconds: Math.round(process.uptime()) }));
};
