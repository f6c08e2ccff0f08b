// Text of the shape a parameter's name says (programs/text-shapes.ts), and distinct texts for one call.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { distinctTexts, shapedText } from '../../../src/quickstart/programs/text-shapes.ts';
import { docsText, NO_DOCS_VALUES } from '../../../src/quickstart/docs-values.ts';

describe('text of the shape a parameter name says', () => {
  it('reads the last word of the name', () => {
    assert.equal(shapedText('b64'), 'aGVsbG8gd29ybGQ=');
    assert.equal(Buffer.from(shapedText('inputBase64')!, 'base64').toString(), 'hello world');
    assert.equal(shapedText('character'), '世');
    assert.match(shapedText('file_path')!, /\//);
    assert.ok(new URL(shapedText('url')!));
    assert.ok(!Number.isNaN(Date.parse(shapedText('date')!)));
    assert.doesNotThrow(() => new RegExp(shapedText('regexp')!));
    // A name whose last word says no format: nothing (the caller keeps its plain text).
    assert.equal(shapedText('urlPrefix'), undefined);
    assert.equal(shapedText('string'), undefined);
    assert.equal(shapedText(''), undefined);
  });

  it('makes a call\'s texts differ', () => {
    assert.deepEqual(distinctTexts(['example', 'example']), ['example', 'Example 10']);
    assert.deepEqual(distinctTexts(['file2', 'file2', 'other']), ['file2', 'file22', 'other']);
    assert.deepEqual(distinctTexts(['a', 'b']), ['a', 'b']);
  });

  it('is what docsText gives when the docs give nothing', () => {
    assert.equal(docsText(NO_DOCS_VALUES, 'decode', 'b64', 0), 'aGVsbG8gd29ybGQ=');
    assert.equal(docsText(NO_DOCS_VALUES, 'slugify', 'text', 0), undefined);
    const docs = { ...NO_DOCS_VALUES, passed: new Map([['decode', 'Zm9v']]) };
    assert.equal(docsText(docs, 'decode', 'b64', 0), 'Zm9v');
  });
});
