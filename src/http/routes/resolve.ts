// POST /tools/resolve: a project's lockfiles and manifests → its direct dependencies at exact versions, and a project
// id that docs, context and test calls take. Validates, calls projects.resolve, encodes.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { PROJECT_FILES_LIMIT_BYTES } from '../../project/index.ts';
import { resolveRequestSchema } from '../../project/schema.ts';
import { ownerOf } from '../owner.ts';
import { sendResult } from '../respond.ts';
import { formatParam } from '../schemas.ts';

/** Room for 5 MiB of file text once JSON-escaped (quotes, backslashes and newlines grow it). */
export const RESOLVE_BODY_LIMIT_BYTES = Math.ceil(PROJECT_FILES_LIMIT_BYTES * 1.6);

export const resolveRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  server.post('/tools/resolve', {
    bodyLimit: RESOLVE_BODY_LIMIT_BYTES,
    schema: {
      summary: 'Read a project\'s lockfiles and manifests: direct dependencies at exact versions, and a project id for docs, context and test',
      tags: ['tools'],
      security: [{ bearer: [] }],
      body: resolveRequestSchema,
      querystring: z.object({ format: formatParam }),
    },
  }, async (request, reply) => {
    const { files, transitive } = request.body;
    return sendResult(reply, await app.projects.resolve(files, ownerOf(request), { transitive }), request.query.format);
  });
};
