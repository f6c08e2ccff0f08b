// API key format: `tdx_` + 32 base62 random characters (≈190 bits) + 6 base62 characters of CRC-32.
// Pure functions: a typo fails the checksum here, before any database lookup; the store keeps only SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'tdx_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting bytes at or above it keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function base62Fixed(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

const checksumOf = (body: string) => base62Fixed(crc32(body), CHECKSUM_LENGTH);

export function generateApiKey(): string {
  const body = randomBase62(BODY_LENGTH);
  return `${KEY_PREFIX}${body}${checksumOf(body)}`;
}

/** True when the key has the right shape and its checksum matches; says nothing about whether it exists. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  return key.slice(KEY_PREFIX.length + BODY_LENGTH) === checksumOf(body);
}

/** What the dashboard and CLI show of a key after creation: enough to recognise it, useless to an attacker. */
export const displayPrefix = (key: string) => key.slice(0, KEY_PREFIX.length + 6);

// Keys carry ~190 random bits, so a fast hash is enough: a slow KDF would only slow every request.
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
