// The weak labels' pseudo-questions (scripts/docs-weak-questions.ts): made from a package's docs structure only — a
// section's heading, an item's first sentence without the item's own name, the sentence that introduces a code block —
// each pointing at the passage it came from, and picked by a seeded generator (the same on every run).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pseudoQuestions, random, shuffled } from '../../../scripts/docs-weak-questions.ts';
import type { IndexedPassage } from '../../../src/docs/rank.ts';

const passage = (id: number, symbol: string | null, heading: string, content: string, extra: Partial<IndexedPassage> = {}): IndexedPassage => ({
  id, url: `u${id}`, title: heading, headings: [heading], content, source: symbol ? 'index.d.ts' : 'README.md', identifiers: [], symbol, importance: 0.8, internal: false, ...extra,
});
const prose = 'Every request is retried with a growing delay until it succeeds or the attempts run out, and the last error is returned to the caller unchanged.';
const passages = [
  passage(0, null, 'Retrying failed requests', `${prose}\n\nTo retry a request three times, pass the retries option:\n\n\`\`\`js\nclient.get(url, { retries: 3 })\n\`\`\``),
  passage(1, 'client.parseRetryAfter', 'parseRetryAfter', 'Parse retry after header values into milliseconds. Returns null when absent.'),
  passage(2, null, 'Install', 'npm install client'), // one word of heading, no prose: no question
  passage(3, 'client.internalThing', 'internalThing', 'Reads the internal state of the pool for debugging.', { internal: true }),
  passage(4, 'client.get', 'get', 'Gets.'), // a summary too short once the name is out
];

describe('weak pseudo-questions', () => {
  const questions = pseudoQuestions(passages, random(1), 3);
  it('a heading of three words and more over a section with prose asks for that section', () => {
    assert.deepEqual(questions.filter((q) => q.kind === 'heading'), [{ kind: 'heading', question: 'Retrying failed requests', doc: 0 }]);
  });
  it("an item's first sentence, its own name (and the name's parts) taken out, asks for that item", () => {
    assert.deepEqual(questions.filter((q) => q.kind === 'summary'), [{ kind: 'summary', question: 'header values into milliseconds', doc: 1 }]);
  });
  it('the sentence that introduces a code block asks for its section', () => {
    assert.deepEqual(questions.filter((q) => q.kind === 'intro'), [{ kind: 'intro', question: 'To retry a request three times, pass the retries option', doc: 0 }]);
  });
  it('internal passages and passages without enough text ask nothing', () => {
    assert.ok(questions.every((q) => q.doc !== 2 && q.doc !== 3 && q.doc !== 4));
  });
  it('is deterministic for a seed and keeps at most perKind of each kind', () => {
    const many = Array.from({ length: 10 }, (_, i) => passage(i, null, `How to do thing number ${i}`, prose));
    const a = pseudoQuestions(many, random(7), 2);
    assert.equal(a.length, 2);
    assert.deepEqual(pseudoQuestions(many, random(7), 2), a);
    assert.deepEqual(shuffled([1, 2, 3, 4, 5], random(3)), shuffled([1, 2, 3, 4, 5], random(3)));
    assert.deepEqual([...shuffled([1, 2, 3, 4, 5], random(3))].sort(), [1, 2, 3, 4, 5]);
  });
});
