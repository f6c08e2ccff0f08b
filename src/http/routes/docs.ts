// GET /tools/docs/:slug: passages from the tool's own documentation for a question. Validates, calls docs.search, encodes.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { askDocs, docsQuerySchema } from '../../docs/schema.ts';
import { sendResult } from '../respond.ts';
import { formatParam } from '../schemas.ts';

export const slugParams = z.object({
  // Control characters (a NUL byte above all) are never part of a name, and PostgreSQL text cannot hold NUL.
  slug: z.string().trim().min(1).max(300).regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters (such as a NUL byte)')
    .describe('Tool slug from search results (npm-zod), or a registry name (zod, npm:zod, @scope%2Fname), optionally @version, @range or @tag (zod@3, zod@latest).'),
});

export const docsRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  server.get('/tools/docs/:slug', {
    schema: {
      summary: 'Search a tool\'s documentation (any published version, indexed on first use)',
      tags: ['tools'],
      security: [{ bearer: [] }],
      params: slugParams,
      querystring: docsQuerySchema.safeExtend({ format: formatParam }),
    },
  }, async (request, reply) => {
    const { format, ...input } = request.query;
    return sendResult(reply, await askDocs(app.docs, request.params.slug, input), format);
  });
};
