// The MCP surface through the front door: the SDK's own Client over Streamable HTTP (/mcp on a real server)
// and over stdio (`node bin/tooldex.js mcp` on a local store, and relaying to a server that holds the store).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decode } from '@toon-format/toon';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { freshHome, storeKinds } from '../../helpers/stores.ts';
import { unfence } from '../../../src/docs/untrusted.ts';
import { bin, cleanEnv, closedPort, fixtureSnapshot } from './fixtures.ts';

const TOOL_ARGS: Record<string, string[]> = {
  search_tools: ['query', 'language', 'ecosystem', 'limit', 'format', 'detail'],
  get_tool_context: ['slug', 'maxTokens', 'format', 'detail'],
  search_docs: ['slug', 'query', 'symbol', 'limit', 'maxTokens', 'format', 'detail'],
  test_tool: ['language', 'runtime', 'files', 'packages', 'entry', 'sessionId', 'slug', 'env', 'timeoutMs', 'format', 'detail'],
  resolve_project: ['files', 'transitive', 'format', 'detail'],
  get_changes: ['slug', 'from', 'to', 'query', 'maxTokens', 'format', 'detail'],
};
const COMPACT_TOOL_FIELDS = ['slug', 'name', 'ecosystem', 'version', 'popularity', 'install', 'description'];

interface RestTool { slug: string; name: string; ecosystem: string; version: string | null; popularity: number; install: string; description: string; shortDescription: string }

/** A compact row says the same as the REST result it stands for, in fewer fields. */
function assertCompactOf(compact: { results: Array<Record<string, unknown>> }, rest: { results: RestTool[] }) {
  assert.deepEqual(compact.results.map((tool) => tool.slug), rest.results.map((tool) => tool.slug), 'same tools, same order');
  compact.results.forEach((tool, i) => {
    const full = rest.results[i]!;
    assert.deepEqual(Object.keys(tool), COMPACT_TOOL_FIELDS);
    assert.equal(tool.name, full.name);
    assert.equal(tool.ecosystem, full.ecosystem);
    assert.equal(tool.version, full.version);
    assert.equal(tool.install, full.install);
    assert.ok(Math.abs((tool.popularity as number) - full.popularity) <= 0.0051, `${tool.slug} popularity`);
    const words = String(tool.description).replace(/…$/, '');
    assert.ok((full.shortDescription || full.description).replace(/\s+/g, ' ').startsWith(words), `${tool.slug} description is the registry's`);
  });
}

/**
 * An MCP docs or context answer as REST sends it: the fence around the author's text and its notice taken off, and the
 * agent's default token budget's report and pointers left out (src/docs/untrusted.ts, src/docs/budget.ts).
 */
function asRest<T>(answer: T): T {
  const { untrusted: _notice, budget: _budget, pointers: _pointers, ...rest } = answer as Record<string, unknown>;
  if (Array.isArray(rest.results)) rest.results = rest.results.map((row: Record<string, unknown>) => ({ ...row, content: unfence(String(row.content)) }));
  const quickstart = rest.quickstart as { code?: string } | null | undefined;
  if (quickstart?.code !== undefined) rest.quickstart = { ...quickstart, code: unfence(quickstart.code) };
  return rest as T;
}

const textOf = (result: unknown) => {
  const content = (result as CallToolResult).content[0];
  assert.equal(content?.type, 'text');
  return (content as { text: string }).text;
};

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function assertToolError(result: CallToolResult, code: string, status: number) {
  assert.equal(result.isError, true, `expected a tool error ${code}, got ${textOf(result).slice(0, 200)}`);
  const body = JSON.parse(textOf(result)) as { error: { code: string; status: number; message: string } };
  assert.equal(body.error.code, code);
  assert.equal(body.error.status, status);
  assert.ok(body.error.message.length > 10);
  assert.deepEqual(result.structuredContent, body);
}

