// passageSummary (src/docs/semantic.ts): the text the sentence encoder reads for a passage. Its cuts at 200 and 300
// units must never end between the two halves of a surrogate pair (an emoji, an astral CJK character): a lone half is
// not a character, and the encoder's tokenizer reads it as garbage.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { passageSummary } from '../../../src/docs/semantic.ts';

const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const summaryOf = (content: string) => passageSummary({ title: 'item', symbol: 'pkg.item', headings: ['item'], content });

describe('passageSummary cuts', () => {
  it('a body with no sentence end, cut at 200 units, keeps an emoji that straddles the cut whole or leaves it out', () => {
    for (const prefix of [198, 199, 200]) {
      const summary = summaryOf(`${'a'.repeat(prefix)}\u{1F600} and more words after it`);
      assert.equal(lone.test(summary), false, `prefix ${prefix}: ${JSON.stringify(summary.slice(-4))}`);
    }
  });
  it('a first sentence longer than 300 units is cut at a code point', () => {
    for (const prefix of [298, 299, 300]) {
      const summary = summaryOf(`${'b'.repeat(prefix)}\u{20000}\u{20000} ends here. Second sentence.`);
      assert.equal(lone.test(summary), false, `prefix ${prefix}`);
      assert.ok(summary.includes('b'.repeat(prefix - 2)));
    }
  });
  it('short text is unchanged: name, heading, first sentence', () => {
    assert.equal(summaryOf('Returns the item. More.'), 'item. item. Returns the item. ');
  });
});
