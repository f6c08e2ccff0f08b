// buildServer(app): the Fastify instance of the REST surface. Route groups register themselves;
// tests start it on port 0. It translates only: capabilities do the work.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';
import { registerAuth } from './auth.ts';
import { registerLifecycle } from './lifecycle.ts';
import { BODY_LIMIT_BYTES, replyWithError } from './errors.ts';
import { clientErrorHandler, frameworkErrors, MAX_PARAM_LENGTH, rejectMalformedQuery } from './framework-errors.ts';
import { registerMethodGuard } from './method-guard.ts';
import { createOpenApiTransform } from './openapi.ts';
import { registerUnknownParameterRule } from './unknown-parameters.ts';
import { registerRateLimit } from './rate-limit.ts';
import { routeGroups } from './routes/index.ts';

export type Server = FastifyInstance;

export interface BuildOptions {
  /** The process's own listener (src/serve.ts opens the port before the app is ready); tests let Fastify listen. */
  serverFactory?: FastifyServerOptions['serverFactory'];
}

export async function buildServer(app: App, options: BuildOptions = {}): Promise<Server> {
  const server = Fastify({
    loggerInstance: app.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: false,
    // Every error in one body: Node's parser errors, the router's, and path parameters long enough for our schemas.
    clientErrorHandler, frameworkErrors, routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: false, // draining answers new requests itself (src/http/lifecycle.ts), in the error contract
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
  }).withTypeProvider<ZodTypeProvider>();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  server.setErrorHandler((error, request, reply) => replyWithError(error, request, reply));
  // JSON only: a text/plain body would reach a schema as a string and fail there with a confusing message; 415 says why.
  server.removeContentTypeParser('text/plain');
  server.setNotFoundHandler((request, reply) =>
    replyWithError(
      new ToolDexError('not_found', 404, `No route ${request.method} ${request.url.split('?')[0]}; see GET /openapi.json.`),
      request, reply));

  await server.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'tooldex', version: '0.1.0', description: 'Tool directory, documentation search and sandbox test API.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer tdx_…` (required when TOOLDEX_AUTH=required).' },
          session: { type: 'apiKey', in: 'cookie', name: 'tdx_session', description: 'Dashboard session cookie (from sign-in); state changes also need the x-csrf-token header.' },
        },
      },
    },
    transform: createOpenApiTransform(app),
  });
  registerMethodGuard(server);
  server.addHook('onRequest', rejectMalformedQuery);
  registerUnknownParameterRule(server);
  await registerLifecycle(server, app);
  await registerAuth(server, app);
  await registerRateLimit(server, app);
  for (const group of routeGroups) await server.register(group, { app });
  server.get('/openapi.json', { schema: { hide: true } }, async () => server.swagger());
  return server;
}
