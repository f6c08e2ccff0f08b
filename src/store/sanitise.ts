// Makes values written to the store valid for PostgreSQL. Package content (docs passages, examples, program output)
// is arbitrary text: a NUL (U+0000) is refused by both `text` and `jsonb` (jsonb says "unsupported Unicode escape
// sequence"), and a lone UTF-16 surrogate, which a string cut by code units leaves behind (an emoji split by a
// `slice`), is refused by `jsonb` as "invalid input syntax for type json". Both are replaced by U+FFFD, the
// replacement character, so one odd character never fails a whole batch of passages.
import type { SqlParam } from './types.ts';

const REPLACEMENT = '\uFFFD';

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const BAD_CHAR = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BAD_CHARS = new RegExp(BAD_CHAR.source, 'g');

/** Text PostgreSQL can store: NUL and lone surrogates become U+FFFD. */
export function storableText(text: string): string {
  return BAD_CHAR.test(text) ? text.replace(BAD_CHARS, REPLACEMENT) : text;
}

// One JSON escape at a time, left to right, so `\\u0000` (an escaped backslash, then "u0000") is read as the two
// escapes it is. A surrogate pair is matched whole and kept; `\u0000` and a lone surrogate escape become \ufffd.
const JSON_ESCAPE = /\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u([0-9a-fA-F]{4})|[\s\S])/g;

/** JSON text (as JSON.stringify writes it) that `jsonb` accepts: NUL and lone surrogates, escaped or raw, become U+FFFD. */
export function storableJsonText(json: string): string {
  const raw = storableText(json);
  if (!raw.includes('\\u')) return raw;
  return raw.replace(JSON_ESCAPE, (escape: string, hex: string | undefined) => {
    if (hex === undefined) return escape;
    const code = Number.parseInt(hex, 16);
    return code === 0 || (code >= 0xd800 && code <= 0xdfff) ? '\\ufffd' : escape;
  });
}

/** A JSON-shaped value (objects, arrays, strings, keys) with every string made storable; other values as they are. */
export function storableValue<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storableValue) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date || ArrayBuffer.isView(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[storableText(key)] = storableValue(inner);
  return out as T;
}

// `$3::jsonb`, `$3::json`, `cast($3 as jsonb)`: the parameters a statement reads as JSON. Every JSON write in tooldex
// casts its parameter (the repositories pass JSON.stringify's text), so the statement says which strings are JSON.
const JSON_PARAM = /\$(\d+)\s*::\s*jsonb?\b|cast\s*\(\s*\$(\d+)\s+as\s+jsonb?\s*\)/gi;

// Statements are a small fixed set of literals, so each one's JSON parameters are read once, not on every query.
const jsonParamsBySql = new Map<string, Set<number>>();
const MAX_REMEMBERED_STATEMENTS = 2_000;

function jsonParamIndexes(sql: string): Set<number> {
  let indexes = jsonParamsBySql.get(sql);
  if (indexes) return indexes;
  indexes = new Set<number>();
  for (const match of sql.matchAll(JSON_PARAM)) indexes.add(Number(match[1] ?? match[2]) - 1);
  if (jsonParamsBySql.size >= MAX_REMEMBERED_STATEMENTS) jsonParamsBySql.clear();
  jsonParamsBySql.set(sql, indexes);
  return indexes;
}

/**
 * The store boundary's pass over a statement's parameters: JSON parameters (strings cast to json/jsonb, and objects,
 * which the drivers serialise as JSON) are made valid for jsonb. Other text parameters are left as they are: a NUL in
 * a client's input is refused as 422 (faults.ts inputFault), and repositories that write package text into a text
 * column call storableText themselves.
 */
export function storableParams(sql: string, params: SqlParam[]): SqlParam[] {
  if (params.length === 0) return params;
  const json = jsonParamIndexes(sql);
  return params.map((param, i) => {
    if (typeof param === 'string') return json.has(i) ? storableJsonText(param) : param;
    if (param === null || typeof param !== 'object' || Array.isArray(param) || param instanceof Date || ArrayBuffer.isView(param)) return param;
    return storableValue(param);
  });
}
