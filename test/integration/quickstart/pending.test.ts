// Pending is explicit, on a real store with the real sandbox and registry: while a verification runs, its row holds
// the preview a pending context offers (labelled unverified), and the verdict replaces it. Its own server: run after
// the outage test of state.test.ts (same store and owner), the released run waited past two minutes on this machine.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withVerification } from '../../../src/docs/context.ts';
import type { ToolContext } from '../../../src/docs/schema.ts';
import { createQuickstarts } from '../../../src/quickstart/index.ts';
import { getVerification } from '../../../src/quickstart/repository.ts';
import type { TestServer } from '../../helpers/server.ts';
import { startSandboxServer } from '../sandbox/helpers.ts';

describe('a pending verification', () => {
  let server: TestServer;
  before(async () => {
    server = await startSandboxServer({ TOOLDEX_QUICKSTART_SWEEP_SECONDS: 0, TOOLDEX_QUICKSTART_NETWORK_EXAMPLES: 'never' });
  });
  after(async () => server?.close());

    it('while it runs, the row holds a preview a pending context offers as unverified; the verdict replaces it', async () => {
      const key = { slug: 'npm-is-number', version: '4.0.0', ecosystem: 'npm', name: 'is-number' };
      let release!: () => void;
      const gate = new Promise<void>((resolve) => { release = resolve; });
      let started!: () => void;
      const firstRun = new Promise<void>((resolve) => { started = resolve; });
      // The real sandbox, held back until the preview has been read.
      const gated = {
        run: async (...args: Parameters<typeof server.app.sandbox.run>) => { started(); await gate; return server.app.sandbox.run(...args); },
        toolchains: () => server.app.sandbox.toolchains(),
      };
      const quickstarts = createQuickstarts({ config: server.app.config, store: server.app.store, logger: server.app.logger, catalog: server.app.catalog, sandbox: gated });
      try {
        const answered = Date.now();
        const early = await quickstarts.request(key, 300);
        assert.equal(early.status, 'pending');
        assert.ok(Date.now() - answered < 5000, 'a pending answer waits its budget, not the verification');
        await Promise.race([firstRun, new Promise((resolve) => setTimeout(resolve, 90_000).unref())]);
        const row = (await getVerification(server.app.store, key.slug, key.version))!;
        assert.equal(row.status, 'pending', JSON.stringify(row));
        assert.match(row.result?.quickstart?.code ?? '', /isNumber\(/);
        const context = withVerification(contextOf(key), row, { waitedMs: 300 });
        assert.equal(context.quickstart?.verified?.offer, 'unverified');
        assert.deepEqual((context.testRequest as { packages: string[] }).packages, ['is-number@4.0.0']);
        release();
        const final = await quickstarts.verifyNow(key, 120_000);
        assert.equal(final.status, 'ran', JSON.stringify(final.result?.verified));
        assert.equal(withVerification(contextOf(key), final).quickstart?.verified?.offer, 'verified');
      } finally {
        release();
        await quickstarts.close();
      }
    });
});

function contextOf(key: { slug: string; version: string; ecosystem: string; name: string }): ToolContext {
  return {
    slug: key.slug, name: key.name, ecosystem: key.ecosystem as ToolContext['ecosystem'], version: key.version, latestVersion: key.version, description: '', license: null,
    links: { docs: null, repository: null, homepage: null, registry: '' }, install: [], imports: [], quickstart: null, entryPoints: [], typesIncluded: null,
    requirements: {}, testRequest: null,
  };
}
