// Maps anything a route throws to the one JSON error body {error:{status,code,message}}.
// Schema validation failures name the field; codes for well-known fields are stable API.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ToolDexError, toToolDexError } from '../errors.ts';

const FIELD_CODES: Record<string, string> = {
  q: 'invalid_query',
  format: 'invalid_format',
  limit: 'invalid_limit',
};

export function validationToToolDexError(error: unknown): ToolDexError | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const first = error.validation[0];
  const params = (first?.params ?? {}) as { issue?: { path?: PropertyKey[] } };
  const pathParts = params.issue?.path?.map(String) ?? first?.instancePath.split('/').filter(Boolean) ?? [];
  const field = pathParts.join('.') || 'body';
  const topField = pathParts[0] ?? '';
  const where = (error as { validationContext?: string }).validationContext ?? 'request';
  const code = FIELD_CODES[topField] ?? 'invalid_request';
  return new ToolDexError(code, 422, `Invalid ${where} field "${field}": ${first?.message ?? 'invalid value'}.`, { field });
}

export function replyWithError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const fastifyError = error as FastifyError;
  let mapped = validationToToolDexError(error) ?? (error instanceof ToolDexError ? error : undefined);
  if (!mapped && typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
    // Fastify's own client errors (bad JSON, body too large, wrong content type).
    const code = fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'payload_too_large'
      : fastifyError.code?.startsWith('FST_ERR_CTP') ? 'invalid_body' : 'bad_request';
    mapped = new ToolDexError(code, fastifyError.statusCode, fastifyError.message);
  }
  if (!mapped) {
    request.log.error({ err: error }, 'unhandled error');
    mapped = toToolDexError(error);
  }
  if (mapped.status === 429 || mapped.status === 503) {
    const retry = mapped.details?.retryAfterSeconds;
    if (typeof retry === 'number') reply.header('retry-after', String(Math.max(1, Math.ceil(retry))));
  }
  return reply.status(mapped.status).type('application/json; charset=utf-8').send(mapped.toBody());
}
