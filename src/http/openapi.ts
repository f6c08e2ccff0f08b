// /openapi.json documents every response of every operation: the success body (zod schemas in responses.ts, JSON
// or TOON) and each error status with the one error schema and the codes it carries. Wired as @fastify/swagger's transform.
import { z } from 'zod';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { App } from '../app.ts';
import { isProtectedPath } from './auth.ts';
import { PROBE_PATHS } from './lifecycle.ts';
import { contextResponse, dashboardResponses, docsResponse, docsSymbolResponse, changesResponse, mcpResponse, resolveResponse, searchResponse, testResponse } from './responses.ts';
import { serverInfoBody } from './routes/dashboard-explore.ts';
import { livenessBody, readinessBody } from './routes/health.ts';

export const errorSchema = z.object({
  error: z.looseObject({
    status: z.number().int().describe('The HTTP status, repeated.'),
    code: z.string().describe('Stable snake_case code (see the description of each status).'),
    message: z.string().describe('What went wrong and how to fix it, in plain words.'),
    field: z.string().optional().describe('The request field at fault (validation errors).'),
    retryAfterSeconds: z.number().optional(),
  }),
}).describe('Error');

interface Success {
  status: number;
  schema?: z.ZodType;
  /** Also answered as TOON (text/toon) with ?format=toon. */
  toon?: boolean;
}

/** A docs answer: passages for a question (q), or one API item by name (symbol). */
const docsAnswer = z.union([docsResponse, docsSymbolResponse]).describe('Passages for a question (q), or one API item by name (symbol)');

