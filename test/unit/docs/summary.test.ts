import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstSentence, passageSummary, plainProse } from '../../../src/docs/summary.ts';

describe('passage summaries for the sentence encoder', () => {
  it('reads past an mkdocs admonition to the words (pydantic)', () => {
    const content = '```python\n@final\nclass TypeAdapter(Generic[T])\n```\n\n!!! abstract "Usage Documentation"\n    [`TypeAdapter`](../concepts/type_adapter.md)\n\nType adapters provide a flexible way to perform validation. More text.';
    assert.equal(passageSummary({ symbol: 'pydantic.TypeAdapter', title: 'TypeAdapter', headings: ['TypeAdapter'], content }),
      'Type Adapter. TypeAdapter. TypeAdapter Type adapters provide a flexible way to perform validation.');
  });

  it('drops reST directives, targets, roles and doctests (click, SQLAlchemy, requests)', () => {
    assert.equal(firstSentence(plainProse('.. versionadded:: 3.0\n\nA very common usecase of multi command chaining is to have one command process the result.')),
      'A very common usecase of multi command chaining is to have one command process the result.');
    assert.equal(plainProse(':orphan:\n\n.. _index_toplevel:\n\nCall :meth:`.Engine.dispose` on any `Engine <https://x.org>`_ first.'),
      'Call Engine.dispose on any Engine first.');
    assert.equal(plainProse('Sends a request.\n\nUsage::\n\n  >>> import requests\n  >>> req = requests.request("GET", url)\n'), 'Sends a request. Usage:');
  });

  it('keeps the words of Markdown links, emphasis, code and HTML, and drops tables and anchors (fastify, pino)', () => {
    assert.equal(plainProse('<a id="testing"></a>\nTesting is **one** of the most important parts; see [`pino.multistream`](/docs/api.md#x).'),
      'Testing is one of the most important parts; see pino.multistream.');
    assert.equal(plainProse('| Property | Type |\n|----------|------|\n| `level` | string |'), 'Property Type level string');
  });

  it('takes sentences until one says something, and does not cut inside dotted names', () => {
    assert.equal(firstSentence('No. We strongly recommend against committing your .env file.'), 'No. We strongly recommend against committing your .env file.');
    assert.equal(firstSentence('Use z.string() to validate strings. Then more.'), 'Use z.string() to validate strings.');
    assert.equal(firstSentence('x'.repeat(400)).length, 300);
    assert.equal(firstSentence(''), '');
  });

  it('summarises an item without prose by its name and heading alone', () => {
    assert.equal(passageSummary({ symbol: 'zod.ZodObject.strict', title: null, headings: ['ZodObject.strict'], content: '```ts\nstrict(): ZodObject\n```' }),
      'strict. ZodObject.strict. ');
  });
});
