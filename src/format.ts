// The one formatter: turns a capability result into json or toon text.
// REST, MCP and the CLI all encode through here; the CLI adds its human renderers on top.
import { encode as encodeToon } from '@toon-format/toon';
import { ToolDexError } from './errors.ts';

export const WIRE_FORMATS = ['json', 'toon'] as const;
export type WireFormat = (typeof WIRE_FORMATS)[number];

export interface Encoded {
  body: string;
  contentType: string;
}

export function parseWireFormat(value: unknown, fallback: WireFormat): WireFormat {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'string' && (WIRE_FORMATS as readonly string[]).includes(value)) return value as WireFormat;
  throw new ToolDexError('invalid_format', 422, `Unknown format "${String(value)}"; use one of: ${WIRE_FORMATS.join(', ')}.`);
}

export function encodeResult(result: unknown, format: WireFormat): Encoded {
  if (format === 'toon') {
    return { body: encodeToon(toPlain(result)), contentType: 'text/toon; charset=utf-8' };
  }
  return { body: JSON.stringify(result), contentType: 'application/json; charset=utf-8' };
}

// TOON encodes plain data; a JSON round trip drops undefined fields and turns Dates into ISO strings,
// so both formats carry the same values.
function toPlain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}
