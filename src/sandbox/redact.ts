// Secret redaction without keeping secrets: each secret becomes keyed marks (length, a keyed rolling hash, a keyed MAC)
// of every encoding listed in secretForms; output is scanned for windows whose marks match. Pure functions; no I/O.
import crypto from 'node:crypto';

export const REDACTED = '[REDACTED]';

/** One encoded form of a secret, as stored: never the form itself. */
export interface SecretMark {
  /** Length in UTF-16 code units. */
  l: number;
  /** Rolling hash of the form under the key's base (a fast filter). */
  r: number;
  /** HMAC-SHA256 of the form, first 16 bytes, hex (the confirmation). */
  m: string;
}

const MOD = 2147483647; // 2^31 - 1: products with a base below 2^21 stay exact in a double

/** The characters of base64(secret) that depend on the secret alone when it starts `offset` bytes into a longer buffer. */
function base64Core(bytes: Buffer, offset: number, alphabet: 'base64' | 'base64url'): string {
  const padded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]);
  const text = padded.toString(alphabet);
  return text.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

const jsonEscaped = (secret: string) => JSON.stringify(secret).slice(1, -1);
/** JSON as Python's json.dumps writes it by default (ensure_ascii): every non-ASCII unit as a lower-case \uXXXX. */
const jsonAscii = (secret: string) => jsonEscaped(secret).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Every form of a secret whose marks are kept: the value and its reverse; base64 in the standard and URL-safe alphabets,
 * whole (padded or not) and at each of the three byte alignments inside longer base64 text; hex in lower and upper case;
 * JSON string escapes as JavaScript and as Python (ensure_ascii) write them. URL encodings need no marks of their own:
 * the redactor also matches every form in the text's URL-decoded views (see urlDecodedView), which covers any encoder's
 * choice of characters left unescaped, either hex case, `+` for space and legacy `%uXXXX`.
 */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([secret, [...secret].reverse().join('')]);
  for (const alphabet of ['base64', 'base64url'] as const) {
    const whole = bytes.toString(alphabet);
    forms.add(whole).add(whole.replace(/=+$/, '')).add(bytes.toString('base64').replace(/=+$/, ''));
    for (const offset of [0, 1, 2]) forms.add(base64Core(bytes, offset, alphabet));
  }
  const hex = bytes.toString('hex');
  forms.add(hex).add(hex.toUpperCase());
  forms.add(jsonEscaped(secret)).add(jsonAscii(secret));
  // A base64 core shorter than a third of the secret would match ordinary text; the secret's length floor keeps cores long.
  return [...forms].filter((form) => form.length >= 4);
}

/**
 * The longest text, in UTF-16 units of the output, that one match can span: a form URL-encoded as UTF-8 escapes takes
 * at most 9 characters (`%E2%82%AC`) per unit of the form.
 */
const URL_ENCODED_WIDTH = 9;

/** A view of `text` with URL escapes decoded, and for each of its units the span of `text` it came from. */
interface DecodedView { text: string; from: number[]; to: number[] }

const hexAt = (text: string, at: number, digits: number): number | undefined => {
  const part = text.slice(at, at + digits);
  return part.length === digits && /^[0-9A-Fa-f]+$/.test(part) ? Number.parseInt(part, 16) : undefined;
};

/**
 * Decodes percent escapes (any hex case; runs of `%XX` as UTF-8, a byte that is not part of valid UTF-8 as Latin-1, as
 * legacy `escape()` writes U+0080–U+00FF), legacy `%uXXXX`, and with `plusIsSpace` the form encoding's `+`. What stays unescaped is whatever the encoder chose (any safe
 * set): decoding makes every such choice the same text.
 */
export function urlDecodedView(text: string, plusIsSpace: boolean): DecodedView {
  const out: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const emit = (unit: string, start: number, end: number) => {
    out.push(unit);
    from.push(start);
    to.push(end);
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === '%' && text[i + 1] === 'u') {
      const code = hexAt(text, i + 2, 4);
      if (code !== undefined) {
        emit(String.fromCharCode(code), i, i + 6);
        i += 6;
        continue;
      }
    }
    if (c === '%' && hexAt(text, i + 1, 2) !== undefined) {
      // A run of %XX escapes: UTF-8 bytes, decoded one character at a time.
      const bytes: number[] = [];
      let j = i;
      while (text[j] === '%' && hexAt(text, j + 1, 2) !== undefined) {
        bytes.push(hexAt(text, j + 1, 2) ?? 0);
        j += 3;
      }
      let b = 0;
      while (b < bytes.length) {
        const lead = bytes[b] ?? 0;
        const need = lead < 0x80 ? 1 : lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
        const sequence = bytes.slice(b, b + need);
        const valid = need > 0 && sequence.length === need && sequence.slice(1).every((byte) => (byte & 0xc0) === 0x80);
        const start = i + 3 * b;
        if (!valid) {
          // Not UTF-8: a Latin-1 byte, as legacy escape() writes characters U+0080–U+00FF.
          emit(String.fromCharCode(lead), start, start + 3);
          b += 1;
          continue;
        }
        const decoded = Buffer.from(sequence).toString('utf8');
        for (const unit of decoded.split('')) emit(unit, start, start + 3 * need);
        b += need;
      }
      i = j;
      continue;
    }
    emit(plusIsSpace && c === '+' ? ' ' : c, i, i + 1);
    i += 1;
  }
  return { text: out.join(''), from, to };
}

