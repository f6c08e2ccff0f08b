// Rate limits on every endpoint (per API key, else per client IP) with IETF RateLimit-* headers.
// Routes with their own budget (POST /tools/test) set `config.rateLimit` and get a dedicated counter.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';
import { PROBE_PATHS } from './lifecycle.ts';
import { sharedRateLimitStore } from './rate-limit-store.ts';

/** The bucket a request counts against: the API key id the auth hook verified (src/http/auth.ts), or the IP. */
export function rateLimitKey(request: FastifyRequest): string {
  return request.apiKeyId ? `key:${request.apiKeyId}` : `ip:${request.ip}`;
}

export async function registerRateLimit(server: FastifyInstance, app: App): Promise<void> {
  await server.register(rateLimit, {
    global: true,
    max: app.config.TOOLDEX_RATE_LIMIT_RPM,
    timeWindow: 60_000,
    keyGenerator: rateLimitKey,
    // Several instances share one PostgreSQL, so their counters live there; the embedded store admits one
    // process, whose counters stay in memory (a database write per request would serialise every request).
    // With REDIS_URL the counters live in Redis whatever the store (src/auth/ratelimit.ts).
    ...(app.store.kind === 'postgres' || app.config.REDIS_URL ? { store: sharedRateLimitStore(app.auth) } : {}),
    skipOnError: true, // a counter store that fails (Redis down) lets requests through rather than failing them all
    enableDraftSpec: true,
    allowList: (request) => PROBE_PATHS.has(request.url.split('?')[0] ?? ''),
    errorResponseBuilder: (_request, context) =>
      new ToolDexError('rate_limited', 429,
        `Rate limit of ${context.max} requests per minute exceeded; retry after ${Math.ceil(context.ttl / 1000)} s.`,
        { retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });
}
