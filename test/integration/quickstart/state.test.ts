// Verification state in the store, on PGlite and PostgreSQL: one verification per version across instances (the claim
// row), new versions queued by the sweep, and a sandbox outage retried with backoff to a final state, never pending forever.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import { createQuickstarts } from '../../../src/quickstart/index.ts';
import { getVerification } from '../../../src/quickstart/repository.ts';
import { createSandbox } from '../../../src/sandbox/index.ts';
import type { TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';
import { startSandboxServer } from '../sandbox/helpers.ts';

for (const store of storeKinds()) {
  describe(`quickstart verification state (${store})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startSandboxServer({ TOOLDEX_QUICKSTART_SWEEP_SECONDS: 0, TOOLDEX_QUICKSTART_NETWORK_EXAMPLES: 'never' }, store);
    });
    after(async () => server?.close());

    it('two instances asked for the same version at once verify it once', async () => {
      const key = { slug: 'npm-is-number', version: '6.0.0', ecosystem: 'npm', name: 'is-number' };
      let runs = 0;
      const counting = { run: (...args: Parameters<typeof server.app.sandbox.run>) => { runs++; return server.app.sandbox.run(...args); }, toolchains: () => server.app.sandbox.toolchains() };
      const deps = { config: server.app.config, store: server.app.store, logger: server.app.logger, catalog: server.app.catalog, sandbox: counting };
      const [a, b] = [createQuickstarts(deps), createQuickstarts(deps)];
      try {
        const [one, two] = await Promise.all([a.verifyNow(key), b.verifyNow(key)]);
        assert.equal(one.status, 'ran', JSON.stringify(one.result?.verified));
        assert.deepEqual(two.result, one.result);
        assert.equal(one.attempts, 1);
        assert.equal(runs, one.result!.tried.length, 'every sandbox run belongs to the one verification');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('a newly indexed version of a verified tool is queued by the sweep; a sandbox outage there is retried with backoff, then final', async () => {
      const config = loadConfig({ ...server.app.config, TOOLDEX_BWRAP: '/nonexistent/bwrap', TOOLDEX_QUICKSTART_RETRY_MS: 100, TOOLDEX_QUICKSTART_ATTEMPTS: 3, TOOLDEX_QUICKSTART_SWEEP_SECONDS: 1 }, {});
      const logger = createLogger('silent');
      const broken = createSandbox(config, server.app.store, logger);
      const quickstarts = createQuickstarts({ config, store: server.app.store, logger, catalog: server.app.catalog, sandbox: broken });
      const key = { slug: 'npm-is-number', version: '7.0.0', ecosystem: 'npm', name: 'is-number' };
      try {
        // The docs capability indexed 7.0.0 as the new latest (is-number 6.0.0 was verified by the test above).
        await server.app.store.query(`insert into docs_releases (slug, latest, versions) values ('npm-is-number', '7.0.0', '["6.0.0","7.0.0"]'::jsonb)
          on conflict (slug) do update set latest = excluded.latest`);
        await server.app.store.query(`insert into docs_versions (slug, version, status, indexed_at) values ('npm-is-number', '7.0.0', 'ready', now())
          on conflict (slug, version) do update set status = 'ready'`);
        assert.equal(await getVerification(server.app.store, key.slug, key.version), undefined);
        await quickstarts.sweep();
        const queued = await getVerification(server.app.store, key.slug, key.version);
        assert.ok(queued, 'the sweep queued the new version');
        const deadline = Date.now() + 60_000;
        let row = queued;
        let sawRetry = false;
        while (row.status === 'pending' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          row = await quickstarts.request(key);
          if (row.status === 'pending' && /^sandbox_unavailable: /.test(row.error ?? '')) sawRetry = true;
        }
        assert.ok(sawRetry, 'it was pending with the fault between attempts');
        assert.equal(row.status, 'unverifiable');
        assert.equal(row.attempts, 3);
        assert.match(row.result?.verified.reason ?? '', /^gave up after 3 attempt\(s\): sandbox_unavailable: /);
      } finally {
        await quickstarts.close();
        await broken.close();
      }
    });

  });
}
