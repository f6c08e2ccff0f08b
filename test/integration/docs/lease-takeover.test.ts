// An ingestion whose extraction outlives its lease (120 s) may be taken over by another instance (several servers over
// one PostgreSQL). Its store write then must not land over the other's version: the write is made only while the lease
// is still the one it claimed. Two ingestors (two instances) over one real store (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), a fake npm registry on loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config.ts';
import type { ToolRecord } from '../../../src/catalog/index.ts';
import { createIngestor } from '../../../src/docs/ingest.ts';
import { IngestScheduler } from '../../../src/docs/ingest-scheduler.ts';
import { getVersion } from '../../../src/docs/repository.ts';
import { createLogger } from '../../../src/log.ts';
import type { Store } from '../../../src/store/index.ts';
import { freshStore, storeKinds } from '../../helpers/stores.ts';
import { goodPackage, startFakeRegistry, type FakeRegistry } from './fixtures.ts';
import { gate } from '../../helpers/gate.ts';

const tool = (name: string) => ({ slug: `npm-${name}`, ecosystem: 'npm', name, docsUrl: null, homepage: null, repository: null }) as unknown as ToolRecord;

for (const kind of storeKinds()) describe(`an ingestion whose lease was taken over (${kind})`, () => {
  let registry: FakeRegistry;
  let store: Store;
  let close: () => Promise<void>;
  const names = ['fx-lease-after', 'fx-lease-beside'];

  before(async () => {
    registry = await startFakeRegistry(names.map((name) => ({ name, versions: { '1.0.0': goodPackage(name, '1.0.0') } })));
    ({ store, close } = await freshStore(kind));
  });
  after(async () => {
    await close?.();
    await registry?.close();
  });

  /** One instance's ingestor, whose store writes wait for `answered` (the first answers, in the server). */
  const instance = (answered: () => Promise<void>, db: Store) => {
    const config = loadConfig({ LOG_LEVEL: 'silent', TOOLDEX_NPM_REGISTRY: registry.url, TOOLDEX_DOCS_SITES: 'off', TOOLDEX_SEMANTIC: 'off' }, {});
    const logger = createLogger('silent');
    const background: Promise<unknown>[] = [];
    const ingestor = createIngestor({ config, store: db, logger, scheduler: new IngestScheduler({ config, store: db, logger }),
      track: (work) => { background.push(work.catch(() => undefined)); }, answered });
    return ingestor;
  };

  /** Instance A claims and extracts, its write held; its lease runs out; B takes the version over and answers. */
  async function takeOver(name: string, storeOfA: Store = store, storeOfB: Store = store) {
    const first = gate();
    const second = gate();
    const a = instance(first.wait, storeOfA);
    const b = instance(second.wait, storeOfB);
    const mine = await a.ensureIndexed(tool(name), '1.0.0');
    assert.equal(mine.status, 'ready', 'A answers from memory');
    // A's extraction outlived its lease (120 s): the lease's end is moved to the past instead of waiting for it.
    await store.query("update docs_versions set lease_until = now() - interval '1 second' where slug = $1", [`npm-${name}`]);
    const theirs = await b.ensureIndexed(tool(name), '1.0.0');
    assert.equal(theirs.status, 'ready', 'B took the expired lease and answers from memory');
    assert.notEqual(theirs.indexedAt?.getTime(), mine.indexedAt?.getTime());
    return { a, b, first, second, theirs };
  }

  const stored = async (name: string) => ({
    row: await getVersion(store, `npm-${name}`, '1.0.0'),
    ids: (await store.query<{ id: string; ord: number }>('select id::text, ord from docs_passages where slug = $1 order by ord, id', [`npm-${name}`])),
  });

  it('a write that comes after the other instance\'s leaves that version as it was', async () => {
    const { a, b, first, second, theirs } = await takeOver('fx-lease-after');
    second.open();
    await b.written();
    const before = await stored('fx-lease-after');
    assert.equal(before.row?.status, 'ready');
    assert.ok(before.ids.length > 0);

    first.open();
    await a.written(); // A's write: refused, since its lease is no longer the row's
    const now = await stored('fx-lease-after');
    assert.equal(now.row?.status, 'ready', 'not marked failed by the instance that lost its lease');
    assert.equal(now.row?.indexedAt?.getTime(), theirs.indexedAt?.getTime(), 'the stamp B answered with (its package index stays valid)');
    assert.deepEqual(now.ids, before.ids, 'B\'s passages, not replaced by A\'s');
  });

  // Two transactions at once (PostgreSQL: one connection each; PGlite runs one transaction at a time): A's write is
  // held before its commit until B's write has inserted its passages, so neither delete sees the other's rows.
  it('a write beside the other instance\'s leaves one copy of the passages', { skip: kind !== 'postgres' && 'PGlite runs one transaction at a time' }, async () => {
    const inserted = gate();
    const storeOfB: Store = { ...store, transaction: (work) => store.transaction((tx) => work({
      query: async (sql, params) => {
        const rows = await tx.query(sql, params);
        if (sql.includes('insert into docs_passages')) inserted.open();
        return rows as never;
      },
    })) };
    const storeOfA: Store = { ...store, transaction: (work) => store.transaction(async (tx) => {
      const result = await work(tx);
      await Promise.race([inserted.wait(), new Promise((resolve) => setTimeout(resolve, 5000))]); // commit after B's inserts
      return result;
    }) };
    const { a, b, first, second, theirs } = await takeOver('fx-lease-beside', storeOfA, storeOfB);
    first.open();
    await new Promise((resolve) => setTimeout(resolve, 300)); // A's write first
    second.open();
    await Promise.all([a.written(), b.written()]);
    const now = await stored('fx-lease-beside');
    assert.equal(now.row?.status, 'ready');
    assert.equal(now.row?.indexedAt?.getTime(), theirs.indexedAt?.getTime(), 'B\'s version, which holds the lease');
    assert.equal(new Set(now.ids.map(({ ord }) => ord)).size, now.ids.length, 'no passage stored twice');
  });
});
