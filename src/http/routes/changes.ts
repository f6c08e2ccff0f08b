// GET /tools/changes/:slug?from=&to=: what changed between two published versions. Validates, calls changes.between, encodes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { changesQuerySchema } from '../../changes/schema.ts';
import { sendResult } from '../respond.ts';
import { formatParam } from '../schemas.ts';
import { slugParams } from './docs.ts';

export const changesRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  server.get('/tools/changes/:slug', {
    schema: {
      summary: 'What changed between two versions: public API removed, added, changed, deprecated, and the release notes of the range',
      tags: ['tools'],
      security: [{ bearer: [] }],
      params: slugParams,
      querystring: changesQuerySchema.extend({ format: formatParam }),
    },
  }, async (request, reply) => {
    const { from, to, q, maxTokens, format } = request.query;
    return sendResult(reply, await app.changes.between(request.params.slug, from, to, { q, maxTokens }), format);
  });
};
