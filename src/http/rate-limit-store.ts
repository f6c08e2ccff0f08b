// @fastify/rate-limit's store interface over the auth capability's shared counters (in the database),
// so every instance over one PostgreSQL counts against the same budget. Each route budget gets its own namespace.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Auth } from '../auth/index.ts';

export function sharedRateLimitStore(auth: Auth): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    constructor(_options: unknown, private readonly namespace = 'all') {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      auth.rateLimit.hit(`${this.namespace}|${key}`, timeWindow)
        .then((hit) => callback(null, { current: hit.count, ttl: hit.ttlMs }), (error: Error) => callback(error));
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // At run time the plugin passes its merged settings, with the route under `routeInfo`.
      const info = (routeOptions as unknown as { routeInfo?: { method?: unknown; url?: string } }).routeInfo ?? {};
      return new SharedStore(undefined, `${String(info.method ?? '')} ${info.url ?? ''}`);
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}
