// A version just indexed is searched from the passages ingestion wrote (insertPassages' return), not read back from
// the store: the index built from them must be the one a read builds — text made storable (NUL, a lone surrogate),
// importance as the `real` column holds it, identifiers found in the text, ids — and a stale seed is never used.
// Real stores: PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';
import { createPackageIndexes } from '../../../src/docs/package-index.ts';
import { rankPassages } from '../../../src/docs/rank.ts';
import { claimIngestion, insertPassages } from '../../../src/docs/repository.ts';
import type { Queryable, Store } from '../../../src/store/index.ts';
import { freshStore, storeKinds } from '../../helpers/stores.ts';

const DRAFTS: PassageDraft[] = [
  { url: 'https://example.test/readme#usage', title: 'Usage', headings: ['Example', 'Usage'], source: 'README.md',
    content: 'Call `openStream(path)` and read with `Stream.read()`; it returns a Buffer.\nNUL here: a\u0000b, a cut emoji \uD83D.' },
  { url: 'https://example.test/api#openStream', title: 'openStream', headings: ['API', 'openStream'], source: 'index.d.ts',
    content: 'function openStream(path: string): Stream', symbol: 'openStream', identifiers: ['openStream', 'Stream'], importance: 0.35 },
  { url: 'https://example.test/api#Stream', title: 'Stream', headings: ['API', 'Stream'], source: 'index.d.ts',
    content: 'A readable stream of chunks.', symbol: 'Stream', importance: 0.123456789 },
  { url: 'https://example.test/api#Stream.read', title: 'read', headings: ['API', 'Stream', 'read'], source: 'index.d.ts',
    content: 'Reads the next chunk of the stream. Deprecated: use `readChunk`.', symbol: 'Stream.read', importance: 0.1, deprecated: true, internal: true },
];

/** Counts the statements that read a package's passages back. */
function counting(db: Queryable) {
  const counter = { reads: 0, query: ((sql: string, params?: never[]) => {
    if (/from docs_passages/.test(sql)) counter.reads++;
    return db.query(sql, params);
  }) as Queryable['query'] };
  return counter;
}

for (const kind of storeKinds()) describe(`the first question's index from the passages just stored (${kind})`, () => {
  let store: Store;
  let close: (() => Promise<void>) | undefined;
  before(async () => { ({ store, close } = await freshStore(kind)); });
  after(async () => { await close?.(); });

  it('is the index a read of the store builds, and answers the same', async () => {
    const slug = 'npm-example';
    assert.equal(await claimIngestion(store, slug, '1.0.0', 60, 1), true);
    const stored = await insertPassages(store, slug, '1.0.0', DRAFTS);

    const seededDb = counting(store);
    const seededIndexes = createPackageIndexes(seededDb);
    seededIndexes.seed(slug, '1.0.0', '4@1', stored);
    const seeded = await seededIndexes.get(slug, '1.0.0', '4@1');
    assert.equal(seededDb.reads, 0, 'the seed is used: nothing read back');

    const read = await createPackageIndexes(store).get(slug, '1.0.0', '4@1');
    assert.deepEqual(seeded.passages, read.passages);
    assert.equal(seeded.passages[0]!.content.includes('\uFFFD'), true, 'the text as the store made it');
    assert.deepEqual(seeded.links, read.links);
    for (const question of ['how do I read a stream', 'openStream', 'deprecated read chunk']) {
      const ranked = (index: typeof read) => rankPassages(index.passages, index.lexical, question, { limit: 3, identifiers: [] }).map((p) => [p.url, p.score]);
      assert.deepEqual(ranked(seeded), ranked(read), question);
    }
  });

  it('reads the store when the seed is of another stamp (passages added since)', async () => {
    const slug = 'npm-other';
    assert.equal(await claimIngestion(store, slug, '1.0.0', 60, 1), true);
    const stored = await insertPassages(store, slug, '1.0.0', DRAFTS.slice(0, 3));
    await insertPassages(store, slug, '1.0.0', DRAFTS.slice(3), 3); // a crawl's passages
    const db = counting(store);
    const indexes = createPackageIndexes(db);
    indexes.seed(slug, '1.0.0', '3@1', stored);
    const index = await indexes.get(slug, '1.0.0', '4@2');
    assert.equal(db.reads, 1);
    assert.equal(index.passages.length, 4);
  });
});
