// Package text with a NUL or a lone surrogate (an emoji cut by a code-unit slice, as in a Go module's emoji table)
// is stored through the real repositories on PGlite and PostgreSQL, read back with U+FFFD in its place.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, it } from 'node:test';
import { getVersion, insertPassages, markFailed, markReady, claimIngestion, allPassages } from '../../../src/docs/repository.ts';
import { claimVerification, finishVerification, getVerification, requestVerification, retryLater } from '../../../src/quickstart/repository.ts';
import type { VerificationResult } from '../../../src/quickstart/types.ts';
import { openStore, type Store } from '../../../src/store/index.ts';
import { freshHome, freshPostgresUrl, storeKinds } from '../../helpers/stores.ts';

const shark = '\u{1F988}';
const cut = shark.slice(0, 1);

for (const kind of storeKinds()) {
  describe(`unstorable characters in package text (${kind})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    async function open(): Promise<Store> {
      if (kind === 'pglite') {
        const home = await freshHome();
        const store = await openStore({ TOOLDEX_HOME: home });
        cleanups.push(async () => {
          await store.close();
          fs.rmSync(home, { recursive: true, force: true });
        });
        return store;
      }
      const db = await freshPostgresUrl();
      const store = await openStore({ DATABASE_URL: db.url, TOOLDEX_HOME: '/nonexistent' });
      cleanups.push(async () => {
        await store.close();
        await db.drop();
      });
      return store;
    }

    it('stores passages, facts and errors holding NUL and lone surrogates', async () => {
      const store = await open();
      const slug = 'go-example.com__emoji';
      assert.equal(await claimIngestion(store, slug, 'v1.0.0', 60, 1), true);
      const content = `Emoji table: "${shark}", "${cut} …\nNUL: a\u0000b`;
      await insertPassages(store, slug, 'v1.0.0', [
        { url: 'https://example.com/#Emoji', title: `Emoji ${cut}`, headings: [`h\u0000`], content, source: 'data/emoji.go', identifiers: [`id${cut}`] },
        { url: 'https://example.com/#Other', title: 'Other', headings: [], content: `plain ${shark}`, source: 'other.go' },
      ]);
      await markReady(store, slug, 'v1.0.0', { docsUrl: 'https://example.com/\u0000docs', facts: { note: `x\u0000${cut}` }, siteStatus: 'none', extractor: 1 });
      const passages = await allPassages(store, slug, 'v1.0.0');
      assert.equal(passages.length, 2);
      const emoji = passages.find((p) => p.source === 'data/emoji.go')!;
      assert.equal(emoji.content, `Emoji table: "${shark}", "\uFFFD …\nNUL: a\uFFFDb`);
      assert.equal(emoji.title, 'Emoji \uFFFD');
      assert.deepEqual(emoji.headings, ['h\uFFFD']);
      assert.equal(passages.find((p) => p.source === 'other.go')!.content, `plain ${shark}`);
      const version = await getVersion(store, slug, 'v1.0.0');
      assert.equal(version?.status, 'ready');
      assert.deepEqual(version?.facts, { note: 'x\uFFFD\uFFFD' });
      assert.equal(version?.docsUrl, 'https://example.com/\uFFFDdocs'); // a text column: NUL refused there too

      await markFailed(store, slug, 'v1.0.0', `extractor said a\u0000b ${cut}`);
      assert.equal((await getVersion(store, slug, 'v1.0.0'))?.error, 'extractor said a\uFFFDb \uFFFD');
    });

    it('stores a quickstart verdict and a retry error quoting program output with NUL and a cut emoji', async () => {
      const store = await open();
      const key = { slug: 'go-example.com__out', version: 'v1.0.0', ecosystem: 'go', name: 'example.com/out' };
      await requestVerification(store, key);
      assert.ok(await claimVerification(store, key.slug, key.version, 'me', 60));
      await retryLater(store, key.slug, key.version, 'me', `sandbox said a\u0000b ${cut}`, 0);
      assert.equal((await getVerification(store, key.slug, key.version))?.error, 'sandbox said a\uFFFDb \uFFFD');
      assert.ok(await claimVerification(store, key.slug, key.version, 'me', 60));
      const result: VerificationResult = { verified: { status: 'ran', version: 'v1.0.0', reason: `printed a\u0000 ${cut}` }, quickstart: null, testRequest: null, tried: [] };
      await finishVerification(store, key.slug, key.version, 'me', 'ran', result);
      assert.equal((await getVerification(store, key.slug, key.version))?.result?.verified.reason, 'printed a\uFFFD \uFFFD');
    });

    it('without the boundary the database refuses the same JSON (the test can fail)', async () => {
      const store = await open();
      const raw = JSON.stringify([`${cut}`]);
      // Bypass the sanitiser by hiding the cast from it: the database still reads the parameter as jsonb.
      await assert.rejects(store.query('select ($1 || \'\')::jsonb as v', [raw]), /json|surrogate|unicode/i);
    });
  });
}
