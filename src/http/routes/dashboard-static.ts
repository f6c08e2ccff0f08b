// Serves the built web pages (web/dist, made by `npm run build:web`) with strict browser headers: the explorer at /,
// the dashboard at /dashboard/, their shared hashed assets at /assets/. Unbuilt: 503 dashboard_not_built naming the command.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ToolDexError } from '../../errors.ts';

export const DASHBOARD_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const PAGES = { '/': 'index.html', '/dashboard/': 'dashboard/index.html' } as const;

export const dashboardStaticRoutes: FastifyPluginAsync = async (server) => {
  server.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/'));
  const built = Object.values(PAGES).every((page) => fs.existsSync(path.join(DASHBOARD_DIST, page)));
  if (!built) {
    const notBuilt = async () => {
      throw new ToolDexError('dashboard_not_built', 503, 'The web pages have not been built; run `npm run build:web` and restart.', { retryAfterSeconds: 60 });
    };
    server.get('/', { schema: { hide: true } }, notBuilt);
    server.get('/dashboard/*', { schema: { hide: true } }, notBuilt);
    return;
  }
  const secure = (reply: FastifyReply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
  };
  for (const [route, file] of Object.entries(PAGES)) {
    // Read per request: a rebuild (npm run build:web) is picked up without a restart, and the pages are small.
    server.get(route, { schema: { hide: true } }, async (_request, reply) => {
      secure(reply);
      // The page names hashed assets: it must be revalidated to pick up a new build.
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache')
        .send(await fs.promises.readFile(path.join(DASHBOARD_DIST, file)));
    });
  }
  await server.register(fastifyStatic, {
    root: path.join(DASHBOARD_DIST, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    schemaHide: true,
    index: false,
    setHeaders(reply) {
      secure(reply);
      // Hashed asset names never change content.
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
};
