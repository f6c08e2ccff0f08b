// Serves the built dashboard (web/dist, made by `npm run build:web`) at /dashboard/ with strict browser headers.
// When it has not been built, /dashboard answers 503 dashboard_not_built naming the command.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { ToolDexError } from '../../errors.ts';

export const DASHBOARD_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export const dashboardStaticRoutes: FastifyPluginAsync = async (server) => {
  server.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/'));
  if (!fs.existsSync(path.join(DASHBOARD_DIST, 'index.html'))) {
    server.get('/dashboard/*', { schema: { hide: true } }, async () => {
      throw new ToolDexError('dashboard_not_built', 503, 'The dashboard has not been built; run `npm run build:web` and restart.', { retryAfterSeconds: 60 });
    });
    return;
  }
  await server.register(fastifyStatic, {
    root: DASHBOARD_DIST,
    prefix: '/dashboard/',
    decorateReply: false,
    schemaHide: true,
    setHeaders(reply, filePath) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
      // Hashed asset names never change content; index.html must be revalidated to pick up a new build.
      reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
};
