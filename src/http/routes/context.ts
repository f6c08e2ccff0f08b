// GET /tools/context/:slug: install, import, quickstart and a ready test request for a tool version. Validates, calls docs.context, encodes.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { maxTokensParam } from '../../docs/schema.ts';
import { projectParam } from '../../project/schema.ts';
import { ownerOf } from '../owner.ts';
import { sendResult } from '../respond.ts';
import { formatParam } from '../schemas.ts';
import { slugParams } from './docs.ts';

export const contextRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  server.get('/tools/context/:slug', {
    schema: {
      summary: 'Everything needed before writing code with a tool: install, imports, quickstart, requirements',
      tags: ['tools'],
      security: [{ bearer: [] }],
      params: slugParams,
      querystring: z.object({ format: formatParam, maxTokens: maxTokensParam.optional(), project: projectParam }),
    },
  }, async (request, reply) => {
    const { format, maxTokens, project } = request.query;
    const slug = project ? await app.projects.atProjectVersion(request.params.slug, project, ownerOf(request)) : request.params.slug;
    return sendResult(reply, await app.docs.context(slug, { maxTokens }), format);
  });
};
