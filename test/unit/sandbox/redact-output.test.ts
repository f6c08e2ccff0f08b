// Redaction of secrets (plain, base64, URL-encoded) and the 8 KB output cap cut on a UTF-8 boundary.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, longestForm, REDACTED, secretForms } from '../../../src/sandbox/redact.ts';
import { CappedOutput, cutUtf8, OUTPUT_CAP_BYTES, TRUNCATION_MARKER } from '../../../src/sandbox/output.ts';

describe('redactSecrets', () => {
  const secret = 'p@ss w0rd/+?&é';
  const redact = createRedactor([secret, 'tok_123']);
  const cases: Array<[string, string]> = [
    ['plain', `value=${secret}!`],
    ['base64', `b64=${Buffer.from(secret).toString('base64')}`],
    ['base64 without padding', `b64=${Buffer.from(secret).toString('base64').replace(/=+$/, '')}`],
    ['base64url', `u=${Buffer.from(secret).toString('base64url')}`],
    ['URL-encoded', `q=${encodeURIComponent(secret)}`],
    ['form-encoded', `q=${encodeURIComponent(secret).replace(/%20/g, '+')}`],
    ['lower-case percent escapes', `q=${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`],
    ['second secret', 'Bearer tok_123'],
  ];
  for (const [name, text] of cases) {
    it(`removes the ${name} form`, () => {
      const out = redact(text);
      assert.ok(out.includes(REDACTED), out);
      for (const form of secretForms(secret)) assert.ok(!out.includes(form), `${form} left in ${out}`);
      assert.ok(!out.includes('tok_123'));
    });
  }
  it('leaves text without secrets untouched and handles no secrets', () => {
    assert.equal(redact('nothing here'), 'nothing here');
    assert.equal(createRedactor([])('a'), 'a');
  });
  it('knows how long the longest form is', () => {
    assert.ok(longestForm([secret]) >= encodeURIComponent(secret).length);
  });
});

describe('CappedOutput', () => {
  it('keeps short output whole', () => {
    const out = new CappedOutput(OUTPUT_CAP_BYTES + 100);
    out.push(Buffer.from('hello\n'));
    assert.equal(out.finish((t) => t), 'hello\n');
  });
  it('caps at 8 KB with a visible marker and counts what it dropped', () => {
    const out = new CappedOutput(OUTPUT_CAP_BYTES + 100);
    for (let i = 0; i < 100; i++) out.push(Buffer.alloc(1000, 'a'));
    const text = out.finish((t) => t);
    assert.ok(text.includes(TRUNCATION_MARKER));
    assert.ok(text.includes('100000 bytes'));
    assert.equal(Buffer.byteLength(text.split(TRUNCATION_MARKER)[0] ?? ''), OUTPUT_CAP_BYTES);
  });
  it('never splits a multi-byte character at the cap', () => {
    const out = new CappedOutput(OUTPUT_CAP_BYTES + 100);
    for (let i = 0; i < 5000; i++) out.push(Buffer.from('é😀'));
    const head = out.finish((t) => t).split(TRUNCATION_MARKER)[0] ?? '';
    assert.ok(Buffer.byteLength(head) <= OUTPUT_CAP_BYTES);
    assert.ok(!head.includes('\uFFFD'));
    assert.ok(head.endsWith('é') || head.endsWith('😀'));
  });
  it('redacts a secret that straddles the cap before cutting', () => {
    const secret = 'S'.repeat(40);
    const out = new CappedOutput(OUTPUT_CAP_BYTES + longestForm([secret]) + 64);
    out.push(Buffer.from('x'.repeat(OUTPUT_CAP_BYTES - 10) + secret + 'y'.repeat(5000)));
    const text = out.finish(createRedactor([secret]));
    assert.ok(!text.includes('SSSSSSSSSS'), 'no part of the secret longer than the visible cut');
  });
  it('cutUtf8 drops an incomplete sequence at the end', () => {
    const bytes = Buffer.from('ab€');
    assert.equal(cutUtf8(bytes, 4), 'ab');
    assert.equal(cutUtf8(bytes, 5), 'ab€');
  });
});
