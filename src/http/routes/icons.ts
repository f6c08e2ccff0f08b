// GET /icons/:ecosystem.svg: the small badge each search result names in `image`.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ECOSYSTEMS } from '../../catalog/index.ts';
import { notFound } from '../../errors.ts';

const COLORS: Record<(typeof ECOSYSTEMS)[number], string> = {
  npm: '#cb3837', pypi: '#3775a9', crates: '#e6a23c', go: '#00add8', rubygems: '#e9573f',
};

export const iconRoutes: FastifyPluginAsyncZod = async (server) => {
  server.get('/icons/:file', {
    schema: { hide: true, params: z.object({ file: z.string().regex(/^[a-z]+\.svg$/) }) },
    config: { rateLimit: false },
  }, async (request, reply) => {
    const ecosystem = request.params.file.replace('.svg', '') as (typeof ECOSYSTEMS)[number];
    const color = COLORS[ecosystem];
    if (!color) throw notFound(`No icon ${request.params.file}; ecosystems are ${ECOSYSTEMS.join(', ')}.`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${color}"/><text x="32" y="40" font-family="sans-serif" font-size="16" font-weight="bold" fill="#fff" text-anchor="middle">${ecosystem}</text></svg>`;
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
  });
};
