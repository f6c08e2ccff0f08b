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

/** A package of `n` distinct API items, enough for its background embedding to take a few seconds. */
function largePackage(slug: string, n: number, stamp: string): PackageIndex {
  const verbs = ['open', 'close', 'read', 'write', 'merge', 'split', 'sort', 'filter', 'encode', 'decode', 'retry', 'cancel'];
  const nouns = ['session', 'stream', 'buffer', 'record', 'table', 'socket', 'channel', 'token', 'cursor', 'schema', 'field', 'queue'];
  const passages: IndexedPassage[] = Array.from({ length: n }, (_, id) => {
    const symbol = `lib.${nouns[id % nouns.length]}.${verbs[Math.floor(id / nouns.length) % verbs.length]}_${id}`;
    return { id, url: `https://example.test/${id}`, title: symbol, headings: [symbol], source: 'lib/api.py', identifiers: [], symbol, importance: 0.5, internal: false,
      content: `${verbs[Math.floor(id / nouns.length) % verbs.length]} the ${nouns[id % nouns.length]} number ${id} and return what changed.` };
  });
  return indexOf(slug, passages, stamp);
}

function indexOf(slug: string, passages: IndexedPassage[], stamp: string): PackageIndex {
  const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol!.split('.').pop()! })));
  return { key: `${slug}@1.0.0`, slug, version: '1.0.0', passages, lexical, stamp };
}

const packageIndex = (stamp: string) => indexOf('pypi-example', PASSAGES, stamp);

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

    it('are embedded by one process of a fleet while the others wait for them, and a dead holder\'s lease expires', async () => {
      const N = 240;
      await server.app.store.query(`insert into docs_versions (slug, version, status, passages) values ('pypi-fleet', '1.0.0', 'ready', $1)`, [N]);
      // On PostgreSQL the server sweeps leases whose owner has no heartbeat: these two owners are live instances.
      if (store === 'postgres') await server.app.store.query("insert into instances (id, host, pid) values ('fleet-a', 'test', 1), ('fleet-b', 'test', 2)");
      const encoder = await loadTransformerEmbedder(SHIPPED_ENCODER_DIR);
      const vectors = createPassageVectorStore(server.app.store);
      const lease = { seconds: 60, pollMs: 100 };
      const [a, b] = [new CountingEncoder(encoder), new CountingEncoder(encoder)];
      const first = createDocsSemantic(null, a, silent, vectors, { owner: 'fleet-a', lease });
      const second = createDocsSemantic(null, b, silent, vectors, { owner: 'fleet-b', lease });
      const question = 'sort the records of a table';
      const answers = await Promise.all([ask(first, largePackage('pypi-fleet', N, '240@1'), question), ask(second, largePackage('pypi-fleet', N, '240@1'), question)]);
      await Promise.all([first.close(), second.close()]);
      const [holder, waiter] = a.passages >= b.passages ? [a, b] : [b, a];
      assert.ok(holder.passages >= N, `one process embedded the package (${holder.passages} passages)`);
      assert.ok(waiter.passages <= RERANK_DEPTH, `the other embedded only what its question needed at once (${waiter.passages}), then read the stored vectors`);
      assert.deepEqual(answers[0], answers[1]);
      assert.equal((await server.app.store.query("select 1 from docs_vector_leases where slug = 'pypi-fleet'")).length, 0, 'the lease is given up');

      // A lease left by a process that died (never renewed) holds the package only until it expires.
      await server.app.store.query(`insert into docs_vector_leases (slug, version, encoder, owner, lease_until)
        select 'pypi-fleet', '1.0.0', encoder, 'fleet-gone', now() + interval '1 second' from docs_vectors where slug = 'pypi-fleet'`);
      const c = new CountingEncoder(encoder);
      const third = createDocsSemantic(null, c, silent, vectors, { owner: 'fleet-a', lease });
      const started = Date.now();
      await ask(third, largePackage('pypi-fleet', N, '240@2'), question); // indexed again: the stored vectors are stale
      await third.close();
      assert.ok(c.passages >= N, `the package was embedded once the dead lease expired (${c.passages} passages)`);
      assert.ok(Date.now() - started >= 900, 'not before it expired');
      const [row] = await server.app.store.query<{ stamp: string }>("select stamp from docs_vectors where slug = 'pypi-fleet'");
      assert.equal(row?.stamp, '240@2');
    });

    it('are read, not embedded again, when the holder saves them and gives the lease up just before another process claims it', async () => {
      const encoder = await loadTransformerEmbedder(SHIPPED_ENCODER_DIR);
      const vectors = createPassageVectorStore(server.app.store);
      const question = 'sort the records of a table';
      const index = () => largePackage('pypi-example', PASSAGES.length * 30, '120@1');
      const holder = createDocsSemantic(null, new CountingEncoder(encoder), silent, vectors, { owner: 'race-holder' });
      await ask(holder, index(), question);
      await holder.close();
      const [saved] = await server.app.store.query<{ encoder: string; dimensions: number; vectors: Uint8Array }>(
        "select encoder, dimensions, vectors from docs_vectors where slug = 'pypi-example' and stamp = '120@1'");
      assert.ok(saved, 'the holder stored the vectors');
      await server.app.store.query("delete from docs_vectors where slug = 'pypi-example'");

      // The other process finds no vectors; in the moment before its claim the holder stores them and releases the lease.
      const racing: typeof vectors = { ...vectors, async claim(...args) {
        await server.app.store.query(`insert into docs_vectors (slug, version, encoder, stamp, dimensions, vectors)
          values ('pypi-example', '1.0.0', $1, '120@1', $2, $3)`, [saved.encoder, saved.dimensions, saved.vectors]);
        return vectors.claim(...args);
      } };
      const late = new CountingEncoder(encoder);
      const other = createDocsSemantic(null, late, silent, racing, { owner: 'race-late' });
      await ask(other, index(), question);
      await other.close();
      assert.ok(late.passages <= RERANK_DEPTH, `the late process read the stored vectors (it embedded ${late.passages})`);
      assert.equal((await server.app.store.query("select 1 from docs_vector_leases where slug = 'pypi-example'")).length, 0, 'and gave the lease back');
    });

    it('are removed with their version', async () => {
      await server.app.store.query(`delete from docs_versions where slug = 'pypi-example'`);
      assert.equal((await server.app.store.query("select 1 from docs_vectors where slug = 'pypi-example'")).length, 0);
    });
  });
}
