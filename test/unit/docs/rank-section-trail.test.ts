// A guide section counts once in an answer by its URL and heading trail (SECTION_TRAIL, the shipped setting), or by
// its URL alone (RankOptions.sectionTrail false). pkg.go.dev gives every section of a README one URL (`#section-readme`), so by URL alone one README section took
// the whole README's only slot; a section's chunks (the same trail) still count once either way.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import { dedupKey, keyUnder, rankPassages, SECTION_TRAIL, type IndexedPassage } from '../../../src/docs/rank.ts';

const readme = 'https://pkg.go.dev/example.com/env@v1.0.0#section-readme';
const section = (id: number, headings: string[], content: string): IndexedPassage => ({
  id, url: readme, title: headings[headings.length - 1]!, headings, content, source: 'README.md', identifiers: [], symbol: null, importance: 1, internal: false,
});
const passages = [
  section(0, ['env', 'Prefixes'], 'Set a prefix for environment variable names so every variable read starts with it.'),
  section(1, ['env', 'Supported types'], 'Environment variable values parse into strings, integers, durations and slices.'),
  section(2, ['env', 'Supported types'], 'Second chunk of the types section: environment variable maps and pointers too.'),
  { id: 3, url: 'u3', title: 'Parse', headings: ['env', 'Parse'], content: 'Parse reads environment variables into a struct.', source: 'env.go', identifiers: [], symbol: 'env.Parse', importance: 0.8, internal: false },
];
const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: p.headings.join(' '), body: p.content, name: p.symbol?.split('.').pop() ?? p.title ?? '' })));
const ask = (sectionTrail?: boolean) => rankPassages(passages, lexical, 'environment variable prefix and types', { limit: 4, identifiers: [], ...(sectionTrail === undefined ? {} : { sectionTrail }) }).map((p) => p.doc);

describe('a section counts once by URL and heading trail', () => {
  it('keys: the trail is part of a section\'s key, dropped without the trail; items keep their symbol key', () => {
    assert.notEqual(dedupKey(passages[0]!), dedupKey(passages[1]!));
    assert.equal(dedupKey(passages[1]!), dedupKey(passages[2]!));
    assert.equal(keyUnder(false, dedupKey(passages[0]!)), keyUnder(false, dedupKey(passages[1]!)));
    assert.notEqual(keyUnder(true, dedupKey(passages[0]!)), keyUnder(true, dedupKey(passages[1]!)));
    assert.equal(keyUnder(false, dedupKey(passages[3]!)), 'symbol:env.Parse');
  });

  it('with the trail (the shipped setting), two sections of one README URL both answer; their chunks still count once', () => {
    assert.equal(SECTION_TRAIL, true);
    const ranked = ask();
    assert.deepEqual(ask(true), ranked);
    assert.ok(ranked.includes(0), 'the prefix section');
    assert.equal(ranked.filter((d) => d === 1 || d === 2).length, 1, 'one chunk of the types section');
  });

  it('by URL alone, one README section is all the README gets', () => {
    assert.equal(ask(false).filter((d) => d <= 2).length, 1);
  });
});
