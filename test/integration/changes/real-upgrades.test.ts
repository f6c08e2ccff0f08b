// GET /tools/changes against the real registries (issue 23): six upgrades people make, each answer checked by hand
// once (2026-11-27) and asserted here on its key facts. Large packages answer 503 while they index in the background;
// the client asks again, as an agent would.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ChangesResult } from '../../../src/changes/index.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';

async function changes(server: TestServer, slug: string, query: Record<string, string>): Promise<{ status: number; body: ChangesResult & { error?: { code: string; message: string; versions?: string[] } } }> {
  const url = `${server.url}/tools/changes/${encodeURIComponent(slug)}?${new URLSearchParams(query)}`;
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url);
    if (response.status !== 503 || attempt >= 30) return { status: response.status, body: await response.json() as never };
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

const symbols = (list: { symbol: string }[]) => list.map((c) => c.symbol);

describe('what changed, on real upgrades', () => {
  let server: TestServer;
  before(async () => { server = await startServer(); });
  after(() => server.close());

  it('axios 0.27 → 1.x: typed changes with both declarations, the changelog of the range, a question', async () => {
    const { status, body } = await changes(server, 'npm-axios', { from: '0.27.2', to: '1.7.9', q: 'error status code type', maxTokens: '8000' });
    assert.equal(status, 200);
    assert.deepEqual([body.from.version, body.to.version], ['0.27.2', '1.7.9']);
    const statusField = body.signature.find((c) => c.symbol === 'axios.AxiosError.status');
    assert.ok(statusField, 'AxiosError.status changed type');
    assert.match(statusField.from!.signature!, /status\?: string/);
    assert.match(statusField.to!.signature!, /status\?: number/);
    assert.equal(body.counts.removed, 0, 'no member of 0.27 is gone in 1.7 (members folded into their interface are compared one by one)');
    assert.ok(body.counts.added > 0);
    assert.ok(body.counts.notes > 0, 'CHANGELOG.md sections of 1.0.0 … 1.7.9');
    assert.ok(body.answers!.some((a) => a.kind === 'change' && a.change.symbol.startsWith('axios.AxiosError')), 'the question finds AxiosError');
    assert.ok(body.budget.usedTokens <= 8000);
  });

  it('zod 3.23.8 → 4.0.0: the v3 API moved to zod/v3, .nonempty() found by a question', async () => {
    const { status, body } = await changes(server, 'zod', { from: '3.23.8', to: '4.0.0', q: 'what replaced nonempty', maxTokens: '16000' });
    assert.equal(status, 200);
    assert.ok(body.counts.moved > 100, `zod 4 keeps the v3 API under zod/v3 (${body.counts.moved} moved)`);
    const top = body.answers!.slice(0, 5).flatMap((a) => (a.kind === 'change' ? [a.change] : []));
    assert.ok(top.some((c) => c.kind === 'moved' && c.movedFrom === 'zod.ZodString.nonempty' && c.symbol === 'zod/v3.ZodString.nonempty'),
      `the question finds ZodString.nonempty, moved to zod/v3: ${top.map((c) => c.symbol).join(', ')}`);
    assert.ok(body.counts.added > 500, 'zod 4\'s new API (core, mini)');
  });

  it('pydantic 1.10 → 2.x: the v1 API moved to pydantic.v1, HISTORY.md of the 2.x releases', async () => {
    const { status, body } = await changes(server, 'pypi:pydantic', { from: '1.10.18', to: '2.10.6', q: 'BaseSettings', maxTokens: '32000' });
    assert.equal(status, 200);
    // pydantic 2 ships the whole v1 API under pydantic.v1: its items moved there, BaseSettings among them.
    assert.ok(body.counts.moved > 80, `${body.counts.moved} moved`);
    assert.ok(body.answers!.some((a) => a.kind === 'change' && a.change.movedFrom === 'pydantic.BaseSettings' && a.change.symbol === 'pydantic.v1.BaseSettings'));
    assert.ok(body.counts.notes > 50, 'HISTORY.md sections after 1.10.18 up to 2.10.6');
    assert.ok(body.notes.every((n) => n.release === null || !/^1\./.test(n.release)), 'no 1.x section');
  });

  it('SQLAlchemy 1.4 → 2.0: the 2.0 migration guide among the notes', async () => {
    const { status, body } = await changes(server, 'pypi:sqlalchemy', { from: '1.4.54', to: '2.0.36', q: 'session query select', maxTokens: '16000' });
    assert.equal(status, 200);
    assert.ok(body.counts.notes > 100, `changelog_14/20 and migration_20 sections (${body.counts.notes})`);
    assert.ok(body.answers!.length > 0);
  });

  it('clap 3 → 4: App is gone (renamed Command)', async () => {
    const { status, body } = await changes(server, 'crates:clap', { from: '3.2.25', to: '4.0.32', maxTokens: '32000' });
    assert.equal(status, 200);
    assert.ok(symbols(body.removed).includes('clap::builder::App'), 'clap 4 removed App');
    assert.ok(body.counts.unchanged > 50);
  });

  it('a Go module across a major (chi → chi/v5): compared by package, not module path', async () => {
    const { status, body } = await changes(server, 'go:github.com/go-chi/chi/v5', { from: 'github.com/go-chi/chi@v1.5.5', to: 'v5.1.0', maxTokens: '16000' });
    assert.equal(status, 200);
    assert.deepEqual([body.from.slug, body.to.slug], ['go-github.com__go-chi__chi', 'go-github.com__go-chi__chi__v5']);
    assert.ok(body.counts.unchanged > 80, 'most of chi is the same API at the new path');
    assert.equal(body.counts.removed, 0, 'nothing is removed by the move itself');
    const handler = body.signature.find((c) => c.symbol === 'chi.Mux.MethodNotAllowedHandler');
    assert.match(handler?.to?.signature ?? '', /methodsAllowed \.\.\.methodTyp/);
  });

  it('MCP get_changes answers the same with the notes fenced as the author\'s text', async () => {
    const client = new Client({ name: 'changes-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const result = await client.callTool({ name: 'get_changes', arguments: { slug: 'npm-axios', from: '0.27.2', to: '1.7.9', format: 'json', maxTokens: 6000 } });
      const body = JSON.parse((result.content as { text: string }[])[0]!.text) as { to: string; counts: { signature: number }; notes: { content: string }[]; untrusted?: string };
      assert.equal(body.to, '1.7.9');
      assert.ok(body.counts.signature > 0);
      if (body.notes.length) assert.ok(body.untrusted, 'release notes come with the untrusted-text notice');
    } finally {
      await client.close();
    }
  });
});

for (const store of storeKinds()) {
  describe(`GET /tools/changes input on ${store}`, () => {
    let server: TestServer;
    before(async () => { server = await startServer({ store }); });
    after(() => server.close());

    it('a version that does not exist answers 404 with the nearest versions; bad parameters 422', async () => {
      const missing = await changes(server, 'npm-ms', { from: '2.1.3', to: '2.1.99' });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error!.code, 'version_not_found');
      assert.ok(missing.body.error!.versions!.includes('2.1.3'), missing.body.error!.message);
      for (const [query, code] of [[{ from: '2.1.1' }, 'invalid_version'], [{ from: '2.1.1', to: '2.1.3', maxTokens: '10' }, 'invalid_max_tokens']] as const) {
        const response = await fetch(`${server.url}/tools/changes/npm-ms?${new URLSearchParams(query as Record<string, string>)}`);
        assert.equal(response.status, 422, JSON.stringify(query));
        assert.equal((await response.json() as { error: { code: string } }).error.code, code);
      }
      const small = await changes(server, 'npm-ms', { from: '2.1.1', to: '2.1.3' });
      assert.equal(small.status, 200);
      assert.deepEqual([small.body.from.version, small.body.to.version], ['2.1.1', '2.1.3']);
    });
  });
}
