// GET /tools/search: the directory search route. Validates, calls catalog.search, encodes.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { ECOSYSTEMS, MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT } from '../../catalog/index.ts';
import { sendResult } from '../respond.ts';
import { formatParam } from '../schemas.ts';

export const searchQuerystring = z.object({
  q: z.string().trim().min(1, 'q is required: a natural-language description of the tool you need')
    .max(MAX_QUERY_LENGTH, `q is limited to ${MAX_QUERY_LENGTH} characters`)
    .describe('What the tool should do, in plain words ("validate typescript object schemas at runtime").'),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(10).describe(`Results to return (1–${MAX_SEARCH_LIMIT}).`),
  language: z.string().max(50).optional().describe('Only tools for this language (JavaScript, TypeScript, Python, Rust, Go, Ruby).'),
  ecosystem: z.enum(ECOSYSTEMS).optional().describe('Only tools of this registry.'),
  category: z.string().max(50).optional().describe('Only tools in this category (see a result\'s categories).'),
  format: formatParam,
});

export const searchRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  server.get('/tools/search', {
    schema: {
      summary: 'Search the tool directory in natural language',
      tags: ['tools'],
      security: [{ bearer: [] }],
      querystring: searchQuerystring,
    },
  }, async (request, reply) => {
    const { q, format, ...options } = request.query;
    return sendResult(reply, await app.catalog.search(q, options), format);
  });
};
