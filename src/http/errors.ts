// Maps anything a route, the body parser or the framework throws to the one JSON error body
// {error:{status,code,message}}. Validation failures name the field in plain words; codes are stable API.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ToolDexError, toToolDexError } from '../errors.ts';
import { allowedKeys, describeIssue, fieldSchemaAt, sentValue, whereLabel, type ZodIssueLike } from './validation-messages.ts';

const FIELD_CODES: Record<string, string> = {
  q: 'invalid_query',
  format: 'invalid_format',
  limit: 'invalid_limit',
  slug: 'invalid_slug',
  maxTokens: 'invalid_max_tokens',
  symbol: 'invalid_symbol',
  from: 'invalid_version',
  to: 'invalid_version',
};

export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

type RouteSchemas = Partial<Record<'querystring' | 'params' | 'body' | 'headers', unknown>>;
const routeSchemas = (request: FastifyRequest): RouteSchemas => (request.routeOptions?.schema ?? {}) as RouteSchemas;

export function validationToToolDexError(error: unknown, request?: FastifyRequest): ToolDexError | undefined {
  if (!hasZodFastifySchemaValidationErrors(error)) return undefined;
  const context = (error as { validationContext?: string }).validationContext;
  const first = error.validation[0];
  // fastify-type-provider-zod spreads the zod issue into params, with code → keyword and path → instancePath.
  const path = first?.instancePath.split('/').filter(Boolean) ?? [];
  const issue: ZodIssueLike = { ...(first?.params as ZodIssueLike | undefined), code: first?.keyword, message: first?.message, path };
  const where = whereLabel(context);
  const schema = request ? routeSchemas(request)[context as keyof RouteSchemas] : undefined;
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    const name = [...path.map(String), issue.keys[0]].join('.');
    const allowed = allowedKeys(fieldSchemaAt(schema, path));
    return new ToolDexError('invalid_request', 422,
      `${where} "${name}" is not accepted${allowed.length ? `; ${path.length ? `"${path.join('.')}"` : 'the body'} takes ${allowed.join(', ')}` : ''}.`,
      { field: name });
  }
  if (path.length === 0 && context === 'body') {
    const sent = request?.body;
    const message = sent === undefined || sent === null
      ? 'The request needs a JSON body (Content-Type: application/json).'
      : `The body must be a JSON object, got ${Array.isArray(sent) ? 'a list' : typeof sent}.`;
    return new ToolDexError('invalid_request', 422, message, { field: 'body' });
  }
  const field = path.map(String).join('.') || context || 'request';
  const sent = request ? sentValue(request, context, path) : undefined;
  const predicate = describeIssue(issue, sent, fieldSchemaAt(schema, path));
  const code = FIELD_CODES[String(path[0] ?? '')] ?? 'invalid_request';
  return new ToolDexError(code, 422, `${where} "${field}": ${predicate}.`, { field });
}

/** Fastify's own client errors (body parser, content type, URL), each with a stable code and a message that helps. */
function frameworkToToolDexError(error: FastifyError, bodyLimit: number): ToolDexError | undefined {
  if (typeof error.statusCode !== 'number' || error.statusCode >= 500) return undefined;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ToolDexError('payload_too_large', 413,
        `The request body is larger than the limit of ${(bodyLimit / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB (${bodyLimit.toLocaleString('en')} bytes).`,
        { limitBytes: bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ToolDexError('unsupported_media_type', 415, 'Send the body as JSON with Content-Type: application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ToolDexError('invalid_body', 400, 'The body is empty but Content-Type says JSON; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ToolDexError('invalid_body', 400, `The body is not valid JSON: ${error.message.replace(/\.$/, '')}.`);
    case 'FST_ERR_CTP_INVALID_TYPE':
    case 'FST_ERR_CTP_EMPTY_TYPE':
      return new ToolDexError('unsupported_media_type', 415, 'Send the body as JSON with Content-Type: application/json.');
    default:
      if (error.code?.startsWith('FST_ERR_CTP')) return new ToolDexError('invalid_body', 400, error.message);
      // Malformed JSON also arrives as a SyntaxError with statusCode 400 from the JSON parser.
      if (error.statusCode === 400 && error.name === 'SyntaxError') return new ToolDexError('invalid_body', 400, `The body is not valid JSON: ${error.message}.`);
      return new ToolDexError('bad_request', error.statusCode, error.message);
  }
}

export function replyWithError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let mapped = validationToToolDexError(error, request) ?? (error instanceof ToolDexError ? error : undefined);
  // A route may allow a larger body than the server's default (POST /tools/resolve reads lockfiles).
  mapped ??= frameworkToToolDexError(error as FastifyError, request.routeOptions?.bodyLimit ?? BODY_LIMIT_BYTES);
  if (!mapped) {
    request.log.error({ err: error }, 'unhandled error');
    mapped = toToolDexError(error);
  }
  if (mapped.status === 429 || mapped.status === 503) {
    const retry = mapped.details?.retryAfterSeconds;
    reply.header('retry-after', String(typeof retry === 'number' ? Math.max(1, Math.ceil(retry)) : 5));
  }
  return reply.status(mapped.status).type('application/json; charset=utf-8').send(mapped.toBody());
}
