// Code-aware tokens: identifiers split so that "requiredOption" and "required option" meet.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expandCodeTokens, identifiersIn, queryTerms, splitIdentifier } from '../../../src/docs/tokens.ts';

describe('splitIdentifier', () => {
  const cases: Array<[string, string[]]> = [
    ['requiredOption', ['required', 'option']],
    ['HTTPServer', ['http', 'server']],
    ['z.string', ['z', 'string']],
    ['snake_case_name', ['snake', 'case', 'name']],
    ['std::fs::read_to_string', ['std', 'fs', 'read', 'to', 'string']],
    ['parseInt', ['parse', 'int']],
    ['plain', ['plain']],
  ];
  for (const [input, expected] of cases) it(`${input} → ${expected.join(' ')}`, () => assert.deepEqual(splitIdentifier(input), expected));
});

describe('expandCodeTokens and identifiersIn', () => {
  it('adds the parts of compound identifiers and leaves plain prose alone', () => {
    assert.match(expandCodeTokens('call program.requiredOption()'), /required option/);
    assert.equal(expandCodeTokens('just words here'), 'just words here');
  });
  it('collects inline code and compound identifiers, lower-cased, with the last segment of dotted ones', () => {
    const ids = identifiersIn('Use `.requiredOption()` or z.string().optional() and `parse`.');
    for (const id of ['requiredoption', 'z.string', 'string', 'parse']) assert.ok(ids.includes(id), id);
  });
});

describe('queryTerms', () => {
  it('drops question filler, keeps content words and code parts', () => {
    const { terms, identifiers } = queryTerms('How do I use requiredOption in the library?');
    assert.deepEqual(terms, ['requiredoption', 'required', 'option']);
    assert.deepEqual(identifiers, ['requiredoption']);
  });
  it('treats backticked words as identifiers', () => {
    assert.deepEqual(queryTerms('what does `parse` return').identifiers, ['parse']);
  });
  it('never returns an empty term list for a non-empty question of filler only', () => {
    assert.ok(queryTerms('how do I').terms.length > 0);
  });
});
