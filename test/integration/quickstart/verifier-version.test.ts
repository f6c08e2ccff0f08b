// A verdict records the verifier that made it (VERIFIER_VERSION); one an older verifier made is verified again on its
// next request, on PGlite and PostgreSQL, while a current verdict and a pending row are left as they are.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../src/log.ts';
import { ToolDexError } from '../../../src/errors.ts';
import { createQuickstarts } from '../../../src/quickstart/index.ts';
import { claimVerification, finishVerification, requestVerification } from '../../../src/quickstart/repository.ts';
import { VERIFIER_VERSION } from '../../../src/quickstart/verify.ts';
import type { VerificationResult } from '../../../src/quickstart/types.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';

const verdict = (reason: string): VerificationResult => ({ verified: { status: 'ran', version: '1.0.0', reason }, quickstart: null, testRequest: null, tried: [] });

for (const kind of storeKinds()) {
  describe(`quickstart verifier version (${kind})`, () => {
    let server: TestServer;
    before(async () => { server = await startServer({ store: kind, config: { TOOLDEX_QUICKSTART_SWEEP_SECONDS: 0 } }); });
    after(async () => server?.close());

    it('stores the verifier with each verdict; a request resets only an older verdict to pending', async () => {
      const store = server.app.store;
      const key = { slug: 'npm-demo-verifier', version: '1.0.0', ecosystem: 'npm', name: 'demo-verifier' };
      assert.equal((await requestVerification(store, key)).verifier, 0);
      assert.ok(await claimVerification(store, key.slug, key.version, 'me', 60));
      await finishVerification(store, key.slug, key.version, 'me', 'ran', verdict('current'));
      const current = (await requestVerification(store, key));
      assert.deepEqual([current.status, current.verifier, current.result?.verified.reason], ['ran', VERIFIER_VERSION, 'current']);
      // A verdict an older verifier made (as every row from before the column has: 0).
      await store.query('update quickstart_verifications set verifier = $3 where slug = $1 and version = $2', [key.slug, key.version, VERIFIER_VERSION - 1]);
      const again = await requestVerification(store, key);
      assert.deepEqual([again.status, again.attempts, again.finishedAt, again.result?.verified.reason], ['pending', 0, null, 'current']);
      // Pending rows are not touched again (a lease under way keeps its attempts).
      assert.ok(await claimVerification(store, key.slug, key.version, 'me', 60));
      assert.equal((await requestVerification(store, key)).leaseActive, true);
    });

    it("the capability's request verifies an older verdict again", async () => {
      const store = server.app.store;
      const key = { slug: 'npm-demo-stale', version: '2.0.0', ecosystem: 'npm', name: 'demo-stale' };
      await requestVerification(store, key);
      assert.ok(await claimVerification(store, key.slug, key.version, 'me', 60));
      await finishVerification(store, key.slug, key.version, 'me', 'ran', verdict('old'));
      await store.query('update quickstart_verifications set verifier = 0 where slug = $1 and version = $2', [key.slug, key.version]);
      let resolved = 0;
      // A catalog that does not know the slug: the new verification ends at once, 'failed', by this verifier.
      const catalog = { resolve: async () => { resolved++; throw new ToolDexError('not_found', 404, 'no such tool'); } };
      const quickstarts = createQuickstarts({ config: { ...server.app.config, TOOLDEX_QUICKSTART_VERIFY: 'on' }, store, logger: createLogger('silent'), catalog, sandbox: server.app.sandbox });
      try {
        const row = await quickstarts.request(key, 5000);
        assert.equal(resolved, 1, 'a verification ran');
        assert.deepEqual([row.status, row.verifier], ['failed', VERIFIER_VERSION]);
        // Now current: asked again, it is answered from the store.
        assert.equal((await quickstarts.request(key, 5000)).status, 'failed');
        assert.equal(resolved, 1);
      } finally {
        await quickstarts.close();
      }
    });
  });
}
