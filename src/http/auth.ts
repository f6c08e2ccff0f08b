// The API-key hook of the REST surface: /tools/* and /mcp need `Authorization: Bearer <key>` when
// TOOLDEX_AUTH=required; a valid key sets request.orgId / request.apiKeyId (session owner, rate-limit bucket, usage).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organisation of the API key that authenticated this request, if any. */
    orgId?: string;
    apiKeyId?: string;
  }
}

export const isProtectedPath = (url: string): boolean => {
  const path = url.split('?')[0] ?? '';
  return path.startsWith('/tools/') || path === '/mcp' || path.startsWith('/mcp/');
};

const isTestRun = (request: FastifyRequest) => request.method === 'POST' && (request.url.split('?')[0] ?? '') === '/tools/test';

const missingKey = () => new ToolDexError('missing_api_key', 401,
  'This endpoint needs an API key: send `Authorization: Bearer <API_KEY>` (create one under Settings → API Keys or with `tooldex keys create`).');

export async function registerAuth(server: FastifyInstance, app: App): Promise<void> {
  server.decorateRequest('orgId', undefined);
  server.decorateRequest('apiKeyId', undefined);
  // A root onRequest hook runs before the per-route rate-limit hooks, so those can count per key.
  // Refused requests never reach the rate limiter, so they get their own per-address budget: guessing keys
  // or hammering without one costs the caller a 429 instead of costing the store a lookup per attempt.
  const refuse = async (request: FastifyRequest, error: ToolDexError): Promise<never> => {
    const max = app.config.TOOLDEX_RATE_LIMIT_RPM;
    const { count, ttlMs } = await app.auth.rateLimit.hit(`refused|ip:${request.ip}`, 60_000);
    if (count > max) {
      throw new ToolDexError('rate_limited', 429, `Too many requests without a valid API key (${max} a minute); retry after ${Math.ceil(ttlMs / 1000)} s.`,
        { retryAfterSeconds: Math.ceil(ttlMs / 1000) });
    }
    throw error;
  };

  server.addHook('onRequest', async (request) => {
    if (!isProtectedPath(request.url)) return;
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      if (app.auth.required) await refuse(request, missingKey());
      return;
    }
    const key = /^Bearer +(\S+) *$/i.exec(header)?.[1];
    try {
      if (!key) throw new ToolDexError('invalid_api_key', 403, 'The Authorization header must be `Bearer <API_KEY>`.');
      const principal = await app.auth.verifyKey(key);
      request.orgId = principal.orgId;
      request.apiKeyId = principal.keyId;
      app.auth.recordUsage(principal.keyId, isTestRun(request) ? 'test' : 'request');
    } catch (error) {
      if (!(error instanceof ToolDexError)) throw error;
      // With auth off (public beta) a bad key is ignored: the request is served anonymously, limited per address.
      if (app.auth.required) await refuse(request, error);
    }
  });
}
