// A version's first question is answered from the passages in memory, before they are written to the store (storing
// was seconds of the first question on a large package): the answer comes while the write is held back, the version is
// durable once it ends — the same passages after a restart, with no second download — and a write that
// fails leaves no half version: nothing answers from the store until the version is indexed again.
// Real stores (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), a fake npm registry on loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createApp, type App } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { getVersion, passageCount } from '../../../src/docs/repository.ts';
import { createLogger } from '../../../src/log.ts';
import type { Store } from '../../../src/store/index.ts';
import type { TestServer } from '../../helpers/server.ts';
import { freshHome, freshPostgresUrl, storeKinds } from '../../helpers/stores.ts';
import { addTools } from './catalog-fixture.ts';
import { goodPackage, startFakeRegistry, type FakeRegistry } from './fixtures.ts';

const tarballHits = (registry: FakeRegistry, name: string) =>
  [...registry.hits].filter(([path]) => path.startsWith(`/${name}/-/`)).reduce((n, [, count]) => n + count, 0);

/** Holds every transaction of `store` until `open()` (the version's store write is the only one docs make). */
function holdWrites(store: Store, fail = false) {
  const real = store.transaction.bind(store);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  store.transaction = (async (work: Parameters<Store['transaction']>[0]) => {
    await gate;
    // A write that dies half-way (the process killed mid-store): the passages are in, the transaction is not committed.
    return real(fail ? async (tx) => { await work(tx); throw new Error('killed mid-store'); } : work);
  }) as Store['transaction'];
  return { open };
}

const within = <T>(work: Promise<T>, ms: number) => Promise.race([work,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

for (const kind of storeKinds()) describe(`a first question answered before its store write (${kind})`, () => {
  let registry: FakeRegistry;
  let home: string;
  let postgres: { url: string; drop(): Promise<void> } | undefined;
  let app: App | undefined;
  const names = ['fx-durable', 'fx-torn'];

  const start = async () => {
    const config = loadConfig({
      TOOLDEX_HOME: home, LOG_LEVEL: 'silent', DATABASE_URL: postgres?.url, TOOLDEX_NPM_REGISTRY: registry.url,
      TOOLDEX_DOCS_SITES: 'off', TOOLDEX_SEMANTIC: 'off', TOOLDEX_QUICKSTART_VERIFY: 'off', TOOLDEX_FETCH_TIMEOUT_MS: 3000,
    }, {});
    app = await createApp(config, createLogger('silent'));
    await addTools({ app } as TestServer, names.map((name) => ({ slug: `npm-${name}`, ecosystem: 'npm' as const, name })));
    return app;
  };

  before(async () => {
    registry = await startFakeRegistry(names.map((name) => ({ name, versions: { '1.0.0': goodPackage(name, '1.0.0') } })));
    home = await freshHome();
    postgres = kind === 'postgres' ? await freshPostgresUrl() : undefined;
  });
  after(async () => {
    await app?.close();
    await postgres?.drop();
    await registry?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('answers while the write is held, and the version is durable after it, across a restart', async () => {
    const first = await start();
    const writes = holdWrites(first.store);
    const answer = await within(first.docs.search('npm-fx-durable', 'frobnicate widgets'), 15_000);
    assert.ok(answer.results.length > 0, 'answered from the passages in memory');
    const held = await getVersion(first.store, 'npm-fx-durable', '1.0.0');
    assert.equal(held?.status, 'indexing', 'not ready in the store while its write is held');
    assert.equal(await passageCount(first.store, 'npm-fx-durable', '1.0.0'), 0);
    const again = await within(first.docs.search('npm-fx-durable', 'frobnicate widgets'), 5000);
    assert.deepEqual(again.results, answer.results, 'a later question of this process is served from memory meanwhile');

    writes.open();
    await first.close(); // waits for the write
    app = undefined;

    const restarted = await start();
    const row = await getVersion(restarted.store, 'npm-fx-durable', '1.0.0');
    assert.equal(row?.status, 'ready');
    assert.equal(row?.passages, await passageCount(restarted.store, 'npm-fx-durable', '1.0.0'));
    const after = await restarted.docs.search('npm-fx-durable', 'frobnicate widgets');
    assert.deepEqual(after.results, answer.results, 'the same passages, read back from the store');
    assert.equal(tarballHits(registry, 'fx-durable'), 1, 'downloaded once: the restart found the version stored');
    await restarted.close();
    app = undefined;
  });

  it('leaves no half version when the write dies, and indexes it again on the next question', async () => {
    const first = await start();
    const writes = holdWrites(first.store, true);
    const answer = await within(first.docs.search('npm-fx-torn', 'frobnicate widgets'), 15_000);
    assert.ok(answer.results.length > 0);
    writes.open();
    await first.docs.idle();
    await first.close();
    app = undefined;

    const restarted = await start();
    const row = await getVersion(restarted.store, 'npm-fx-torn', '1.0.0');
    assert.notEqual(row?.status, 'ready', 'a version whose write died is not ready');
    assert.equal(await passageCount(restarted.store, 'npm-fx-torn', '1.0.0'), 0, 'and has no passages');
    const after = await restarted.docs.search('npm-fx-torn', 'frobnicate widgets');
    assert.deepEqual(after.results.map((p) => p.url), answer.results.map((p) => p.url), 'indexed again: the same answer');
    assert.equal(tarballHits(registry, 'fx-torn'), 2);
    const deadline = Date.now() + 15_000; // written after the answer
    while ((await getVersion(restarted.store, 'npm-fx-torn', '1.0.0'))?.status !== 'ready' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal((await getVersion(restarted.store, 'npm-fx-torn', '1.0.0'))?.status, 'ready');
    await restarted.close();
    app = undefined;
  });
});
