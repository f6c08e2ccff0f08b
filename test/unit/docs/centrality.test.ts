import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { centrality, namesUsed } from '../../../src/docs/centrality.ts';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import { rankPassages, WEIGHTS, type IndexedPassage } from '../../../src/docs/rank.ts';

describe('namesUsed', () => {
  it('finds names called or reached through a value or a path, not prose words', () => {
    const names = namesUsed('Call `session.add(user)` then db.Where("a = ?", 1).Order("b"); anyhow::bail!("no"); the add step.');
    for (const name of ['add', 'Where', 'Order', 'bail']) assert.ok(names.has(name), name);
    assert.ok(!names.has('step'));
    assert.ok(!names.has('the'));
  });
});

const passage = (id: number, symbol: string | null, content: string, title = symbol ?? 'Guide'): IndexedPassage => ({
  id, url: `u${id}`, title, headings: [title], content, source: 'src/lib.rs', identifiers: [], symbol, importance: 0.5, internal: false,
});

describe('centrality', () => {
  const passages = [
    passage(1, 'db.Where', 'Where adds conditions to the query.'),
    passage(2, 'db.Having', 'Having adds conditions after grouping.'),
    passage(3, null, 'db.Where("name = ?", "x").Find(&users)\ndb.Where("age > ?", 3).First(&user)'),
    passage(4, null, 'tx := db.Where("id = ?", 1)'),
    passage(5, null, 'db.Group("name").Having("count(*) > 1")'),
  ];

  it('scores an item by how many other passages use its name, on a 0–1 log scale', () => {
    const scores = centrality(passages);
    assert.equal(scores[0], 1); // Where: used by two passages, the most
    assert.ok(scores[1]! > 0 && scores[1]! < 1); // Having: one
    assert.equal(scores[2], 0); // no symbol
  });

  it('does not count a passage using its own name', () => {
    assert.equal(centrality([passage(1, 'x.run', 'x.run() runs it; call x.run() again')])[0], 0);
  });

  it('lets the item the package uses most win a question that two items answer in the same words', () => {
    const scores = centrality(passages);
    const answers = passages.slice(0, 2).map((p, i) => ({ ...p, centrality: scores[i] }));
    const lexical = new LexicalIndex(answers.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol!.split('.').pop()! })));
    const ranked = rankPassages(answers, lexical, 'adds conditions', { limit: 2, identifiers: [] });
    assert.deepEqual(ranked.map((p) => p.symbol), ['db.Where', 'db.Having']);
    const plain = rankPassages(answers.map((p) => ({ ...p, centrality: 0 })), lexical, 'adds conditions', { limit: 2, identifiers: [] });
    const where = (list: typeof ranked) => list.find((p) => p.symbol === 'db.Where')!.score;
    assert.ok(Math.abs(where(ranked) - where(plain) - WEIGHTS.centrality) < 1e-6, 'the boost is the weight times the centrality');
  });
});
