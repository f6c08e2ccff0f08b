// GET /tools/docs/:slug: passages from the tool's own documentation for a question. Validates, calls docs.search, encodes.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { askDocs, docsQuerySchema } from '../../docs/schema.ts';
import { projectParam } from '../../project/schema.ts';
import { ownerOf } from '../owner.ts';
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
      querystring: docsQuerySchema.safeExtend({ format: formatParam, project: projectParam }),
    },
  }, async (request, reply) => {
    const { format, project, ...input } = request.query;
    // With a project (POST /tools/resolve), a tool named without a version is answered at the project's version.
    const slug = project ? await app.projects.atProjectVersion(request.params.slug, project, ownerOf(request)) : request.params.slug;
    return sendResult(reply, await askDocs(app.docs, slug, input), format);
  });
};
