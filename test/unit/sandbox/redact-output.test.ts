// Redaction of secrets in every listed encoding from keyed marks (never the secret), and the 8 KB output cap cut on a UTF-8 boundary.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, longestForm, mergeMarks, REDACTED, secretForms, secretMarks } from '../../../src/sandbox/redact.ts';
import { CappedOutput, cutUtf8, OUTPUT_CAP_BYTES, TRUNCATION_MARKER } from '../../../src/sandbox/output.ts';

const key = Buffer.alloc(32, 7);
const redactorFor = (secrets: string[]) => createRedactor(secrets.flatMap((secret) => secretMarks(secret, key)), key);

describe('redaction of every listed form', () => {
  const secret = 'p@ss w0rd/+?&é"\\x';
  const redact = redactorFor([secret, 'tok_12345678']);
  const bytes = Buffer.from(secret);
  const inLongerBase64 = (prefix: number, alphabet: 'base64' | 'base64url') =>
    Buffer.concat([Buffer.from('ab'.slice(0, prefix)), bytes, Buffer.from('tail!')]).toString(alphabet);
  const cases: Array<[string, string]> = [
    ['plain', `value=${secret}!`],
    ['reversed', `r=${[...secret].reverse().join('')}`],
    ['base64', `b64=${bytes.toString('base64')}`],
    ['base64 without padding', `b64=${bytes.toString('base64').replace(/=+$/, '')}`],
    ['base64url', `u=${bytes.toString('base64url')}`],
    ['base64 at offset 1 inside longer base64', `x=${inLongerBase64(1, 'base64')}`],
    ['base64 at offset 2 inside longer base64', `x=${inLongerBase64(2, 'base64')}`],
    ['base64url at offset 1 inside longer base64url', `x=${inLongerBase64(1, 'base64url')}`],
    ['hex', `h=${bytes.toString('hex')}`],
    ['HEX', `h=${bytes.toString('hex').toUpperCase()}`],
    ['URL-encoded', `q=${encodeURIComponent(secret)}`],
    ['form-encoded', `q=${encodeURIComponent(secret).replace(/%20/g, '+')}`],
    ['lower-case percent escapes', `q=${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`],
    ['URL-encoded with / kept (Python quote)', `q=${encodeURIComponent(secret).replace(/%2F/g, '/')}`],
    ['JSON-escaped', `{"k":${JSON.stringify(secret)}}`],
    ['JSON-escaped ASCII-only (Python json.dumps)', `{"k": "${JSON.stringify(secret).slice(1, -1).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"}`],
    ['second secret', 'Bearer tok_12345678'],
  ];
  for (const [name, text] of cases) {
    it(`removes the ${name} form`, () => {
      const out = redact(text);
      assert.ok(out.includes(REDACTED), `${name}: ${out}`);
      assert.ok(!out.includes('tok_12345678'));
      assert.ok(!out.includes(secret));
    });
  }
  it('stores no form of the secret, only keyed marks', () => {
    const marks = JSON.stringify(secretMarks(secret, key));
    for (const form of secretForms(secret)) assert.ok(!marks.includes(form), form);
    assert.notDeepEqual(secretMarks(secret, key), secretMarks(secret, Buffer.alloc(32, 8)), 'marks depend on the key');
  });
  it('leaves text without secrets untouched, and an 8-character secret does not redact its letters alone', () => {
    const eight = redactorFor(['abcdefgh']);
    assert.equal(eight('a b c d e f g h, abcdefg'), 'a b c d e f g h, abcdefg');
    assert.equal(eight('xabcdefghx'), `x${REDACTED}x`);
    assert.equal(redact('nothing here'), 'nothing here');
    assert.equal(createRedactor([], key)('a'), 'a');
  });
  it('merges marks without duplicates', () => {
    const marks = secretMarks('tok_12345678', key);
    assert.equal(mergeMarks(marks, marks).length, marks.length);
  });
  it('knows how long the longest form is', () => {
    assert.ok(longestForm(secretMarks(secret, key)) >= encodeURIComponent(secret).length);
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
    const out = new CappedOutput(OUTPUT_CAP_BYTES + longestForm(secretMarks(secret, key)) + 64);
    out.push(Buffer.from('x'.repeat(OUTPUT_CAP_BYTES - 10) + secret + 'y'.repeat(5000)));
    const text = out.finish(redactorFor([secret]));
    assert.ok(!text.includes('SSSSSSSSSS'), 'no part of the secret longer than the visible cut');
  });
  it('cutUtf8 drops an incomplete sequence at the end', () => {
    const bytes = Buffer.from('ab€');
    assert.equal(cutUtf8(bytes, 4), 'ab');
    assert.equal(cutUtf8(bytes, 5), 'ab€');
  });
});
