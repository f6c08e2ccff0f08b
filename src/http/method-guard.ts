// 405 Method Not Allowed with an Allow header for a path that exists under other methods (TRACE, DELETE, POST on a
// GET route…), in the one error body; paths that exist under no method stay 404. Runs before auth and body parsing.
import type { FastifyInstance } from 'fastify';
import { ToolDexError } from '../errors.ts';

interface PathMethods {
  pattern: RegExp;
  /** Methods with a documented route. */
  documented: Set<string>;
  /** Methods with any route, documented or hidden (e.g. a hidden route that itself answers 405). */
  all: Set<string>;
}

/** '/tools/docs/:slug' → ^/tools/docs/[^/]+$ ; '/dashboard/*' → ^/dashboard/.*$ (find-my-way's rules). */
function patternOf(url: string): RegExp {
  const source = url.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':')) return '[^/]+';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }).join('/');
  return new RegExp(`^${source}$`);
}

export function methodNotAllowed(allow: string): ToolDexError {
  return new ToolDexError('method_not_allowed', 405, `This path answers ${allow} only.`, { allow });
}

/** Call before the route groups register: it records every route, then guards requests that found none. */
export function registerMethodGuard(server: FastifyInstance): void {
  const paths = new Map<string, PathMethods>();
  server.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const entry = paths.get(route.url) ?? { pattern: patternOf(route.url), documented: new Set<string>(), all: new Set<string>() };
    const hidden = Boolean((route.schema as { hide?: boolean } | undefined)?.hide);
    for (const method of methods) {
      entry.all.add(method);
      if (!hidden) entry.documented.add(method);
      if (method === 'GET') {
        entry.all.add('HEAD'); // Fastify answers HEAD for every GET route
        if (!hidden) entry.documented.add('HEAD');
      }
    }
    paths.set(route.url, entry);
  });

  server.addHook('onRequest', async (request, reply) => {
    // Either no route matched, or only a hidden catch-all did (the dashboard's files under /dashboard/*) where a
    // documented route owns the path under other methods: GET /dashboard/api/logout is a wrong method, not a file.
    const hiddenCatchAll = !request.is404 && Boolean((request.routeOptions?.schema as { hide?: boolean } | undefined)?.hide)
      && (request.routeOptions?.url ?? '').endsWith('*');
    if (!request.is404 && !hiddenCatchAll) return;
    const path = request.url.split('?')[0] ?? '';
    const documented = new Set<string>();
    const all = new Set<string>();
    for (const entry of paths.values()) {
      if (!entry.pattern.test(path)) continue;
      entry.documented.forEach((method) => documented.add(method));
      entry.all.forEach((method) => all.add(method));
    }
    // A path with documented methods answers those; one with only hidden routes answers whatever they take.
    const allowed = documented.size ? documented : hiddenCatchAll ? new Set<string>() : all;
    if (allowed.size === 0 || allowed.has(request.method)) return;
    const allow = [...allowed].sort().join(', ');
    reply.header('allow', allow);
    throw methodNotAllowed(allow);
  });
}
