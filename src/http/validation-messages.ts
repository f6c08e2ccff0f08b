// Turns a schema validation failure into one plain sentence that names the field, says what it must be and what
// was sent ("Query parameter "limit": must be a whole number from 1 to 50, got "abc"."), never zod's internals.
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

export interface ZodIssueLike {
  code?: string;
  path?: PropertyKey[];
  message?: string;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  keys?: string[];
  values?: unknown[];
  format?: string;
}

const WHERE: Record<string, string> = { querystring: 'Query parameter', params: 'Path parameter', body: 'Body field', headers: 'Header' };
const ZOD_DEFAULT = /^(Invalid input|Too (small|big)|Unrecognized key|Invalid (option|string|format))/;

export const whereLabel = (context: string | undefined) => WHERE[context ?? ''] ?? 'Field';

/** The value the client sent at `path` (before any coercion), for quoting back in the message. */
export function sentValue(request: FastifyRequest, context: string | undefined, path: PropertyKey[]): unknown {
  const source = context === 'querystring' ? request.query : context === 'params' ? request.params : context === 'headers' ? request.headers : request.body;
  let value: unknown = source;
  for (const part of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[part] : undefined;
  return value;
}

const quote = (value: unknown): string => {
  const text = typeof value === 'string' ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value) : JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

const unit = (origin: string | undefined, n: number | bigint) => {
  const plural = Number(n) === 1 ? '' : 's';
  if (origin === 'string') return `${n} character${plural}`;
  if (origin === 'array' || origin === 'set') return `${n} item${plural}`;
  return String(n);
};

/** Bounds of a number field of the route's schema, to say "from 1 to 50" when a value is not a number at all. */
function numberBounds(schema: unknown): string {
  const number = schema as { minValue?: number | null; maxValue?: number | null; isInt?: boolean; unwrap?: () => unknown } | undefined;
  const inner = number?.unwrap && number.minValue === undefined ? number.unwrap() as typeof number : number;
  const kind = inner?.isInt ? 'a whole number' : 'a number';
  const min = inner?.minValue, max = inner?.maxValue;
  if (Number.isFinite(min) && Number.isFinite(max)) return `${kind} from ${min} to ${max}`;
  return kind;
}

/** The plain-words predicate for one zod issue ("is required", "must be one of a, b"). */
export function describeIssue(issue: ZodIssueLike, sent: unknown, fieldSchema?: unknown): string {
  const field = String(issue.path?.[issue.path.length - 1] ?? '');
  // Schema messages sometimes start with the field's own name ("q is required: …"); the sentence names it already.
  const custom = issue.message && !ZOD_DEFAULT.test(issue.message)
    ? (field && issue.message.startsWith(`${field} `) ? issue.message.slice(field.length + 1) : issue.message) : undefined;
  switch (issue.code) {
    case 'invalid_type':
      if (sent === undefined) {
        const about = custom ?? (fieldSchema as { description?: string } | undefined)?.description;
        return about ? `is required: ${about.charAt(0).toLowerCase()}${about.slice(1).replace(/\.$/, '')}` : 'is required';
      }
      if (issue.expected === 'number' || issue.expected === 'int') return `must be ${numberBounds(fieldSchema)}, got ${quote(sent)}`;
      return `must be ${issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}, got ${quote(sent)}`;
    case 'too_small':
      if (custom) return custom;
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return `must be at least ${unit(issue.origin, issue.minimum ?? 0)}${sent !== undefined && issue.origin === 'number' ? `, got ${quote(sent)}` : ''}`;
    case 'too_big':
      if (custom) return custom;
      return `must be at most ${unit(issue.origin, issue.maximum ?? 0)}${sent !== undefined && issue.origin === 'number' ? `, got ${quote(sent)}` : ''}`;
    case 'invalid_value':
      return `must be one of ${(issue.values ?? []).map(String).join(', ')}, got ${quote(sent)}`;
    case 'invalid_format':
      return custom ?? `must be a valid ${issue.format ?? 'value'}, got ${quote(sent)}`;
    default:
      return custom ?? issue.message ?? 'is not valid';
  }
}

/** Field names a zod object schema accepts (for "takes a, b, c"); empty when the schema is not an object. */
export function allowedKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

export function fieldSchemaAt(schema: unknown, path: PropertyKey[]): unknown {
  let current: unknown = schema;
  for (const part of path) {
    const shape = (current as { shape?: Record<string, unknown> } | undefined)?.shape;
    if (!shape || typeof part !== 'string') return undefined;
    current = shape[part];
  }
  return current as z.ZodType | undefined;
}
