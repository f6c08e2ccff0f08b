// The dashboard's JSON API under /dashboard/api: accounts and sessions, organisations, members, invites,
// API keys and their usage. Cookie-authenticated (not API keys); validates with zod, calls src/auth, encodes.
import cookie from '@fastify/cookie';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { USAGE_DAYS_MAX } from '../../auth/index.ts';
import { credentialsSchema, emailSchema, idSchema, keyNameSchema, loginSchema, orgNameSchema } from '../../auth/schema.ts';
import { sendResult } from '../respond.ts';
import { dashboardExploreRoutes } from './dashboard-explore.ts';
import { assertSameSite, clearSessionCookie, requireSession, setSessionCookie } from './dashboard-session.ts';

const tags = ['dashboard'];
const orgParams = z.object({ orgId: idSchema('org') });
const keyParams = orgParams.extend({ keyId: idSchema('key') });

export const dashboardApiRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  await server.register(cookie);
  // The explorer's session-authenticated tool calls and the server-mode probe; they need the cookie plugin above.
  await server.register(dashboardExploreRoutes, { app });

  const startSession = async (userId: string) => app.auth.accounts.startSession(userId);

  server.post('/dashboard/api/signup', { schema: { tags, summary: 'Create a dashboard account and sign in', body: credentialsSchema } },
    async (request, reply) => {
      assertSameSite(request);
      const user = await app.auth.accounts.signUp(request.body.email, request.body.password);
      const session = await startSession(user.id);
      setSessionCookie(app, request, reply, session);
      request.log.info({ userId: user.id }, 'dashboard account created');
      return sendResult(reply, { user, csrfToken: session.csrfToken, orgs: [] }, 'json', 201);
    });

  server.post('/dashboard/api/login', { schema: { tags, summary: 'Sign in (throttled after repeated failures)', body: loginSchema } },
    async (request, reply) => {
      assertSameSite(request);
      const user = await app.auth.accounts.signIn(request.body.email, request.body.password, request.ip);
      const session = await startSession(user.id);
      setSessionCookie(app, request, reply, session);
      return sendResult(reply, { user, csrfToken: session.csrfToken, orgs: await app.auth.orgs.of(user.id) }, 'json');
    });

  // Everything below needs a session; state changes also need the session's CSRF token.
  await server.register(async (signedIn) => {
    signedIn.addHook('preHandler', requireSession(app));
    const session = (request: FastifyRequest) => {
      if (!request.dashboardSession) throw new Error('session hook did not run');
      return request.dashboardSession;
    };
    const typed = signedIn.withTypeProvider<ZodTypeProvider>();

    typed.get('/dashboard/api/me', { schema: { tags, summary: 'The signed-in user, their organisations and CSRF token' } },
      async (request, reply) => {
        const { user, csrfToken } = session(request);
        return sendResult(reply, { user, csrfToken, orgs: await app.auth.orgs.of(user.id) }, 'json');
      });

    typed.post('/dashboard/api/logout', { schema: { tags, summary: 'End this session' } }, async (request, reply) => {
      await app.auth.accounts.endSession(session(request).token);
      clearSessionCookie(app, request, reply);
      return reply.status(204).send();
    });

    typed.post('/dashboard/api/orgs', { schema: { tags, summary: 'Create an organisation you own', body: z.object({ name: orgNameSchema }).strict() } },
      async (request, reply) => {
        const org = await app.auth.orgs.create(request.body.name, session(request).user.id);
        return sendResult(reply, org, 'json', 201);
      });

    typed.get('/dashboard/api/orgs/:orgId/members', { schema: { tags, summary: 'Members of an organisation', params: orgParams } },
      async (request, reply) => {
        await app.auth.orgs.requireMember(request.params.orgId, session(request).user.id);
        return sendResult(reply, { members: await app.auth.orgs.members(request.params.orgId) }, 'json');
      });

    typed.post('/dashboard/api/orgs/:orgId/invites', {
      schema: { tags, summary: 'Invite someone by link (shown here and logged; no mail is sent)', params: orgParams, body: z.object({ email: emailSchema }).strict() },
    }, async (request, reply) => {
      const { user } = session(request);
      const org = await app.auth.orgs.requireMember(request.params.orgId, user.id);
      const invite = await app.auth.invites.create(org.id, request.body.email, user.id);
      const link = `${request.protocol}://${request.host}/dashboard/#/invite/${invite.token}`;
      request.log.info({ org: org.name, email: invite.email, link }, 'organisation invite created');
      return sendResult(reply, { id: invite.id, email: invite.email, org: org.name, link, expiresAt: invite.expiresAt }, 'json', 201);
    });

    typed.post('/dashboard/api/invites/accept', {
      schema: { tags, summary: 'Join the organisation of an invite link', body: z.object({ token: z.string().min(20).max(100) }).strict() },
    }, async (request, reply) => sendResult(reply, await app.auth.invites.accept(request.body.token, session(request).user), 'json'));

    typed.get('/dashboard/api/orgs/:orgId/keys', { schema: { tags, summary: 'API keys of an organisation', params: orgParams } },
      async (request, reply) => {
        await app.auth.orgs.requireMember(request.params.orgId, session(request).user.id);
        return sendResult(reply, { keys: await app.auth.keys.list({ orgId: request.params.orgId }) }, 'json');
      });

    typed.post('/dashboard/api/orgs/:orgId/keys', {
      schema: { tags, summary: 'Create an API key (the key is in this response only)', params: orgParams, body: z.object({ name: keyNameSchema }).strict() },
    }, async (request, reply) => {
      const { user } = session(request);
      await app.auth.orgs.requireMember(request.params.orgId, user.id);
      const created = await app.auth.keys.create({ orgId: request.params.orgId, name: request.body.name, createdBy: user.email });
      request.log.info({ keyId: created.id, orgId: created.orgId, by: user.id }, 'API key created');
      return sendResult(reply, created, 'json', 201);
    });

    typed.post('/dashboard/api/orgs/:orgId/keys/:keyId/revoke', { schema: { tags, summary: 'Revoke an API key (effective on the next request)', params: keyParams } },
      async (request, reply) => {
        const { user } = session(request);
        await app.auth.orgs.requireMember(request.params.orgId, user.id);
        const key = await app.auth.keys.revoke(request.params.keyId, request.params.orgId);
        request.log.info({ keyId: key.id, orgId: key.orgId, by: user.id }, 'API key revoked');
        return sendResult(reply, key, 'json');
      });

    typed.get('/dashboard/api/orgs/:orgId/keys/:keyId/usage', {
      schema: { tags, summary: 'Requests and test runs per day of one key', params: keyParams, querystring: z.object({ days: z.coerce.number().int().min(1).max(USAGE_DAYS_MAX).default(14) }) },
    }, async (request, reply) => {
      await app.auth.orgs.requireMember(request.params.orgId, session(request).user.id);
      return sendResult(reply, await app.auth.keys.usage(request.params.keyId, request.params.orgId, request.query.days), 'json');
    });
  });
};
