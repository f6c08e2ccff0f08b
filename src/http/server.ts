// buildServer(app): the Fastify instance of the REST surface. Route groups register themselves;
// tests start it on port 0. It translates only: capabilities do the work.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';
import { registerAuth } from './auth.ts';
import { replyWithError } from './errors.ts';
import { registerRateLimit } from './rate-limit.ts';
import { routeGroups } from './routes/index.ts';

export type Server = FastifyInstance;

export async function buildServer(app: App): Promise<Server> {
  const server = Fastify({
    loggerInstance: app.logger as FastifyBaseLogger,
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  server.setErrorHandler((error, request, reply) => replyWithError(error, request, reply));
  server.setNotFoundHandler((request, reply) =>
    replyWithError(
      new ToolDexError('not_found', 404, `No route ${request.method} ${request.url.split('?')[0]}; see GET /openapi.json.`),
      request, reply));

  await server.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'tooldex', version: '0.1.0', description: 'Tool directory, documentation search and sandbox test API.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await registerAuth(server, app);
  await registerRateLimit(server, app);
  for (const group of routeGroups) await server.register(group, { app });
  server.get('/openapi.json', { schema: { hide: true } }, async () => server.swagger());
  return server;
}
