// GET /healthz: 200 when the store answers and the catalog index is loaded; 503 otherwise.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { ToolDexError } from '../../errors.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  server.get('/healthz', { schema: { summary: 'Readiness of the store and catalog', tags: ['service'] } }, async () => {
    try {
      await app.store.query('select 1');
    } catch {
      throw new ToolDexError('store_unavailable', 503, 'The store does not answer; see the server log.', { retryAfterSeconds: 5 });
    }
    return { status: 'ok', store: app.store.kind, tools: app.catalog.size() };
  });
};
