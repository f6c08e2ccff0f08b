// Work of a first question that stays on the event loop yields it in pieces, so other requests are served meanwhile:
// a large tar is parsed a megabyte per turn (src/docs/archive.ts readTar), and a version's passages are written one
// 100-row statement per turn (src/docs/repository.ts writePassages; PGlite runs a statement on the loop and settles it
// without returning to it). Each case counts the turns the loop made while the work ran: without the pieces, none.
// Real stores: PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, readTar } from '../../../src/docs/archive.ts';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';
import { claimIngestion, insertPassages, allPassages } from '../../../src/docs/repository.ts';
import type { Store } from '../../../src/store/index.ts';
import { makeTar } from '../../integration/docs/fixtures.ts';
import { freshStore, storeKinds } from '../../helpers/stores.ts';

/** Runs `work`, counting the turns of the event loop (setImmediate callbacks) made before it ended. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0, running = true;
  const turn = () => { if (running) { turns++; setImmediate(turn); } };
  setImmediate(turn);
  try {
    const result = await work();
    return { result, turns };
  } finally {
    running = false;
  }
}

describe('a large tar is read a piece per turn of the event loop', () => {
  it('reads every file, in order, while the loop turns', async () => {
    const entries = Array.from({ length: 48 }, (_, i) => ({ name: `package/src/file${i}.txt`, body: `${i}:`.padEnd(200_000, String.fromCharCode(97 + (i % 26))) }));
    const tar = makeTar(entries); // not gzipped: no asynchronous step before the parse
    assert.ok(tar.byteLength > 8 * (1 << 20));
    const { result, turns } = await turnsDuring(() => readTar(tar, { ...DEFAULT_LIMITS, keep: () => true }));
    assert.deepEqual(result.files.map((f) => f.path), entries.map((e) => e.name));
    assert.deepEqual(result.files.map((f) => Buffer.from(f.bytes).toString()), entries.map((e) => e.body));
    assert.ok(turns >= 7, `the loop turned ${turns} times during an 8 MB parse`);
  });
});

for (const kind of storeKinds()) describe(`a version's passages written a statement per turn of the event loop (${kind})`, () => {
  let store: Store;
  let close: (() => Promise<void>) | undefined;
  before(async () => { ({ store, close } = await freshStore(kind)); });
  after(async () => { await close?.(); });

  it('writes every passage while the loop turns', async () => {
    const drafts: PassageDraft[] = Array.from({ length: 800 }, (_, i) => ({
      url: `https://example.test/api#item${i}`, title: `item${i}`, headings: ['API', `item${i}`], source: 'index.d.ts',
      content: `item${i}(value: string): number — counts the value ${i} times.`, symbol: `item${i}`, importance: 0.5,
    }));
    assert.equal(await claimIngestion(store, 'npm-turns', '1.0.0', 60, 1), true);
    const { result: stored, turns } = await turnsDuring(() => store.transaction((tx) => insertPassages(tx, 'npm-turns', '1.0.0', drafts)));
    assert.equal(stored.length, 800);
    assert.deepEqual((await allPassages(store, 'npm-turns', '1.0.0')).map((p) => p.title), drafts.map((d) => d.title));
    assert.ok(turns >= 7, `the loop turned ${turns} times during 8 statements`);
  });
});