/** The checks every transport must pass; `restUrl` is a server whose REST answers must match. */
function sharedChecks(clientOf: () => Client, restUrl: () => string) {
  it('lists the six tools with their arguments, descriptions and read-only hints', async () => {
    const { tools } = await clientOf().listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(TOOL_ARGS).sort());
    for (const tool of tools) {
      const properties = Object.keys(tool.inputSchema.properties ?? {});
      for (const arg of TOOL_ARGS[tool.name]!) assert.ok(properties.includes(arg), `${tool.name}.${arg}`);
      assert.ok((tool.description ?? '').length > 100, `${tool.name} teaches the workflow`);
      assert.equal(tool.annotations?.readOnlyHint, tool.name !== 'test_tool');
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok((schema as { description?: string }).description, `${tool.name}.${name} has a description`);
      }
    }
    const search = tools.find((tool) => tool.name === 'search_tools')!;
    assert.deepEqual(search.inputSchema.required, ['query']);
    assert.match(search.description ?? '', /get_tool_context.*search_docs.*test_tool/s);
  });

  it('search_tools answers compact toon by default (one table), compact json on request, and the REST result with detail full', async () => {
    const rest = await (await fetch(`${restUrl()}/tools/search?q=schema%20validation&limit=3`)).json() as { results: RestTool[] };
    assert.ok(rest.results.length > 0, 'the catalog has results for "schema validation"');
    const toon = await call(clientOf(), 'search_tools', { query: 'schema validation', limit: 3 });
    assert.equal(toon.isError, undefined);
    assert.match(textOf(toon), new RegExp(`^results\\[${rest.results.length}\\]\\{${COMPACT_TOOL_FIELDS.join(',')}\\}:\n`), 'a TOON table');
    assertCompactOf(decode(textOf(toon)) as { results: Array<Record<string, unknown>> }, rest);
    const json = JSON.parse(textOf(await call(clientOf(), 'search_tools', { query: 'schema validation', limit: 3, format: 'json' })));
    assert.deepEqual(json, decode(textOf(toon)));
    assert.deepEqual(decode(textOf(await call(clientOf(), 'search_tools', { query: 'schema validation', limit: 3, detail: 'full' }))), rest);
    assert.deepEqual(JSON.parse(textOf(await call(clientOf(), 'search_tools', { query: 'schema validation', limit: 3, format: 'json', detail: 'full' }))), rest);
  });

  it('a 10-result search_tools answer fits in 3,500 characters in the default format', async (t) => {
    for (const query of ['validate typescript object schemas at runtime', 'http client', 'parse yaml in python']) {
      const count = ((await (await fetch(`${restUrl()}/tools/search?q=${encodeURIComponent(query)}&limit=10`)).json()) as { results: unknown[] }).results.length;
      // A fresh PostgreSQL database holds only the small fixture catalog; PGlite copies the shipped one.
      if (count < 10) return t.skip(`the catalog here has ${count} results for "${query}" (fixture snapshot)`);
      const text = textOf(await call(clientOf(), 'search_tools', { query, limit: 10 }));
      assert.match(text, /^results\[10\]\{/, query);
      assert.ok(text.length <= 3500, `${query}: ${text.length} characters`);
    }
  });

  it('search_tools passes the ecosystem filter to the catalog', async () => {
    const result = JSON.parse(textOf(await call(clientOf(), 'search_tools', { query: 'validation', ecosystem: 'pypi', format: 'json' })));
    assert.ok(result.results.length > 0);
    for (const tool of result.results) assert.equal(tool.ecosystem, 'pypi');
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['search_tools', { query: '' }, 'invalid_query'],
    ['search_tools', { query: 'zod', format: 'xml' }, 'invalid_format'],
    ['search_tools', { query: 'zod', limit: 0 }, 'invalid_limit'],
    ['search_tools', { query: 'zod', ecosystem: 'maven' }, 'invalid_request'],
    ['search_tools', { query: 'zod', colour: 'blue' }, 'invalid_request'],
    ['get_tool_context', { format: 'json' }, 'invalid_request'],
    ['search_docs', { slug: 'npm:zod', query: ' ' }, 'invalid_query'],
    ['test_tool', { language: 'javascript', runtime: 'node', files: [] }, 'invalid_request'],
    ['test_tool', { language: 'javascript', runtime: 'java', files: [{ path: 'a.js', code: '' }] }, 'invalid_request'],
  ];
  it('refuses an unknown argument by name, listing the ones the tool takes (the rule REST follows for unknown parameters)', async () => {
    const result = await call(clientOf(), 'search_tools', { query: 'zod', limt: 3 });
    assertToolError(result, 'invalid_request', 422);
    const error = (result.structuredContent as { error: { field: string; message: string } }).error;
    assert.equal(error.field, 'limt');
    assert.match(error.message, /^Argument "limt" is not accepted; search_tools takes query, .*limit.*detail\.$/);
  });

  for (const [tool, args, code] of invalid) {
    it(`maps invalid ${tool} arguments ${JSON.stringify(args).slice(0, 60)} to a tool error ${code}`, async () => {
      assertToolError(await call(clientOf(), tool, args), code, 422);
    });
  }

  it('get_tool_context and search_docs answer compact by default (toon and json) and the REST results with detail full', async () => {
    // The first call indexes zod's docs from the npm registry; later ones read the store.
    type Context = { slug: string; version: string; install: unknown[]; imports: string[]; quickstart: unknown; testRequest: unknown; links: Record<string, string | null> };
    const context = await (await fetch(`${restUrl()}/tools/context/npm-zod`)).json() as Context;
    assert.equal(context.slug, 'npm-zod', JSON.stringify(context).slice(0, 300));
    const compact = asRest(decode(textOf(await call(clientOf(), 'get_tool_context', { slug: 'npm-zod' }))) as Context & Record<string, unknown>);
    assert.deepEqual(asRest(JSON.parse(textOf(await call(clientOf(), 'get_tool_context', { slug: 'npm-zod', format: 'json' })))), compact);
    for (const field of ['slug', 'version', 'install', 'imports', 'quickstart', 'testRequest'] as const) assert.deepEqual(compact[field], context[field], field);
    assert.equal(compact.links.docs ?? null, context.links.docs);
    assert.equal('registry' in compact.links, false, 'the registry page is left to detail full');
    // Smaller than REST's, the notice on the author's text aside (a few hundred characters, said once per answer).
    const compactText = textOf(await call(clientOf(), 'get_tool_context', { slug: 'npm-zod' }));
    assert.match(compactText, /^untrusted: "Text between ⟦docs [0-9a-f]{8}⟧/);
    assert.ok(compactText.replace(/^untrusted: .*\n/, '').length < JSON.stringify(context).length);
    assert.deepEqual(asRest(decode(textOf(await call(clientOf(), 'get_tool_context', { slug: 'npm-zod', detail: 'full', maxTokens: 32000 })))), context);

    type Docs = { slug: string; version: string; results: Array<{ url: string; content: string; headings?: string[]; title?: string; symbol?: string; deprecated?: boolean; internal?: boolean }> };
    const docs = await (await fetch(`${restUrl()}/tools/docs/npm-zod?q=optional%20field&limit=2`)).json() as Docs;
    assert.ok(docs.results.length > 0, JSON.stringify(docs).slice(0, 300));
    const args = { slug: 'npm-zod', query: 'optional field', limit: 2 };
    const passages = asRest(decode(textOf(await call(clientOf(), 'search_docs', args)))) as { version: string; results: Array<{ heading: string; symbol: string; deprecated: boolean; internal: boolean; url: string; content: string }> };
    assert.equal(passages.version, docs.version);
    assert.deepEqual(passages.results.map((p) => [p.url, p.content]), docs.results.map((p) => [p.url, p.content]));
    assert.deepEqual(passages.results.map((p) => p.heading), docs.results.map((p) => (p.headings?.length ? p.headings.join(' › ') : (p.title ?? ''))));
    assert.deepEqual(passages.results.map((p) => [p.symbol, p.deprecated, p.internal]), docs.results.map((p) => [p.symbol ?? '', p.deprecated ?? false, p.internal ?? false]),
      'the compact rows keep what tells public API from internals and deprecated items');
    assert.deepEqual(asRest(JSON.parse(textOf(await call(clientOf(), 'search_docs', { ...args, format: 'json' })))), passages);
    assert.deepEqual(asRest(JSON.parse(textOf(await call(clientOf(), 'search_docs', { ...args, format: 'json', detail: 'full' })))), docs);
  });

  it('test_tool runs a snippet (toon and json), reuses its session, and returns a failing snippet as ok false', async () => {
    const files = [{ path: 'index.js', code: 'console.log("hello from " + process.env.WHO)' }];
    const env = [{ name: 'WHO', value: 'mcp' }];
    const first = await call(clientOf(), 'test_tool', { language: 'javascript', runtime: 'node', files, env });
    assert.equal(first.isError, undefined, textOf(first).slice(0, 300));
    const ran = decode(textOf(first)) as { ok: boolean; status: string; stdout: string; sessionId: string; sessionReused: boolean };
    assert.equal(ran.status, 'ran', JSON.stringify(ran).slice(0, 500));
    assert.equal(ran.ok, true);
    assert.match(ran.stdout, /hello from mcp/);
    assert.equal(ran.sessionReused, false);

    assert.equal('phases' in ran, false, 'compact: no phase timings');
    const again = JSON.parse(textOf(await call(clientOf(), 'test_tool', {
      language: 'javascript', runtime: 'node', sessionId: ran.sessionId, entry: 'index.js', env, format: 'json', detail: 'full',
    })));
    assert.equal(again.sessionReused, true);
    assert.equal(typeof again.phases.runMs, 'number', 'detail full: the REST result');
    assert.equal(again.sessionId, ran.sessionId);
    assert.match(again.stdout, /hello from mcp/);

    // Same owner as POST /tools/test: a session made over MCP is reusable over REST.
    const rest = await (await fetch(`${restUrl()}/tools/test`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ language: 'javascript', runtime: 'node', files: [], sessionId: ran.sessionId, entry: 'index.js', env: [{ name: 'WHO', value: 'rest' }] }),
    })).json();
    assert.equal(rest.sessionReused, true, JSON.stringify(rest).slice(0, 300));
    assert.match(rest.stdout, /hello from rest/);

    const failing = await call(clientOf(), 'test_tool', {
      language: 'javascript', runtime: 'node', files: [{ path: 'index.js', code: 'throw new Error("boom")' }], format: 'json',
    });
    assert.equal(failing.isError, undefined, 'a failing snippet is a result, not a tool error');
    const failed = JSON.parse(textOf(failing));
    assert.equal(failed.ok, false);
    assert.equal(failed.status, 'failed_run');
    assert.match(failed.stderr, /boom/);
  });

  it('get_tool_context and search_docs map an unknown slug to the not_found tool error', async () => {
    assertToolError(await call(clientOf(), 'get_tool_context', { slug: 'npm-no-such-tool-xyz-123' }), 'not_found', 404);
    assertToolError(await call(clientOf(), 'search_docs', { slug: 'npm-no-such-tool-xyz-123', query: 'install' }), 'not_found', 404);
  });
}

