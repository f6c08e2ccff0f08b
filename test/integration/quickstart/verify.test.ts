// Run-verified quickstarts through the front door: HTTP, MCP and the CLI against a real server whose real sandboxes run
// real packages from the registries (is-number, six, itoa, google/uuid) and a gem from a loopback gem source.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '../../helpers/server.ts';
import { addTools } from '../docs/catalog-fixture.ts';
import { bin, cleanEnv, run } from '../mcp/fixtures.ts';
import { startSandboxServer } from '../sandbox/helpers.ts';
import { GEM, startGemRegistry } from './gem-fixture.ts';
import { withoutDoubtHeader } from '../../../src/quickstart/teach-model.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const FINAL_WAIT_MS = 8 * 60_000;

describe('run-verified quickstarts', () => {
  let server: TestServer;
  let gems: Awaited<ReturnType<typeof startGemRegistry>>;
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, body: await response.json() as Json };
  };
  /** Polls the context until its quickstart verification reached a final state. */
  const settled = async (slug: string) => {
    const deadline = Date.now() + FINAL_WAIT_MS;
    for (;;) {
      const { status, body } = await get(`/tools/context/${slug}`);
      assert.equal(status, 200, JSON.stringify(body));
      if (body.quickstart?.verified?.status !== 'pending' || Date.now() > deadline) return body;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };

  before(async () => {
    gems = await startGemRegistry();
    server = await startSandboxServer({
      TOOLDEX_RATE_LIMIT_RPM: 100_000, TOOLDEX_QUICKSTART_VERIFY: 'on', TOOLDEX_QUICKSTART_WAIT_MS: 0, TOOLDEX_QUICKSTART_CONCURRENCY: 2,
      TOOLDEX_QUICKSTART_NETWORK_EXAMPLES: 'never', TOOLDEX_RUBYGEMS_URL: gems.url, TOOLDEX_GEM_SOURCE: `${gems.url}/`,
    });
    await addTools(server, [{ slug: `rubygems-${GEM.name}`, ecosystem: 'rubygems', name: GEM.name }]);
  });
  after(async () => {
    await server?.close();
    await gems?.close();
  });

  it('HTTP: answers at once with pending, then serves the program it ran and the exact body that ran (npm is-number)', async () => {
    const first = await get('/tools/context/npm-is-number@7.0.0');
    assert.equal(first.status, 200);
    assert.equal(first.body.quickstart.verified.status, 'pending');
    assert.match(first.body.quickstart.verified.reason, /under way/);
    // The others start now and verify in the background while this one is checked.
    await Promise.all(['pypi-six@1.17.0', 'crates-itoa@1.0.15', 'go-github.com__google__uuid@v1.6.0', `rubygems-${GEM.name}`].map((slug) => get(`/tools/context/${slug}`)));
    const context = await settled('npm-is-number@7.0.0');
    const verified = context.quickstart.verified;
    assert.equal(verified.status, 'ran', JSON.stringify(verified));
    assert.equal(verified.version, '7.0.0');
    assert.match(verified.runtime, /^node v\d+/);
    assert.match(verified.stdout, /^(true|false)\n/);
    assert.ok(Date.parse(verified.ranAt) > Date.now() - FINAL_WAIT_MS && verified.durationMs > 0);
    assert.match(context.quickstart.code, /^import isNumber from 'is-number';\n/);
    assert.deepEqual(context.testRequest.packages, ['is-number@7.0.0']);
    assert.deepEqual(context.testRequest.env, [], 'verification runs with no caller\'s secrets');
    // The exact body, sent by a caller, runs and prints the same.
    const rerun = await fetch(`${server.url}/tools/test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(context.testRequest) });
    const result = await rerun.json() as Json;
    assert.equal(result.status, 'ran');
    assert.equal(result.stdout.trim(), verified.stdout);
    // Verification ran under the service's own owner, never a caller's.
    const owners = await server.app.store.query<{ owner: string }>("select distinct owner from sandbox_sessions where owner like 'service:%'");
    assert.deepEqual(owners.map((o) => o.owner), ['service:quickstart']);
  });

  it('MCP: get_tool_context carries the verification (PyPI six, a script made from its docs)', async () => {
    const client = new Client({ name: 'quickstart-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      await settled('pypi-six@1.17.0');
      const result = await client.callTool({ name: 'get_tool_context', arguments: { slug: 'pypi-six@1.17.0', format: 'json' } }) as CallToolResult;
      const context = JSON.parse((result.content[0] as { text: string }).text) as Json;
      assert.equal(context.quickstart.verified.status, 'ran', JSON.stringify(context.quickstart.verified));
      assert.match(context.quickstart.verified.runtime, /^python 3\.\d+/);
      assert.deepEqual(context.testRequest.packages[0], 'six==1.17.0');
      assert.match(context.quickstart.code, /\bsix\b/);
      const { tools } = await client.listTools();
      assert.match(tools.find((t) => t.name === 'get_tool_context')?.description ?? '', /quickstart\.verified\.status/);
    } finally {
      await client.close();
    }
  });

  it('CLI: tooldex context shows "✓ ran on itoa …, printed …" (a crate doctest with its hidden lines and a main)', async () => {
    const context = await settled('crates-itoa@1.0.15');
    assert.equal(context.quickstart.verified.status, 'ran', JSON.stringify(context.quickstart.verified));
    assert.match(context.quickstart.code, /fn main\(\)/);
    const human = await run(process.execPath, [bin, 'context', 'crates-itoa@1.0.15', '--format', 'human'], { env: cleanEnv({ TOOLDEX_URL: server.url }) });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /\n✓ ran on itoa 1\.0\.15 \(rustc 1\.\d+.*\), printed "128"\n/);
  });

  it('Go: a module whose docs show no code gets a program written from its exported API, and says so (google/uuid)', async () => {
    const context = await settled('go-github.com__google__uuid@v1.6.0');
    const verified = context.quickstart.verified;
    assert.equal(verified.status, 'ran', JSON.stringify(verified));
    assert.match(verified.stdout, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    assert.match(verified.note, /exported API/);
    // A written program is unlikely to teach by the model (p 0.07 with round 15's weights): the doubt note heads it.
    assert.match(withoutDoubtHeader(context.quickstart.code), /^package main\n\nimport \(\n\t"fmt"\n\t"github.com\/google\/uuid"\n\)/);
  });

  it('RubyGems: the README example of a gem from the loopback gem source runs', async () => {
    const context = await settled(`rubygems-${GEM.name}`);
    assert.equal(context.quickstart.verified.status, 'ran', JSON.stringify(context.quickstart.verified));
    assert.equal(context.quickstart.verified.stdout, 'hello world from a verified gem');
    assert.deepEqual(context.testRequest.packages, [`${GEM.name}@${GEM.version}`]);
  });
});
