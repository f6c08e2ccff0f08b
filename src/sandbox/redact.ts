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
 * Every form of a secret that responses redact (the documented guarantee): the value and its reverse; base64 in the
 * standard and URL-safe alphabets, whole (padded or not) and at each of the three byte alignments inside longer base64
 * text; hex in lower and upper case; URL encoding (upper- and lower-case escapes, `+` for space, `/` kept or escaped,
 * and legacy `escape()`); JSON string escapes as JavaScript and as Python (ensure_ascii) write them.
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
  const url = encodeURIComponent(secret);
  for (const form of [url, url.replace(/%20/g, '+'), url.replace(/%2F/g, '/'), escape(secret)]) {
    forms.add(form).add(form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  }
  forms.add(jsonEscaped(secret)).add(jsonAscii(secret));
  // A base64 core shorter than a third of the secret would match ordinary text; the secret's length floor keeps cores long.
  return [...forms].filter((form) => form.length >= 4);
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
 * A redactor for stored marks: for each form length, a rolling hash slides over the text; a window whose hash is a
 * mark's is confirmed by its MAC and replaced. Overlapping matches merge into one [REDACTED].
 */
export function createRedactor(marks: SecretMark[], key: Buffer): (text: string) => string {
  if (marks.length === 0) return (text) => text;
  const base = rollBase(key);
  const byLength = new Map<number, Map<number, Set<string>>>();
  for (const mark of marks) {
    const hashes = byLength.get(mark.l) ?? new Map<number, Set<string>>();
    const macs = hashes.get(mark.r) ?? new Set<string>();
    macs.add(mark.m);
    hashes.set(mark.r, macs);
    byLength.set(mark.l, hashes);
  }
  return (text) => {
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
    if (ranges.length === 0) return text;
    ranges.sort((a, b) => a[0] - b[0]);
    let out = '';
    let at = 0;
    let current: [number, number] | undefined;
    for (const range of ranges) {
      if (current && range[0] < current[1]) {
        current[1] = Math.max(current[1], range[1]);
        continue;
      }
      if (current) {
        out += text.slice(at, current[0]) + REDACTED;
        at = current[1];
      }
      current = [range[0], range[1]];
    }
    if (current) out += text.slice(at, current[0]) + REDACTED + text.slice(current[1]);
    return out;
  };
}

/** The longest any marked form may be, in UTF-8 bytes: how much past the cap the capture must keep. */
export function longestForm(marks: SecretMark[]): number {
  return marks.reduce((max, mark) => Math.max(max, mark.l * 3), 0);
}
