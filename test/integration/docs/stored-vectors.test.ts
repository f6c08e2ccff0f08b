// Passage vectors kept in the store (docs_vectors): the process that embeds a package stores its vectors, and another
// process — a restarted server, another instance of a fleet — reads them instead of embedding the package again;
// vectors of an earlier indexing are not reused. Real encoder (the shipped bge-small-en-v1.5), real stores.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import type { PackageIndex } from '../../../src/docs/package-index.ts';
import { rankPassages, type IndexedPassage } from '../../../src/docs/rank.ts';
import { createDocsSemantic, RERANK_DEPTH } from '../../../src/docs/semantic.ts';
import { createPassageVectorStore } from '../../../src/docs/vector-store.ts';
import type { Embedder, EmbedKind, EmbedPriority } from '../../../src/semantic/index.ts';
import { loadTransformerEmbedder, SHIPPED_ENCODER_DIR } from '../../../src/semantic/transformer-model.ts';
import { packVectors, quantize, unpackVectors } from '../../../src/semantic/vector.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';

const silent = pino({ level: 'silent' });

/** The real encoder, counting the passages it is asked to embed. */
class CountingEncoder implements Embedder {
  passages = 0;
  constructor(private readonly inner: Embedder) {}
  get id() { return this.inner.id; }
  get dimensions() { return this.inner.dimensions; }
  get kind() { return this.inner.kind; }
  embed(texts: string[], kind: EmbedKind, priority?: EmbedPriority) {
    if (kind === 'passage') this.passages += texts.length;
    return this.inner.embed(texts, kind, priority);
  }
}

const PASSAGES: IndexedPassage[] = [
  ['orm.Session.rollback', 'Roll back the current transaction in progress, discarding every change made since it began.'],
  ['orm.Session.commit', 'Flush pending changes and commit the current transaction.'],
  ['orm.Session.close', 'Close out the transactional resources and ORM objects used by this Session.'],
  ['engine.Transaction.changes', 'The changes of a transaction, as a list of statements.'],
].map(([symbol, content], id) => ({
  id, url: `https://example.test/${id}`, title: symbol!, headings: [symbol!], content: content!, source: 'lib/session.py',
  identifiers: [], symbol: symbol!, importance: 0.5, internal: false,
}));

function packageIndex(stamp: string): PackageIndex {
  const lexical = new LexicalIndex(PASSAGES.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol!.split('.').pop()! })));
  return { key: 'pypi-example@1.0.0', slug: 'pypi-example', version: '1.0.0', passages: PASSAGES, lexical, stamp };
}

async function ask(semantic: ReturnType<typeof createDocsSemantic>, index: PackageIndex, question: string) {
  const lexicalTop = rankPassages(index.passages, index.lexical, question, { limit: RERANK_DEPTH, identifiers: [] }).map((p) => p.doc);
  const meaning = await semantic.meaning(index, question, lexicalTop);
  await semantic.idle();
  return rankPassages(index.passages, index.lexical, question, { limit: 3, identifiers: [], ...(meaning.similarity ? { semantic: meaning.similarity } : {}) })
    .map((p) => p.symbol);
}

describe('packed passage vectors', () => {
  it('round-trip exactly, and a value of the wrong size is refused rather than misread', () => {
    const vectors = [Float32Array.from([0.6, -0.8, 0]), Float32Array.from([0, 0.28, -0.96])].map(quantize);
    const packed = packVectors(vectors, 3);
    assert.deepEqual(unpackVectors(packed, 2, 3), vectors);
    assert.equal(unpackVectors(packed, 3, 3), undefined);
    assert.equal(unpackVectors(packed.subarray(1), 2, 3), undefined);
  });
});

for (const store of storeKinds()) {
  describe(`stored passage vectors on ${store}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ store });
      await server.app.store.query(`insert into docs_versions (slug, version, status, passages) values ('pypi-example', '1.0.0', 'ready', $1)`, [PASSAGES.length]);
    });
    after(() => server.close());

    it('are embedded once, then read by another process instead of embedding the package again', async () => {
      const encoder = await loadTransformerEmbedder(SHIPPED_ENCODER_DIR);
      const vectors = createPassageVectorStore(server.app.store);
      const question = 'undo the changes of a transaction';

      const first = new CountingEncoder(encoder);
      const embedding = createDocsSemantic(null, first, silent, vectors);
      const answer = await ask(embedding, packageIndex('4@1'), question);
      await embedding.close();
      assert.ok(first.passages >= PASSAGES.length, `the first process embedded ${first.passages} passages`);
      const [row] = await server.app.store.query<{ encoder: string; stamp: string }>('select encoder, stamp from docs_vectors');
      assert.equal(row?.stamp, '4@1');
      assert.match(row!.encoder, /^tooldex-bge-small-en-v1\.5-onnx-int8-r1#summary\d+$/);

      const second = new CountingEncoder(encoder);
      const restarted = createDocsSemantic(null, second, silent, vectors);
      assert.deepEqual(await ask(restarted, packageIndex('4@1'), question), answer, 'the same answer from the stored vectors');
      await restarted.close();
      assert.equal(second.passages, 0, 'no passage embedded again');

      // Indexed again (another stamp): the stored vectors belong to the earlier passages and are not used.
      const third = new CountingEncoder(encoder);
      const reindexed = createDocsSemantic(null, third, silent, vectors);
      await ask(reindexed, packageIndex('4@2'), question);
      await reindexed.close();
      assert.ok(third.passages >= PASSAGES.length, 'a new indexing embeds its passages');
      const rows = await server.app.store.query<{ stamp: string }>('select stamp from docs_vectors');
      assert.deepEqual(rows.map((r) => r.stamp), ['4@2'], 'and replaces the stored vectors');
    });

    it('are removed with their version', async () => {
      await server.app.store.query(`delete from docs_versions where slug = 'pypi-example'`);
      assert.equal((await server.app.store.query('select 1 from docs_vectors')).length, 0);
    });
  });
}
