// Docs ranking with the real sentence encoder (the shipped int8 ONNX bge-small-en-v1.5): a question phrased in other
// words than its answer is moved up among the candidates the words found; the answer does not depend on how far the
// background embedding has got.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import type { PackageIndex } from '../../../src/docs/package-index.ts';
import { rankPassages, WEIGHTS, type IndexedPassage } from '../../../src/docs/rank.ts';
import { createDocsSemantic, RERANK_DEPTH } from '../../../src/docs/semantic.ts';
import { loadTransformerEmbedder, SHIPPED_ENCODER_DIR } from '../../../src/semantic/transformer-model.ts';

const passage = (id: number, symbol: string, content: string): IndexedPassage => ({
  id, url: `https://example.test/${id}`, title: symbol, headings: [symbol], content, source: 'lib/session.py', identifiers: [],
  symbol, importance: 0.5, internal: false,
});

function packageIndex(passages: IndexedPassage[]): PackageIndex {
  const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol!.split('.').pop()! })));
  return { key: 'pypi-example@1.0.0', slug: 'pypi-example', version: '1.0.0', passages, lexical, stamp: '1' };
}

const PASSAGES = [
  passage(1, 'orm.Session.rollback', 'Roll back the current transaction in progress, discarding every change made since it began.'),
  passage(2, 'orm.SessionTransaction', 'A Session-level transaction. The changes of the transaction are kept until commit.'),
  passage(3, 'orm.Session.commit', 'Flush pending changes and commit the current transaction.'),
  passage(4, 'engine.Transaction.changes', 'The changes of a transaction, as a list of statements.'),
  passage(5, 'orm.Session.close', 'Close out the transactional resources and ORM objects used by this Session.'),
  passage(6, 'time.sleep', 'Suspend execution of the calling thread for the given number of seconds.'),
];

async function ask(semantic: ReturnType<typeof createDocsSemantic>, index: PackageIndex, question: string): Promise<Array<{ symbol: string | null }>> {
  const lexicalTop = rankPassages(index.passages, index.lexical, question, { limit: RERANK_DEPTH, identifiers: [] }).map((p) => p.doc);
  const meaning = await semantic.meaning(index, question, lexicalTop);
  return rankPassages(index.passages, index.lexical, question, {
    limit: 3, identifiers: [], related: meaning.related,
    ...(meaning.similarity ? { semantic: meaning.similarity } : {}),
  });
}

describe('docs ranking by whole-text meaning', () => {
  it('ranks the passage that answers a question in other words above where the words alone put it', async () => {
    const index = packageIndex(PASSAGES);
    const question = 'undo the changes of a transaction';
    const position = (ranked: Array<{ symbol: string | null }>) => ranked.findIndex((r) => r.symbol === 'orm.Session.rollback');
    const byWords = rankPassages(index.passages, index.lexical, question, { limit: 6, identifiers: [] });
    const semantic = createDocsSemantic(null, await loadTransformerEmbedder(SHIPPED_ENCODER_DIR), pino({ level: 'silent' }));
    // The meaning order weighed as much as the words (rrf 1). Since round 14 the shipped meaning weight is 0.5 (judged
    // forward-chaining over the spent sets: +14 hit@3, +23 hit@1 on 768 held-out questions), and at 0.5 this
    // constructed paraphrase stays below the top 3: the trade those figures made, stated here, not hidden.
    const rrf = WEIGHTS.rrf;
    WEIGHTS.rrf = 1;
    const ranked = await ask(semantic, index, question).finally(() => { WEIGHTS.rrf = rrf; });
    assert.ok(position(byWords) >= 2, `words alone favour passages that repeat the question: ${byWords.map((r) => r.symbol).join(', ')}`);
    assert.ok(position(ranked) >= 0 && position(ranked) < position(byWords), ranked.map((r) => r.symbol).join(', '));
    await semantic.close();
  });

  it('gives the same answer before and after the background has embedded the package, and adds no passage of its own', async () => {
    const index = packageIndex(PASSAGES);
    const semantic = createDocsSemantic(null, await loadTransformerEmbedder(SHIPPED_ENCODER_DIR), pino({ level: 'silent' }));
    const question = 'commit the session';
    const first = (await ask(semantic, index, question)).map((r) => r.symbol);
    await semantic.idle();
    assert.deepEqual((await ask(semantic, index, question)).map((r) => r.symbol), first);
    assert.equal((await ask(semantic, index, 'wait briefly')).length, 0, 'no passage shares a word with it: nothing to reorder');
    await semantic.close();
  });
});
