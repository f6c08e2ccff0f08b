// POST /mcp: the MCP Streamable HTTP transport on the running server, stateless (one MCP server per request),
// so any instance behind a load balancer answers any call. Same hooks as REST: auth, rate limits, error bodies.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';
import { rateLimitKey } from '../http/rate-limit.ts';
import { ownerOf } from '../http/owner.ts';
import { createMcpServer } from './server.ts';

/** test_tool runs have a TOOLDEX_TEST_RPM budget of their own per key or address, like POST /tools/test
 * (a separate counter: the rate-limit plugin keeps one per route, and /mcp is another route). */
function admitFor(app: App, server: FastifyInstance) {
  const testBudget = server.createRateLimit({
    max: app.config.TOOLDEX_TEST_RPM, timeWindow: 60_000, keyGenerator: (request) => `mcp-test|${rateLimitKey(request)}`,
  });
  return (request: FastifyRequest) => async (tool: string) => {
    if (tool !== 'test_tool') return;
    const verdict = await testBudget(request);
    if (!verdict.isAllowed && verdict.isExceeded) {
      const retryAfterSeconds = Math.max(1, verdict.ttlInSeconds);
      throw new ToolDexError('rate_limited', 429,
        `Rate limit of ${verdict.max} test runs per minute exceeded; retry after ${retryAfterSeconds} s.`, { retryAfterSeconds });
    }
  };
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
  const admit = admitFor(app, server);

  server.post('/mcp', {
    schema: {
      summary: 'MCP over Streamable HTTP (JSON-RPC): tools search_tools, get_tool_context, search_docs, test_tool',
      tags: ['mcp'],
      security: [{ bearer: [] }],
    },
  }, async (request, reply) => {
    const mcp = createMcpServer(app, { owner: ownerOf(request), admit: admit(request) }, {
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