/** Per operation: the success and the errors only it raises; generic errors are added from the route's shape. */
const OPERATIONS: Record<string, { success: Success; errors?: Record<number, string[]> }> = {
  'GET /healthz': { success: { status: 200, schema: readinessBody } },
  'GET /readyz': { success: { status: 200, schema: readinessBody } },
  'GET /livez': { success: { status: 200, schema: livenessBody } },
  'GET /tools/search': { success: { status: 200, schema: searchResponse, toon: true } },
  'POST /tools/test': {
    success: { status: 200, schema: testResponse, toon: true },
    errors: { 404: ['session_not_found', 'project_not_found'], 429: ['session_limit'], 503: ['sandbox_busy', 'sandbox_unavailable', 'session_unavailable'], 507: ['sandbox_disk_full'] },
  },
  'GET /tools/docs/:slug': {
    success: { status: 200, schema: docsAnswer, toon: true },
    errors: { 404: ['not_found', 'version_not_found', 'project_not_found'], 422: ['invalid_symbol', 'invalid_max_tokens'], 502: ['artifact_refused'], 503: ['upstream_unavailable', 'ingestion_busy'] },
  },
  'GET /tools/context/:slug': {
    success: { status: 200, schema: contextResponse, toon: true },
    errors: { 404: ['not_found', 'version_not_found', 'project_not_found'], 422: ['invalid_max_tokens'], 502: ['artifact_refused'], 503: ['upstream_unavailable', 'ingestion_busy'] },
  },
  'POST /tools/resolve': {
    success: { status: 200, schema: resolveResponse, toon: true },
    errors: { 422: ['unreadable_project_file'] },
  },
  'GET /tools/changes/:slug': {
    success: { status: 200, schema: changesResponse, toon: true },
    errors: { 404: ['not_found', 'version_not_found'], 422: ['invalid_version', 'invalid_max_tokens'], 502: ['artifact_refused'], 503: ['upstream_unavailable', 'ingestion_busy'] },
  },
  'POST /mcp': { success: { status: 200, schema: mcpResponse }, errors: { 202: [], 400: ['jsonrpc parse error'], 406: ['jsonrpc not acceptable'] } },
  'POST /dashboard/api/signup': { success: { status: 201, schema: dashboardResponses.session }, errors: { 403: ['csrf_failed'], 409: ['email_taken'] } },
  'POST /dashboard/api/login': {
    success: { status: 200, schema: dashboardResponses.session },
    errors: { 401: ['invalid_credentials'], 403: ['csrf_failed'], 429: ['too_many_attempts'] },
  },
  'GET /dashboard/api/me': { success: { status: 200, schema: dashboardResponses.session } },
  'POST /dashboard/api/logout': { success: { status: 204 } },
  'POST /dashboard/api/orgs': { success: { status: 201, schema: dashboardResponses.organisation }, errors: { 409: ['org_name_taken'] } },
  'GET /dashboard/api/orgs/:orgId/members': { success: { status: 200, schema: dashboardResponses.members } },
  'POST /dashboard/api/orgs/:orgId/invites': { success: { status: 201, schema: dashboardResponses.invite } },
  'POST /dashboard/api/invites/accept': {
    success: { status: 200, schema: dashboardResponses.organisation },
    errors: { 403: ['invite_wrong_account'], 404: ['not_found'], 410: ['invite_used', 'invite_expired'] },
  },
  'GET /dashboard/api/orgs/:orgId/keys': { success: { status: 200, schema: dashboardResponses.keys } },
  'POST /dashboard/api/orgs/:orgId/keys': { success: { status: 201, schema: dashboardResponses.createdKey } },
  'POST /dashboard/api/orgs/:orgId/keys/:keyId/revoke': { success: { status: 200, schema: dashboardResponses.key } },
  'GET /dashboard/api/orgs/:orgId/keys/:keyId/usage': { success: { status: 200, schema: dashboardResponses.usage } },
  // The explorer's session-authenticated twins of /tools/* (used when the server requires API keys).
  'GET /dashboard/api/server': { success: { status: 200, schema: serverInfoBody } },
  'GET /dashboard/api/tools/search': { success: { status: 200, schema: searchResponse } },
  'GET /dashboard/api/tools/context/:slug': {
    success: { status: 200, schema: contextResponse },
    errors: { 404: ['not_found', 'version_not_found'], 422: ['invalid_max_tokens'], 502: ['artifact_refused'], 503: ['upstream_unavailable', 'ingestion_busy'] },
  },
  'GET /dashboard/api/tools/docs/:slug': {
    success: { status: 200, schema: docsAnswer },
    errors: { 404: ['not_found', 'version_not_found'], 422: ['invalid_symbol', 'invalid_max_tokens'], 502: ['artifact_refused'], 503: ['upstream_unavailable', 'ingestion_busy'] },
  },
  'POST /dashboard/api/orgs/:orgId/tools/resolve': {
    success: { status: 200, schema: resolveResponse },
    errors: { 404: ['not_found'], 422: ['unreadable_project_file'] },
  },
  'POST /dashboard/api/orgs/:orgId/tools/test': {
    success: { status: 200, schema: testResponse },
    errors: { 404: ['not_found', 'session_not_found'], 429: ['rate_limited', 'session_limit'], 503: ['sandbox_busy', 'sandbox_unavailable', 'session_unavailable'], 507: ['sandbox_disk_full'] },
  },
};

const STATUS_TEXT: Record<number, string> = {
  202: 'Accepted (a JSON-RPC notification or response; no body)', 400: 'Bad request', 401: 'Not authenticated',
  403: 'Forbidden', 404: 'Not found', 406: 'Not acceptable', 409: 'Conflict', 410: 'Gone', 413: 'Payload too large',
  415: 'Unsupported media type', 422: 'Invalid input', 429: 'Too many requests', 500: 'Internal error', 502: 'Bad gateway',
  503: 'Unavailable (retry after Retry-After seconds)', 507: 'Insufficient storage (retry after Retry-After seconds)',
};

const retryAfter = { 'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds to wait before retrying.' } };
const SIGNED_IN = /^\/dashboard\/api\/(?!signup$|login$|server$)/;

