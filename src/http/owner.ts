// Who a request acts for: the organisation of its API key (auth on) or the client address (auth off). Sandbox
// sessions and resolved projects belong to it.
import type { FastifyRequest } from 'fastify';

export const ownerOf = (request: FastifyRequest) => (request.orgId ? `org:${request.orgId}` : `ip:${request.ip}`);
