// One error contract through the front door: whatever answers an error — a route, the body parser, the router or
// Node's HTTP parser — the body is {error:{status,code,message}} with a stable code and plain words; wrong methods
// are 405 with Allow; and /openapi.json documents every response of every operation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';

interface RawAnswer { status: number; headers: Record<string, string>; body: { error?: { status: number; code: string; message: string; field?: string } } }

/** Sends bytes exactly as written (fetch would normalise the URL or refuse the method). */
function raw(url: string, request: string): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      let body = rest.join('\r\n\r\n');
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body || '{}') });
    });
  });
}
const get = (url: string, path: string, method = 'GET') => raw(url, `${method} ${path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`);

function assertError(answer: RawAnswer, status: number, code: string) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(answer.body.error?.status, status);
  assert.equal(answer.body.error?.code, code);
  assert.ok((answer.body.error?.message.length ?? 0) > 15, answer.body.error?.message);
}

describe('the error contract (embedded store)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ config: { TOOLDEX_RATE_LIMIT_RPM: 10_000, TOOLDEX_TEST_RPM: 1000 } });
  });
  after(() => server.close());

  it('answers router and parser failures in the error body', async () => {
    assertError(await get(server.url, '/tools/context/zod%00'), 422, 'invalid_slug');
    assertError(await get(server.url, `/tools/context/${'a'.repeat(150)}`), 404, 'not_found');
    assertError(await get(server.url, `/tools/docs/${'a'.repeat(301)}?q=x`), 422, 'invalid_slug');
    assertError(await get(server.url, `/tools/search?q=${'a'.repeat(20_000)}`), 431, 'headers_too_large');
    assertError(await get(server.url, '/tools/context/%E0%A4%A'), 400, 'invalid_url');
    // The query-string form: the router's parser would keep '%E0%A4%A' as text and the search would answer 200.
    assertError(await get(server.url, '/tools/search?q=%E0%A4%A'), 400, 'invalid_url');
    assertError(await get(server.url, '/tools/search?limit=5&q=zod%'), 400, 'invalid_url');
    assert.equal((await get(server.url, '/tools/search?q=%C3%A9t%C3%A9+100%25')).status, 200);
    assertError(await get(server.url, '/nowhere'), 404, 'not_found');
    assertError(await get(server.url, '/tools/search', 'BREW'), 400, 'bad_request');
  });

  it('answers a wrong method with 405 and Allow, on every kind of path', async () => {
    for (const method of ['TRACE', 'DELETE', 'POST', 'PUT', 'PATCH', 'QUERY', 'OPTIONS']) {
      const answer = await get(server.url, '/tools/search?q=zod', method);
      assertError(answer, 405, 'method_not_allowed');
      assert.equal(answer.headers.allow, 'GET, HEAD', method);
    }
    assert.equal((await get(server.url, '/tools/context/npm-zod', 'DELETE')).headers.allow, 'GET, HEAD');
    assert.equal((await get(server.url, '/tools/test', 'GET')).headers.allow, 'POST');
    assert.equal((await get(server.url, '/healthz', 'TRACE')).headers.allow, 'GET, HEAD');
    const logout = await get(server.url, '/dashboard/api/logout', 'GET'); // not a dashboard file: a POST-only route
    assertError(logout, 405, 'method_not_allowed');
    assert.equal(logout.headers.allow, 'POST');
  });

  it('says what is wrong with a parameter in plain words, naming it and what was sent', async () => {
    const missing = await get(server.url, '/tools/search');
    assertError(missing, 422, 'invalid_query');
    assert.equal(missing.body.error?.field, 'q');
    assert.match(missing.body.error!.message, /^Query parameter "q": is required/);
    assert.doesNotMatch(missing.body.error!.message, /undefined|expected string/);

    const limit = await get(server.url, '/tools/search?q=zod&limit=abc');
    assertError(limit, 422, 'invalid_limit');
    assert.equal(limit.body.error?.message, 'Query parameter "limit": must be a whole number from 1 to 50, got "abc".');

    const unknown = await get(server.url, '/tools/search?q=zod&limt=5');
    assertError(unknown, 422, 'invalid_request');
    assert.equal(unknown.body.error?.field, 'limt');
    assert.match(unknown.body.error!.message, /"limt" is not accepted; this endpoint takes q, limit,/);

    const ecosystem = await get(server.url, '/tools/search?q=zod&ecosystem=maven');
    assert.match(ecosystem.body.error!.message, /must be one of npm, pypi, crates, go, rubygems, got "maven"/);
  });

  it('reports body problems by field name, media type and size limit', async () => {
    const post = (body: string, type = 'application/json') => fetch(`${server.url}/tools/test`, { method: 'POST', headers: { 'content-type': type }, body })
      .then(async (r) => ({ status: r.status, headers: Object.fromEntries(r.headers), body: await r.json() }) as RawAnswer);
    const unknownKey = await post(JSON.stringify({ language: 'js', runtime: 'node', files: [{ path: 'a.js', code: '1' }], image: 'ubuntu' }));
    assertError(unknownKey, 422, 'invalid_request');
    assert.equal(unknownKey.body.error?.field, 'image');
    assert.match(unknownKey.body.error!.message, /^Body field "image" is not accepted; the body takes language, runtime, files/);
    assertError(await post('{"language": '), 400, 'invalid_body');
    assertError(await post('language=js', 'text/plain'), 415, 'unsupported_media_type');
    const noBody = await fetch(`${server.url}/tools/test`, { method: 'POST' }).then(async (r) => ({ status: r.status, headers: Object.fromEntries(r.headers), body: await r.json() }) as RawAnswer);
    assertError(noBody, 422, 'invalid_request');
    assert.match(noBody.body.error!.message, /needs a JSON body/);
    const huge = await post(JSON.stringify({ language: 'js', runtime: 'node', files: [{ path: 'a.js', code: 'x'.repeat(3 * 1024 * 1024) }] }));
    assertError(huge, 413, 'payload_too_large');
    assert.match(huge.body.error!.message, /2 MiB \(2,097,152 bytes\)/);
  });

  it('documents every response of every operation in /openapi.json', async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>; parameters?: unknown[]; requestBody?: unknown }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
    assert.ok(operations.length >= 18, `${operations.length} operations`);
    for (const { path, method, op } of operations) {
      const label = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(op.responses);
      const success = statuses.filter((status) => status.startsWith('2'));
      assert.ok(success.length >= 1, `${label} documents its success`);
      assert.ok(statuses.includes('500'), `${label} documents 500`);
      for (const status of success.filter((s) => s !== '204' && s !== '202')) {
        // One object, or one of several (GET /tools/docs answers passages for q, or one API item for symbol).
        const schema = op.responses[status]!.content?.['application/json']?.schema as { type?: string; properties?: object; anyOf?: Array<{ properties?: object }> } | undefined;
        const described = schema && (schema.properties || schema.anyOf?.every((option) => option.properties));
        assert.ok(described || path === '/mcp', `${label} ${status} has a body schema`);
      }
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const response = op.responses[status]!;
        assert.match(response.description, /`[a-z_ ]+`/, `${label} ${status} names its codes`);
        const schema = response.content?.['application/json']?.schema as { properties?: { error?: { required?: string[] } } } | undefined;
        if (path !== '/mcp') assert.deepEqual(schema?.properties?.error?.required?.sort(), ['code', 'message', 'status'], `${label} ${status} uses the error schema`);
      }
      if (op.parameters?.length || op.requestBody) assert.ok(statuses.includes('422'), `${label} documents 422`);
      if (path !== '/livez') assert.ok(statuses.includes('503'), `${label} documents 503`);
    }
    const search = doc.paths['/tools/search']!.get!.responses;
    assert.ok(search['200']!.content?.['text/toon'], 'TOON answers are documented');
  });

  it('refuses a NUL byte that reaches the store over MCP as input, never a 500', () => nulOverMcp(server.url));
});

async function nulOverMcp(url: string) {
  const client = new Client({ name: 'error-contract-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  try {
    const result = await client.callTool({ name: 'get_tool_context', arguments: { slug: 'zo\u0000d', format: 'json' } }) as CallToolResult;
    assert.equal(result.isError, true);
    const body = JSON.parse((result.content[0] as { text: string }).text) as { error: { status: number; code: string } };
    assert.equal(body.error.status, 422, JSON.stringify(body));
    assert.notEqual(body.error.code, 'internal');
  } finally {
    await client.close();
  }
}

describe('a NUL byte reaching PostgreSQL', { skip: !storeKinds().includes('postgres') && 'TEST_DATABASE_URL is not set' }, () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ store: 'postgres', config: { TOOLDEX_RATE_LIMIT_RPM: 10_000 } });
  });
  after(() => server?.close());

  it('is refused as input over REST and MCP, never a 500', async () => {
    assertError(await get(server.url, '/tools/docs/zod%00?q=parse'), 422, 'invalid_slug');
    await nulOverMcp(server.url);
  });
});
