// The explorer's path to the tools when the server requires API keys: the same four calls as /tools/*, but
// authenticated by the dashboard session, run as the signed-in user's organisation, with the same test budget.
// GET /dashboard/api/server tells any page which mode the server is in. Validates, calls the capability, encodes.
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { idSchema } from '../../auth/schema.ts';
import { askDocs, docsQuerySchema, maxTokensParam } from '../../docs/schema.ts';
import { ToolDexError } from '../../errors.ts';
import { resolveRequestSchema } from '../../project/schema.ts';
import { testRequestSchema } from '../../sandbox/schema.ts';
import { sendResult } from '../respond.ts';
import { slugParams } from './docs.ts';
import { RESOLVE_BODY_LIMIT_BYTES } from './resolve.ts';
import { searchQuerystring } from './search.ts';
import { requireSession } from './dashboard-session.ts';

const tags = ['dashboard'];

/** What the dashboard and explorer pages need to know about this server before they call anything. */
export const serverInfoBody = z.object({
  auth: z.enum(['off', 'required']).describe('Whether /tools/* needs an API key.'),
  testRunsPerMinute: z.number().int().describe('TOOLDEX_TEST_RPM: test runs a minute per key (or organisation, from the explorer).'),
}).describe('Authentication mode and test budget of this server');
export type ServerInfo = z.infer<typeof serverInfoBody>;

export const dashboardExploreRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  server.get('/dashboard/api/server', { schema: { tags, summary: 'Authentication mode and test budget of this server (no sign-in needed)' } },
    async (_request, reply) => sendResult(reply, {
      auth: app.auth.required ? 'required' : 'off', testRunsPerMinute: app.config.TOOLDEX_TEST_RPM,
    } satisfies ServerInfo, 'json'));

  await server.register(async (scope) => {
    scope.addHook('preHandler', requireSession(app));
    const signedIn = scope.withTypeProvider<ZodTypeProvider>();
    const user = (request: FastifyRequest) => {
      if (!request.dashboardSession) throw new Error('session hook did not run');
      return request.dashboardSession.user;
    };

    signedIn.get('/dashboard/api/tools/search', {
      schema: { tags, summary: 'GET /tools/search for a signed-in user', querystring: searchQuerystring.omit({ format: true }) },
    }, async (request, reply) => {
      const { q, ...options } = request.query;
      return sendResult(reply, await app.catalog.search(q, options), 'json');
    });

    signedIn.get('/dashboard/api/tools/context/:slug', {
      schema: { tags, summary: 'GET /tools/context/:slug for a signed-in user', params: slugParams, querystring: z.object({ maxTokens: maxTokensParam.optional() }) },
    }, async (request, reply) => sendResult(reply, await app.docs.context(request.params.slug, { maxTokens: request.query.maxTokens }), 'json'));

    signedIn.get('/dashboard/api/tools/docs/:slug', {
      schema: { tags, summary: 'GET /tools/docs/:slug for a signed-in user', params: slugParams, querystring: docsQuerySchema },
    }, async (request, reply) => {
      return sendResult(reply, await askDocs(app.docs, request.params.slug, request.query), 'json');
    });

    signedIn.post('/dashboard/api/orgs/:orgId/tools/resolve', {
      bodyLimit: RESOLVE_BODY_LIMIT_BYTES,
      schema: {
        tags, summary: 'POST /tools/resolve as one of your organisations (the project belongs to it)',
        params: z.object({ orgId: idSchema('org') }), body: resolveRequestSchema,
      },
    }, async (request, reply) => {
      const org = await app.auth.orgs.requireMember(request.params.orgId, user(request).id);
      const { files, transitive } = request.body;
      return sendResult(reply, await app.projects.resolve(files, `org:${org.id}`, { transitive }), 'json');
    });

    signedIn.post('/dashboard/api/orgs/:orgId/tools/test', {
      schema: {
        tags, summary: 'POST /tools/test as one of your organisations (its sandbox sessions, TOOLDEX_TEST_RPM a minute)',
        params: z.object({ orgId: idSchema('org') }), body: testRequestSchema,
      },
    }, async (request, reply) => {
      const org = await app.auth.orgs.requireMember(request.params.orgId, user(request).id);
      // One budget per organisation for runs from the browser, counted like POST /tools/test counts per key.
      const max = app.config.TOOLDEX_TEST_RPM;
      const { count, ttlMs } = await app.auth.rateLimit.hit(`dashboard-test|org:${org.id}`, 60_000);
      if (count > max) {
        const retryAfterSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
        throw new ToolDexError('rate_limited', 429,
          `Rate limit of ${max} test runs per minute for ${org.name} exceeded; retry after ${retryAfterSeconds} s.`, { retryAfterSeconds });
      }
      return sendResult(reply, await app.sandbox.run(request.body, `org:${org.id}`), 'json');
    });
  });
};
