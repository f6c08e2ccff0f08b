// One rule for names a request does not define, on REST as on MCP: an unknown query parameter is refused with
// 422 invalid_request naming it and listing what the endpoint takes (a typo like `limt=5` is never silently ignored).
import type { FastifyInstance } from 'fastify';
import { ToolDexError } from '../errors.ts';
import { allowedKeys } from './validation-messages.ts';

export function registerUnknownParameterRule(server: FastifyInstance): void {
  server.addHook('preValidation', async (request) => {
    const schema = request.routeOptions?.schema as { hide?: boolean; querystring?: unknown } | undefined;
    if (request.is404 || schema?.hide) return; // hidden routes (dashboard files, icons) take cache-busting parameters
    const allowed = allowedKeys(schema?.querystring);
    const unknown = Object.keys((request.query ?? {}) as object).find((name) => !allowed.includes(name));
    if (unknown === undefined) return;
    throw new ToolDexError('invalid_request', 422,
      `Query parameter "${unknown.slice(0, 100)}" is not accepted; ${allowed.length ? `this endpoint takes ${allowed.join(', ')}` : 'this endpoint takes no query parameters'}.`,
      { field: unknown.slice(0, 100) });
  });
}
