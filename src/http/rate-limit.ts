// Rate limits on every endpoint (per API key, else per client IP) with IETF RateLimit-* headers.
// Routes with their own budget (POST /tools/test) set `config.rateLimit` and get a dedicated counter.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';

/** The bucket a request counts against: its API key (hashed, never stored in clear) or its IP. */
export function rateLimitKey(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return `key:${createHash('sha256').update(header.slice(7)).digest('hex').slice(0, 32)}`;
  return `ip:${request.ip}`;
}

export async function registerRateLimit(server: FastifyInstance, app: App): Promise<void> {
  await server.register(rateLimit, {
    global: true,
    max: app.config.TOOLDEX_RATE_LIMIT_RPM,
    timeWindow: 60_000,
    keyGenerator: rateLimitKey,
    enableDraftSpec: true,
    allowList: (request) => request.url === '/healthz',
    errorResponseBuilder: (_request, context) =>
      new ToolDexError('rate_limited', 429,
        `Rate limit of ${context.max} requests per ${context.after} exceeded; retry after ${Math.ceil(context.ttl / 1000)} s.`,
        { retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });
}
