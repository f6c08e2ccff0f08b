// MCP overhead against its baseline, in one run: search over REST (baseline) vs search_tools over MCP
// Streamable HTTP (one stateless MCP server per request), toon vs json size, and `tooldex mcp` stdio cold start.
// Usage: npm run bench:mcp [-- <calls per figure, default 200>]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fs from 'node:fs';
import path from 'node:path';
import { startServer } from '../test/helpers/server.ts';
import { freshHome } from '../test/helpers/stores.ts';

const CALLS = Number(process.argv[2] ?? 200);
const QUERIES = ['validate typescript object schemas', 'http client', 'parse yaml', 'hash passwords', 'date formatting', 'orm for postgres'];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const line = (label: string, ms: number[]) =>
  console.log(`${label.padEnd(44)} p50 ${percentile(ms, 50).toFixed(1)} ms  p99 ${percentile(ms, 99).toFixed(1)} ms  (n=${ms.length})`);

async function time(work: (i: number) => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await work(i);
    ms.push(performance.now() - started);
  }
  return ms;
}

const server = await startServer({ config: { TOOLDEX_RATE_LIMIT_RPM: 1_000_000 } });
try {
  const q = (i: number) => QUERIES[i % QUERIES.length]!;
  await fetch(`${server.url}/tools/search?q=warmup`);
  line('REST GET /tools/search (baseline)', await time((i) => fetch(`${server.url}/tools/search?q=${encodeURIComponent(q(i))}`).then((r) => r.text())));

  // The same JSON-RPC call with plain fetch: the server's share of the MCP cost, without the SDK client's.
  const rpc = (i: number) => fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_tools', arguments: { query: q(i), format: 'json' } } }),
  }).then((r) => r.text());
  line('MCP HTTP tools/call by plain fetch (json)', await time(rpc));

  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  const mcp = (i: number, format: string) => client.callTool({ name: 'search_tools', arguments: { query: q(i), format } });
  line('MCP HTTP search_tools format=json', await time((i) => mcp(i, 'json')));
  line('MCP HTTP search_tools format=toon', await time((i) => mcp(i, 'toon')));

  let jsonChars = 0;
  let toonChars = 0;
  for (let i = 0; i < QUERIES.length; i++) {
    jsonChars += ((await mcp(i, 'json')) as CallToolResult).content.map((c) => (c.type === 'text' ? c.text.length : 0)).reduce((a, b) => a + b, 0);
    toonChars += ((await mcp(i, 'toon')) as CallToolResult).content.map((c) => (c.type === 'text' ? c.text.length : 0)).reduce((a, b) => a + b, 0);
  }
  console.log(`${'search_tools result size, 10 results'.padEnd(44)} json ${Math.round(jsonChars / QUERIES.length)} chars  toon ${Math.round(toonChars / QUERIES.length)} chars  (toon/json ${(toonChars / jsonChars).toFixed(2)})`);
  await client.close();
} finally {
  await server.close();
}

// Cold start of the stdio server on a local embedded store: spawn to the first tools/list answer.
const starts: number[] = [];
for (let run = 0; run < 3; run++) {
  const home = await freshHome();
  const started = performance.now();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({
    command: process.execPath, args: [path.resolve('bin/tooldex.js'), 'mcp'], stderr: 'ignore',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TOOLDEX_HOME: home, LOG_LEVEL: 'warn' },
  }));
  await client.listTools();
  starts.push(performance.now() - started);
  await client.close();
  await new Promise((resolve) => setTimeout(resolve, 1000)); // let the child close its store
  fs.rmSync(home, { recursive: true, force: true });
}
console.log(`${'tooldex mcp (stdio, local PGlite) cold start'.padEnd(44)} median ${(percentile(starts, 50) / 1000).toFixed(2)} s  (runs: ${starts.map((s) => (s / 1000).toFixed(2)).join(', ')})`);
