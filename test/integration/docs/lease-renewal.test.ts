// A version's ingestion lease is renewed while its ingestion runs (src/docs/lease.ts): an extraction or a held store
// write that outlives the lease's length keeps the version, instead of another instance taking it over and this one's
// finished work being refused; renewing stops when the ingestion ends or fails. Real stores (PGlite, and PostgreSQL
// when TEST_DATABASE_URL is set), a fake npm registry on loopback, a lease of 1.5 s renewed every 0.3 s.
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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LEASE = { seconds: 1.5, renewEveryMs: 300 };

for (const kind of storeKinds()) describe(`an ingestion that outlives its lease's length (${kind})`, () => {
  let registry: FakeRegistry;
  let store: Store;
  let close: () => Promise<void>;
  const names = ['fx-renew-kept', 'fx-renew-failed'];

  before(async () => {
    registry = await startFakeRegistry(names.map((name) => ({ name, versions: { '1.0.0': goodPackage(name, '1.0.0') } })));
    ({ store, close } = await freshStore(kind));
  });
  after(async () => {
    await close?.();
    await registry?.close();
  });

  /** One instance's ingestor, whose store writes wait for `answered`; `db` may wrap the shared store. */
  const instance = (answered: () => Promise<void>, db: Store, lease?: typeof LEASE) => {
    const config = loadConfig({ LOG_LEVEL: 'silent', TOOLDEX_NPM_REGISTRY: registry.url, TOOLDEX_DOCS_SITES: 'off', TOOLDEX_SEMANTIC: 'off' }, {});
    const logger = createLogger('silent');
    return createIngestor({ config, store: db, logger, scheduler: new IngestScheduler({ config, store: db, logger }),
      track: (work) => { void work.catch(() => undefined); }, answered, lease });
  };

  /** The shared store, counting the lease renewals sent through it. */
  const counting = (base: Store, extra: Partial<Store> = {}) => {
    const seen = { renewals: 0 };
    const db: Store = { ...base, query: (sql, params) => {
      if (/update docs_versions set lease_until = now\(\) \+/.test(sql)) seen.renewals++;
      return base.query(sql, params);
    }, ...extra };
    return { db, seen };
  };

  const leaseOf = async (slug: string) => (await store.query<{ lease: string | null }>(
    'select lease_until::text as lease from docs_versions where slug = $1', [slug]))[0]?.lease;

  it('keeps the version: another instance waits for it instead of taking it over, and its write lands', async () => {
    const slug = 'npm-fx-renew-kept';
    const held = gate();
    const { db, seen } = counting(store);
    const a = instance(held.wait, db, LEASE);
    const mine = await a.ensureIndexed(tool('fx-renew-kept'), '1.0.0');
    assert.equal(mine.status, 'ready', 'A answers from memory, its write held');
    await sleep(2500); // longer than the 1.5 s lease
    assert.equal((await getVersion(store, slug, '1.0.0'))?.leaseActive, true, 'the lease is still live after its length');
    assert.ok(seen.renewals >= 3, `renewed while the write waited (${seen.renewals})`);

    const b = instance(() => Promise.resolve(), store);
    const theirs = b.ensureIndexed(tool('fx-renew-kept'), '1.0.0');
    await sleep(500);
    held.open();
    const answer = await theirs;
    assert.equal(answer.indexedAt?.getTime(), mine.indexedAt?.getTime(), 'B is answered with A\'s version, not one of its own');
    await a.written();
    const row = await getVersion(store, slug, '1.0.0');
    assert.equal(row?.status, 'ready');
    assert.equal(row?.indexedAt?.getTime(), mine.indexedAt?.getTime(), 'A\'s write landed');
    assert.equal(row?.passages, mine.passages);
    assert.equal(await leaseOf(slug), null, 'the write ended the lease');

    const renewals = seen.renewals;
    await sleep(1000);
    assert.equal(seen.renewals, renewals, 'no renewal after the ingestion ended');
  });

  it('a write that fails after renewals marks the version failed under the renewed lease, and renewing stops', async () => {
    const slug = 'npm-fx-renew-failed';
    const held = gate();
    const { db, seen } = counting(store, { transaction: () => Promise.reject(new Error('disk full')) });
    const a = instance(held.wait, db, LEASE);
    assert.equal((await a.ensureIndexed(tool('fx-renew-failed'), '1.0.0')).status, 'ready');
    const claimed = await leaseOf(slug);
    await sleep(1000);
    assert.ok(seen.renewals >= 2);
    assert.notEqual(await leaseOf(slug), claimed, 'the lease was renewed: its name changed');
    held.open();
    await a.written();
    const row = await getVersion(store, slug, '1.0.0');
    assert.equal(row?.status, 'failed', 'marked failed (not left indexing): the mark used the renewed lease');
    assert.match(row?.error ?? '', /disk full/);
    assert.equal(row?.leaseActive, false);

    const renewals = seen.renewals;
    await sleep(1000);
    assert.equal(seen.renewals, renewals, 'no renewal after the ingestion failed');
  });
});
