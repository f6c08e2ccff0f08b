// POST /tools/test: runs a snippet in the sandbox. Validates with the shared schema, calls sandbox.run, encodes.
// A failing snippet is a 200 with ok:false; the route has its own rate limit (TOOLDEX_TEST_RPM). Also the fleet's
// internal route: a call another instance forwards for a session held here (signed; not in the OpenAPI document).
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { App } from '../../app.ts';
import { ToolDexError } from '../../errors.ts';
import { FORWARD_PATH } from '../../sandbox/fleet.ts';
import { projectParam } from '../../project/schema.ts';
import { testRequestSchema } from '../../sandbox/schema.ts';
import { ownerOf } from '../owner.ts';
import { sendResult } from '../respond.ts';
import { formatParam } from '../schemas.ts';

export const testRoutes: FastifyPluginAsyncZod<{ app: App }> = async (server, { app }) => {
  server.post('/tools/test', {
    config: { rateLimit: { max: app.config.TOOLDEX_TEST_RPM, timeWindow: 60_000 } },
    schema: {
      summary: 'Install packages and run a snippet in an isolated sandbox (node, python, golang, ruby, rust)',
      tags: ['tools'],
      security: [{ bearer: [] }],
      body: testRequestSchema.safeExtend({ project: projectParam }),
      querystring: z.object({ format: formatParam }),
    },
  }, async (request, reply) => {
    // With authentication on, a session belongs to the organisation; with it off, to the client address.
    const owner = ownerOf(request);
    // With a project (POST /tools/resolve), packages named without a version install at the project's versions.
    const { project, ...body } = request.body;
    const packages = project ? await app.projects.pinPackages(body.runtime, body.packages, project, owner) : body.packages;
    return sendResult(reply, await app.sandbox.run({ ...body, packages }, owner), request.query.format);
  });

  // Its own budget per client address: the callers were rate-limited where they arrived, but bad signatures are not free.
  server.post(FORWARD_PATH, { config: { rateLimit: { max: app.config.TOOLDEX_SANDBOX_FORWARD_RPM, timeWindow: 60_000 } }, schema: { hide: true } }, async (request, reply) => {
    // The caller was already authenticated and rate-limited by the instance that forwarded it; the signature proves that.
    const call = await app.sandbox.verifyForwarded(JSON.stringify(request.body), request.headers['x-tooldex-fleet-signature'] as string | undefined);
    if (!call) throw new ToolDexError('forbidden', 403, 'Not a call forwarded by an instance of this fleet (bad or stale signature, or a replay).');
    return sendResult(reply, await app.sandbox.run(testRequestSchema.parse(call.request), call.owner, { forwarded: true }), 'json');
  });
};
