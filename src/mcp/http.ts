// POST /mcp: the MCP Streamable HTTP transport on the running server, stateless (one MCP server per request),
// so any instance behind a load balancer answers any call. Same hooks as REST: auth, rate limits, error bodies.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';
import { capabilitiesOf } from './capabilities.ts';
import { createMcpServer } from './server.ts';

/** Sandbox sessions over MCP belong to the caller's organisation when auth set one, else to its address. */
function ownerOf(request: FastifyRequest): string {
  return (request as FastifyRequest & { orgId?: string }).orgId ?? request.ip;
}

function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://${request.hostname}${request.url}`, { method: request.method, headers });
}

export const mcpRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  const caps = capabilitiesOf(app);

  server.post('/mcp', {
    schema: {
      summary: 'MCP over Streamable HTTP (JSON-RPC): tools search_tools, get_tool_context, search_docs, test_tool',
      tags: ['mcp'],
      security: [{ bearer: [] }],
    },
  }, async (request, reply) => {
    const mcp = createMcpServer(caps, { owner: ownerOf(request) }, {
      onUnexpectedError: (err, tool) => request.log.error({ err, tool }, 'MCP tool failed'),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await mcp.connect(transport);
      const response = await transport.handleRequest(toWebRequest(request), { parsedBody: request.body });
      reply.status(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      return reply.send(await response.text());
    } finally {
      await mcp.close();
    }
  });

  // Stateless: no server-initiated stream to GET and no session to DELETE (the spec's answer is 405).
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', 'POST');
    throw new ToolDexError('method_not_allowed', 405,
      'This MCP endpoint is stateless: send JSON-RPC messages with POST /mcp; GET streams and DELETE sessions are not offered.');
  };
  server.get('/mcp', { schema: { hide: true } }, notAllowed);
  server.delete('/mcp', { schema: { hide: true } }, notAllowed);
};
