// API key format: prefix, length, randomness, and a checksum that catches every single-character typo
// and every adjacent transposition without a database lookup.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { displayPrefix, generateApiKey, hashSecret, isWellFormedApiKey, KEY_PREFIX } from '../../../src/auth/key-format.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('API key format', () => {
  it('generates tdx_ keys of 42 characters that pass their own checksum', () => {
    for (let i = 0; i < 200; i++) {
      const key = generateApiKey();
      assert.ok(key.startsWith(KEY_PREFIX));
      assert.equal(key.length, 4 + 32 + 6);
      assert.ok(isWellFormedApiKey(key), key);
    }
  });

  it('carries at least 128 bits of randomness: no repeats, every character used, roughly uniform', () => {
    const keys = Array.from({ length: 2000 }, generateApiKey);
    assert.equal(new Set(keys).size, keys.length);
    const counts = new Map<string, number>();
    for (const key of keys) for (const c of key.slice(4, 36)) counts.set(c, (counts.get(c) ?? 0) + 1);
    assert.equal(counts.size, 62, 'all 62 characters appear');
    const expected = (2000 * 32) / 62;
    for (const [c, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.25, `${c}: ${n} vs ~${expected}`);
    assert.ok(32 * Math.log2(62) >= 128);
  });

  it('rejects every single-character substitution anywhere in the key', () => {
    const key = generateApiKey();
    let tried = 0;
    for (let i = 4; i < key.length; i++) {
      for (const c of ALPHABET) {
        if (c === key[i]) continue;
        const typo = key.slice(0, i) + c + key.slice(i + 1);
        assert.equal(isWellFormedApiKey(typo), false, typo);
        tried++;
      }
    }
    assert.equal(tried, 38 * 61);
  });

  it('rejects adjacent transpositions, truncation, extra characters, a wrong prefix and whitespace', () => {
    const key = generateApiKey();
    for (let i = 4; i < key.length - 1; i++) {
      if (key[i] === key[i + 1]) continue;
      const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
      assert.equal(isWellFormedApiKey(swapped), false, swapped);
    }
    for (const bad of [key.slice(0, -1), `${key}a`, `tdk_${key.slice(4)}`, ` ${key}`, `${key}\n`, key.toUpperCase(), '', 'tdx_']) {
      assert.equal(isWellFormedApiKey(bad), false, JSON.stringify(bad));
    }
  });

  it('shows a short prefix and stores a SHA-256 hash that is not the key', () => {
    const key = generateApiKey();
    assert.equal(displayPrefix(key), key.slice(0, 10));
    assert.match(hashSecret(key), /^[0-9a-f]{64}$/);
    assert.ok(!hashSecret(key).includes(key.slice(4, 14)));
  });
});
