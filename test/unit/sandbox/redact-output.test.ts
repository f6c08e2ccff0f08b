// Redaction of secrets in every listed encoding from keyed marks (never the secret), and the 8 KB output cap cut on a UTF-8 boundary.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, longestForm, mergeMarks, REDACTED, secretForms, secretMarks, urlDecodedView } from '../../../src/sandbox/redact.ts';
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

describe('URL encodings: any safe set, + for space, either hex case, %uXXXX', () => {
  const secret = 'Pa55 w0rd!(2024)*x/é~';
  const redact = redactorFor([secret]);
  const bytes = [...Buffer.from(secret)];
  /** Percent-encodes every byte except the characters in `keep`, hex in the given case; optionally + for space. */
  const encode = (keep: string, upper: boolean, plus = false) => bytes.map((byte) => {
    const c = String.fromCharCode(byte);
    if (byte < 0x80 && keep.includes(c)) return c;
    if (plus && c === ' ') return '+';
    const hex = byte.toString(16).padStart(2, '0');
    return `%${upper ? hex.toUpperCase() : hex}`;
  }).join('');
  const unreserved = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
  const cases: Array<[string, string]> = [
    ['every byte escaped', encode('', true)],
    ['RFC 3986 unreserved kept (Python quote, safe="")', encode(unreserved, true)],
    ['Python quote (safe="/")', encode(`${unreserved}/`, true)],
    ['encodeURIComponent', encodeURIComponent(secret)],
    ['encodeURI', encodeURI(secret)],
    ['URLSearchParams / quote_plus (form encoding)', new URLSearchParams({ t: secret }).toString().slice(2)],
    ['lower-case hex', encode(unreserved, false)],
    ['mixed safe set and + for space', encode(`${unreserved}!()*`, false, true)],
    ['legacy escape()', escape(secret)],
  ];
  for (const [name, form] of cases) {
    it(`redacts ${name}`, () => {
      const out = redact(`before ${form} after`);
      assert.equal(out, `before ${REDACTED} after`, `${name}: ${form}`);
    });
  }
  it('maps each decoded unit back to the escapes it came from', () => {
    const view = urlDecodedView('a%C3%A9+b%2', true);
    assert.equal(view.text, 'aé b%2');
    assert.deepEqual([view.from[1], view.to[1]], [1, 7]);
    assert.deepEqual([view.from[2], view.to[2]], [7, 8]);
  });
  it('reads a byte that is not UTF-8 as Latin-1 (legacy escape())', () => {
    assert.equal(urlDecodedView('%FF%41', false).text, 'ÿA');
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
  it('shows no prefix of a secret where the capture itself ended inside it (the stream went on)', () => {
    const secret = 'sk_live_4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
    const redact = redactorFor([secret]);
    const keep = OUTPUT_CAP_BYTES + longestForm(secretMarks(secret, key)) + 64;
    for (let pad = 0; pad < 41; pad++) {
      const out = new CappedOutput(keep);
      out.push(Buffer.from('x'.repeat(pad)));
      for (let i = 0; i < 400; i++) out.push(Buffer.from(`${secret}\n`));
      const text = out.finish(redact);
      assert.ok(!text.includes(secret.slice(0, 4)), `pad ${pad}: …${text.slice(-120)}`);
      assert.ok(text.includes(TRUNCATION_MARKER));
    }
  });
  it('keeps a whole capture whole (nothing cut when the stream ended inside what was kept)', () => {
    const secret = 'tok_12345678';
    const out = new CappedOutput(OUTPUT_CAP_BYTES + longestForm(secretMarks(secret, key)) + 64);
    out.push(Buffer.from('ends with tok_1234'));
    assert.equal(out.finish(redactorFor([secret])), 'ends with tok_1234');
  });
  it('cutUtf8 drops an incomplete sequence at the end', () => {
    const bytes = Buffer.from('ab€');
    assert.equal(cutUtf8(bytes, 4), 'ab');
    assert.equal(cutUtf8(bytes, 5), 'ab€');
  });
});
