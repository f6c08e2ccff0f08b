// The store boundary's sanitiser: NUL and lone surrogates (raw, or escaped in JSON text) become U+FFFD; all else stays.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storableJsonText, storableParams, storableText, storableValue } from '../../../src/store/sanitise.ts';

const shark = '\u{1F988}'; // a surrogate pair in UTF-16
const cut = shark.slice(0, 1); // what a code-unit slice leaves: a lone high surrogate

describe('storableText', () => {
  it('replaces NUL and lone surrogates, keeps pairs and other text', () => {
    assert.equal(storableText(`a\u0000b`), 'a\uFFFDb');
    assert.equal(storableText(`fish ${cut} …`), 'fish \uFFFD …');
    assert.equal(storableText(`x${shark.slice(1)}y`), 'x\uFFFDy'); // lone low surrogate
    assert.equal(storableText(`ok ${shark} é \\u0000`), `ok ${shark} é \\u0000`); // a literal backslash-u stays
  });
});

describe('storableJsonText', () => {
  it('makes JSON.stringify output of bad strings valid for jsonb and keeps the rest', () => {
    const json = JSON.stringify({ content: `a\u0000b ${cut} ${shark}`, [`k\u0000`]: 1 });
    assert.match(json, /\\u0000/);
    assert.match(json, /\\ud83e/);
    const clean = storableJsonText(json);
    assert.deepEqual(JSON.parse(clean), { content: `a\uFFFDb \uFFFD ${shark}`, 'k\uFFFD': 1 });
  });

  it('reads escapes left to right: an escaped backslash before u0000 is text, not an escape', () => {
    const json = JSON.stringify({ doc: 'use "\\u0000" as the terminator' });
    assert.equal(storableJsonText(json), json);
    assert.equal(storableJsonText('["\\\\\\u0000"]'), '["\\\\\\ufffd"]');
  });

  it('keeps escaped surrogate pairs and replaces escaped lone ones', () => {
    assert.equal(storableJsonText('["\\ud83e\\udd88"]'), '["\\ud83e\\udd88"]');
    assert.equal(storableJsonText('["\\ud83e x"]'), '["\\ufffd x"]');
    assert.equal(storableJsonText('["\\udd88"]'), '["\\ufffd"]');
    assert.equal(storableJsonText('["\\ud83e\\ud83e\\udd88"]'), '["\\ufffd\\ud83e\\udd88"]');
  });
});

describe('storableParams', () => {
  it('cleans only the parameters the statement casts to json/jsonb, and object parameters', () => {
    const json = JSON.stringify([cut]);
    const out = storableParams('update t set a = $2::jsonb, b = cast($3 as json) where id = $1', [`id\u0000`, json, json, 'plain']);
    assert.deepEqual(out, [`id\u0000`, '["\\ufffd"]', '["\\ufffd"]', 'plain']); // $1: client text, refused as 422 later
    const date = new Date(0);
    assert.deepEqual(storableParams('insert into t values ($1, $2, $3)', [{ a: [`x\u0000`] }, date, ['a\u0000']]),
      [{ a: ['x\uFFFD'] }, date, ['a\u0000']]);
  });

  it('leaves values without bad characters identical', () => {
    const value = { a: 'b', n: 1, list: [true, null] };
    assert.deepEqual(storableValue(value), value);
  });
});
