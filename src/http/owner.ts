// Who a request acts for: the organisation of its API key (auth on) or the client address (auth off). Sandbox
// sessions and resolved projects belong to it, the same string over REST and MCP (a session made over one is reusable
// over the other).
import type { FastifyRequest } from 'fastify';

export const ownerOf = (request: FastifyRequest) => (request.orgId ? `org:${request.orgId}` : `ip:${request.ip}`);