/** The error statuses an operation can answer, with their codes, from what the route is and what it declares. */
function errorStatuses(method: string, url: string, schema: Record<string, unknown>, app: App): Map<number, Set<string>> {
  const statuses = new Map<number, Set<string>>();
  const add = (status: number, ...codes: string[]) => {
    const set = statuses.get(status) ?? new Set<string>();
    codes.forEach((code) => set.add(code));
    statuses.set(status, set);
  };
  add(500, 'internal');
  if (url === '/livez') return statuses;
  add(503, 'shutting_down', 'store_unavailable');
  if (PROBE_PATHS.has(url)) return statuses;
  add(429, 'rate_limited');
  add(422, 'invalid_request');
  if (schema.querystring && url.startsWith('/tools/')) add(422, 'invalid_query', 'invalid_limit', 'invalid_format');
  if (schema.params) {
    add(400, 'invalid_url');
    add(404, 'not_found');
    if (url.includes(':slug')) add(422, 'invalid_slug');
  }
  if (method === 'POST') {
    add(400, 'invalid_body');
    add(413, 'payload_too_large');
    add(415, 'unsupported_media_type');
  }
  if (isProtectedPath(url) && app.auth.required) {
    add(401, 'missing_api_key');
    add(403, 'invalid_api_key');
  }
  if (SIGNED_IN.test(url)) {
    add(401, 'not_signed_in');
    if (method !== 'GET') add(403, 'csrf_failed');
  }
  for (const [status, codes] of Object.entries(OPERATIONS[`${method} ${url}`]?.errors ?? {})) add(Number(status), ...codes);
  return statuses;
}

/** OpenAPI responses may gain fields over time: documented fields are promised, more may appear. */
function openObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(openObjects);
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.additionalProperties === false) delete record.additionalProperties;
  Object.values(record).forEach(openObjects);
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

export function createOpenApiTransform(app: App) {
  return (input: TransformInput) => {
    const schema = (input.schema ?? {}) as Record<string, unknown>;
    const methods = (input.route as { method?: string | string[] } | undefined)?.method;
    const method = (Array.isArray(methods) ? methods.find((m) => m !== 'HEAD') : methods) ?? 'GET';
    if (schema.hide) return jsonSchemaTransform(input);
    const documented = OPERATIONS[`${method} ${input.url}`];
    const success: Success = documented?.success ?? { status: 200 };
    const response: Record<string, unknown> = {};
    const statuses = errorStatuses(method, input.url, schema, app);
    const successContent: Record<string, { schema: z.ZodType }> = success.schema ? { 'application/json': { schema: success.schema } } : {};
    if (success.toon) successContent['text/toon'] = { schema: z.string().describe('The same result encoded as TOON (format=toon).') };
    response[String(success.status)] = success.schema
      ? { description: success.schema.description ?? 'Success', content: successContent }
      : { description: success.status === 204 ? 'Done (no body)' : 'Success', content: { 'application/json': { schema: z.unknown() } } };
    for (const [status, codes] of statuses) {
      if (status === 202) {
        response['202'] = { description: STATUS_TEXT[202], content: { 'text/plain': { schema: z.string().max(0) } } };
        continue;
      }
      const isJsonRpc = [...codes].some((code) => code.startsWith('jsonrpc'));
      response[String(status)] = {
        description: `${STATUS_TEXT[status] ?? 'Error'}: ${[...codes].map((code) => `\`${code}\``).join(', ')}`,
        content: { 'application/json': { schema: isJsonRpc ? mcpResponse : errorSchema } },
      };
    }
    const transformed = jsonSchemaTransform({ ...input, schema: { ...schema, response } as TransformInput['schema'] });
    const out = transformed.schema as Record<string, unknown> & { response: Record<string, Record<string, unknown>> };
    if (success.status === 204) out.response['204'] = { description: 'Done (no body)', type: 'null' };
    for (const status of ['429', '503', '507']) if (out.response[status]) out.response[status].headers = retryAfter;
    openObjects(out.response);
    if (isProtectedPath(input.url)) out.security = app.auth.required ? [{ bearer: [] }] : [{}, { bearer: [] }];
    else if (SIGNED_IN.test(input.url)) out.security = [{ session: [] }];
    return transformed;
  };
}