describe('MCP over Streamable HTTP', () => {
  for (const store of storeKinds()) {
    describe(`on ${store}`, () => {
      let server: TestServer;
      let client: Client;
      before(async () => {
        server = await startServer({ store, config: { TOOLDEX_SNAPSHOT: await fixtureSnapshot(), TOOLDEX_TEST_RPM: 1000 } });
        client = new Client({ name: 'tooldex-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      });
      after(async () => {
        await client.close();
        await server.close();
      });
      sharedChecks(() => client, () => server.url);

      it('reports the server and its workflow instructions on initialize', () => {
        assert.equal(client.getServerVersion()?.name, 'tooldex');
        assert.match(client.getInstructions() ?? '', /search_tools.*get_tool_context.*search_docs.*test_tool/s);
      });

      it('answers GET and DELETE /mcp with 405 (stateless endpoint) and a JSON error body', async () => {
        for (const method of ['GET', 'DELETE']) {
          const response = await fetch(`${server.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
          assert.equal(response.status, 405);
          assert.equal(response.headers.get('allow'), 'POST');
          assert.equal((await response.json()).error.code, 'method_not_allowed');
        }
      });
    });
  }

  describe('with a test budget of 2 runs a minute', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ config: { TOOLDEX_TEST_RPM: 2, TOOLDEX_SNAPSHOT: await fixtureSnapshot() } });
    });
    after(() => server.close());

    it('test_tool has its own TOOLDEX_TEST_RPM budget: the third run within a minute is a rate_limited tool error', async () => {
      const client = new Client({ name: 'tooldex-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      try {
        // Counted before validation, as POST /tools/test counts every request: two bad calls spend the budget.
        for (let i = 0; i < 2; i++) assertToolError(await call(client, 'test_tool', { runtime: 'node' }), 'invalid_request', 422);
        const limited = await call(client, 'test_tool', { language: 'javascript', runtime: 'node', files: [{ path: 'a.js', code: '' }] });
        assertToolError(limited, 'rate_limited', 429);
        assert.ok((limited.structuredContent as { error: { retryAfterSeconds: number } }).error.retryAfterSeconds >= 1);
        assert.equal((await call(client, 'search_tools', { query: 'zod' })).isError, undefined, 'other tools are not on the test budget');
      } finally {
        await client.close();
      }
    });
  });

  describe('with authentication required', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ config: { TOOLDEX_AUTH: 'required', TOOLDEX_SNAPSHOT: await fixtureSnapshot() } });
    });
    after(() => server.close());

    it('refuses /mcp without a key (401 missing_api_key) and with a wrong one (403 invalid_api_key), like REST', async (t) => {
      if (!('auth' in server.app)) return t.skip('the authentication capability is not in this build');
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const post = (headers: Record<string, string>) => fetch(`${server.url}/mcp`, {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(init),
      });
      const missing = await post({});
      assert.equal(missing.status, 401);
      assert.equal((await missing.json()).error.code, 'missing_api_key');
      const wrong = await post({ authorization: 'Bearer tdx_not_a_real_key' });
      assert.equal(wrong.status, 403);
      assert.equal((await wrong.json()).error.code, 'invalid_api_key');
    });
  });
});

describe('MCP over stdio (tooldex mcp)', () => {
  describe('on the local store', () => {
    let home: string;
    let client: Client;
    let stderr = '';
    before(async () => {
      home = await freshHome();
      client = new Client({ name: 'tooldex-test', version: '1.0.0' });
      const transport = new StdioClientTransport({
        command: process.execPath, args: [bin, 'mcp'], stderr: 'pipe',
        env: cleanEnv({ TOOLDEX_HOME: home, TOOLDEX_SNAPSHOT: await fixtureSnapshot() }) as Record<string, string>,
      });
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await client.connect(transport);
    });
    after(async () => {
      await client.close();
      // The child closes the store on stdin end and releases the lock (the SDK's client gives it 2 s, then signals
      // it, and the child still closes cleanly): wait for that, then clean up.
      for (let i = 0; i < 150 && fs.existsSync(`${home}/store.lock`); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(fs.existsSync(`${home}/store.lock`), false, `store lock released; stderr: ${stderr.slice(-500)}`);
      assert.equal(fs.existsSync(`${home}/mcp.sock`), false, 'and its MCP socket removed');
      fs.rmSync(home, { recursive: true, force: true });
    });

    it('holds the embedded store lock while it serves, and offers the store to other local processes through 0600 sockets', () => {
      const lock = JSON.parse(fs.readFileSync(`${home}/store.lock`, 'utf8')) as { pid: number; url?: string; adminSocket?: string };
      assert.ok(lock.pid > 0);
      assert.equal(lock.url, undefined, 'no HTTP server: an MCP process serves other MCP processes and operator commands only');
      assert.equal(lock.adminSocket, `${home}/admin.sock`);
      for (const socket of ['mcp.sock', 'admin.sock']) assert.equal(fs.statSync(`${home}/${socket}`).mode & 0o777, 0o600, socket);
    });

    it('lists the six tools and searches in toon and json', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(TOOL_ARGS).sort());
      const toon = decode(textOf(await call(client, 'search_tools', { query: 'zod', limit: 3 }))) as { results: Array<{ name: string }> };
      const json = JSON.parse(textOf(await call(client, 'search_tools', { query: 'zod', limit: 3, format: 'json' })));
      assert.ok(toon.results.some((tool) => tool.name === 'zod'));
      assert.deepEqual(toon, json);
    });

    it('maps errors to tool errors with code and message', async () => {
      assertToolError(await call(client, 'search_tools', { query: 'zod', limit: 99 }), 'invalid_limit', 422);
      assertToolError(await call(client, 'test_tool', { language: 'js', runtime: 'node' }), 'invalid_request', 422);
    });

    it('writes nothing but protocol messages to stdout (logs go to stderr)', async () => {
      // Any stray stdout line would have broken the JSON-RPC stream and the calls above; check stderr is JSON logs.
      for (const line of stderr.split('\n').filter(Boolean)) assert.doesNotThrow(() => JSON.parse(line), line);
    });
  });

  describe('on a PostgreSQL store (DATABASE_URL)', { skip: !storeKinds().includes('postgres') && 'TEST_DATABASE_URL is not set' }, () => {
    it('opens the same database as a server would, even while another process uses it', async () => {
      const server = await startServer({ store: 'postgres', config: { TOOLDEX_SNAPSHOT: await fixtureSnapshot() } });
      const client = new Client({ name: 'tooldex-test', version: '1.0.0' });
      try {
        await client.connect(new StdioClientTransport({
          command: process.execPath, args: [bin, 'mcp'], stderr: 'ignore',
          env: cleanEnv({ DATABASE_URL: server.app.config.DATABASE_URL!, TOOLDEX_HOME: `${server.home}-unused` }) as Record<string, string>,
        }));
        const viaMcp = JSON.parse(textOf(await call(client, 'search_tools', { query: 'zod', format: 'json', detail: 'full' })));
        assert.deepEqual(viaMcp, await (await fetch(`${server.url}/tools/search?q=zod`)).json());
      } finally {
        await client.close();
        await server.close();
      }
    });
  });

  describe('relaying to a server', () => {
    let server: TestServer;
    let serverClosed = false;
    before(async () => {
      server = await startServer({ config: { TOOLDEX_SNAPSHOT: await fixtureSnapshot() } });
    });
    after(() => (serverClosed ? undefined : server.close()));

    async function connectStdio(args: string[], env: Record<string, string>): Promise<Client> {
      const client = new Client({ name: 'tooldex-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env: cleanEnv(env) as Record<string, string>, stderr: 'ignore' }));
      return client;
    }

    it('relays to --url without opening the local store, and fails the handshake with server_unreachable when no server answers', async () => {
      const emptyHome = fs.mkdtempSync(`${server.home}-empty-`);
      const client = await connectStdio(['--url', server.url], { TOOLDEX_HOME: emptyHome });
      try {
        assert.equal((await client.listTools()).tools.length, 6);
        assert.equal(fs.readdirSync(emptyHome).length, 0, 'the local store was not opened');
      } finally {
        await client.close();
      }
      // No server at the URL: the initialize itself fails, so the SDK client's connect rejects.
      await assert.rejects(connectStdio(['--url', `http://127.0.0.1:${await closedPort()}`], { TOOLDEX_HOME: emptyHome }), /server_unreachable/);
      fs.rmSync(emptyHome, { recursive: true, force: true });
    });

    it('turns a tool call whose server went away into a server_unreachable tool error (runs last: stops the server)', async () => {
      const client = await connectStdio(['--url', server.url], { TOOLDEX_HOME: `${server.home}-unused` });
      try {
        assert.equal((await call(client, 'search_tools', { query: 'zod' })).isError, undefined);
        await server.close();
        serverClosed = true;
        const gone = await call(client, 'search_tools', { query: 'zod' });
        assertToolError(gone, 'server_unreachable', 503);
        assert.match(textOf(gone), /ECONNREFUSED.*tooldex serve/);
      } finally {
        await client.close();
      }
    });
  });
});