/** The key's rolling-hash base, in [65537, 2^21): above every UTF-16 code unit, small enough for exact arithmetic. */
function rollBase(key: Buffer): number {
  const word = crypto.createHmac('sha256', key).update('tooldex-roll-base').digest().readUInt32BE(0);
  return 65537 + (word % (2 ** 21 - 65537));
}

function rollHash(text: string, base: number): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * base + text.charCodeAt(i)) % MOD;
  return hash;
}

const mac = (key: Buffer, text: string) => crypto.createHmac('sha256', key).update(text, 'utf8').digest().subarray(0, 16).toString('hex');

/** The marks of one secret under a server key: what a session keeps so later calls redact it too. */
export function secretMarks(secret: string, key: Buffer): SecretMark[] {
  const base = rollBase(key);
  return secretForms(secret).map((form) => ({ l: form.length, r: rollHash(form, base), m: mac(key, form) }));
}

/** Marks merged without duplicates (a session keeps every secret it was ever given). */
export function mergeMarks(existing: SecretMark[], added: SecretMark[]): SecretMark[] {
  const seen = new Set(existing.map((mark) => mark.m));
  return [...existing, ...added.filter((mark) => !seen.has(mark.m) && seen.add(mark.m))];
}

/**
 * Redacts a captured stream. `cutFrom`: the stream went on past what was captured, so its last characters may be the
 * beginning of a secret that no form can match yet; the answer then ends before `cutFrom` (or after a match that
 * covers it), and never shows those characters.
 */
export interface Redactor {
  (text: string, cutFrom?: number): string;
  /** The longest a match can be in the output, in UTF-16 units: how much of a cut-short capture is never shown. */
  reach: number;
}

/**
 * A redactor for stored marks: for each form length, a rolling hash slides over the text and over its URL-decoded views;
 * a window whose hash is a mark's is confirmed by its MAC and replaced. Overlapping matches merge into one [REDACTED].
 */
export function createRedactor(marks: SecretMark[], key: Buffer): Redactor {
  const longest = marks.reduce((max, mark) => Math.max(max, mark.l), 0);
  const reach = longest * URL_ENCODED_WIDTH;
  if (marks.length === 0) return Object.assign((text: string) => text, { reach: 0 });
  const base = rollBase(key);
  const byLength = new Map<number, Map<number, Set<string>>>();
  for (const mark of marks) {
    const hashes = byLength.get(mark.l) ?? new Map<number, Set<string>>();
    const macs = hashes.get(mark.r) ?? new Set<string>();
    macs.add(mark.m);
    hashes.set(mark.r, macs);
    byLength.set(mark.l, hashes);
  }
  const matches = (text: string): Array<[number, number]> => {
    const ranges: Array<[number, number]> = [];
    for (const [length, hashes] of byLength) {
      if (length > text.length) continue;
      let top = 1; // base^(length-1) mod MOD
      for (let i = 1; i < length; i++) top = (top * base) % MOD;
      let hash = rollHash(text.slice(0, length), base);
      for (let start = 0; ; start++) {
        const macs = hashes.get(hash);
        if (macs?.has(mac(key, text.slice(start, start + length)))) ranges.push([start, start + length]);
        const next = start + length;
        if (next >= text.length) break;
        hash = (hash - ((text.charCodeAt(start) * top) % MOD) + MOD) % MOD;
        hash = (hash * base + text.charCodeAt(next)) % MOD;
      }
    }
    return ranges;
  };
  const redact = (text: string, cutFrom?: number): string => {
    const ranges = matches(text);
    if (/%[0-9A-Fa-f]{2}|%u[0-9A-Fa-f]{4}/.test(text) || text.includes('+')) {
      for (const plusIsSpace of text.includes('+') ? [false, true] : [false]) {
        const view = urlDecodedView(text, plusIsSpace);
        if (view.text === text) continue;
        for (const [start, end] of matches(view.text)) ranges.push([view.from[start] ?? 0, view.to[end - 1] ?? text.length]);
      }
    }
    ranges.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const range of ranges) {
      const last = merged[merged.length - 1];
      if (last && range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
      else merged.push([range[0], range[1]]);
    }
    // Where the answer ends: at cutFrom, or past a match that covers it.
    let end = text.length;
    if (cutFrom !== undefined && cutFrom < text.length) {
      end = Math.max(0, cutFrom);
      for (const [start, stop] of merged) if (start < end && stop > end) end = stop;
    }
    let out = '';
    let at = 0;
    for (const [start, stop] of merged) {
      if (start >= end) break;
      out += text.slice(at, start) + REDACTED;
      at = stop;
    }
    return out + text.slice(at, Math.max(at, end));
  };
  return Object.assign(redact, { reach });
}

/**
 * How many bytes past the cap a capture must keep so that, once a cut-short stream's unsafe tail is dropped, a full
 * cap is left to show: the redactor's reach in UTF-16 units, at most 3 UTF-8 bytes each.
 */
export function longestForm(marks: SecretMark[]): number {
  return marks.reduce((max, mark) => Math.max(max, mark.l), 0) * URL_ENCODED_WIDTH * 3;
}
