// MCP overhead against its baseline, in one run: search over REST (baseline) vs search_tools over MCP
// Streamable HTTP (one stateless MCP server per request); the size of each tool's answer in characters and
// tokens (o200k_base, the GPT-4o tokenizer, via js-tiktoken) compact vs full (the REST result, the baseline),
// toon vs json; and `tooldex mcp` stdio cold start.
// Usage: npm run bench:mcp [-- <calls per figure, default 200>]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fs from 'node:fs';
import path from 'node:path';
import { getEncoding } from 'js-tiktoken';
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

  await answerSizes(client);
  await client.close();
} finally {
  await server.close();
}

/** Characters and tokens of each tool's answer (the text an agent reads), averaged over a few calls per tool:
 * compact (the default) against full (the REST result), each in toon and json. */
async function answerSizes(client: Client): Promise<void> {
  const tokenizer = getEncoding('o200k_base');
  const calls: Array<[string, Array<Record<string, unknown>>]> = [
    ['search_tools (10 results)', QUERIES.map((query) => ({ query, limit: 10 }))],
    ['get_tool_context', ['npm-zod', 'pypi-requests', 'npm-axios'].map((slug) => ({ slug }))],
    ['search_docs (5 passages)', [['npm-zod', 'make a field optional'], ['pypi-requests', 'set a timeout'], ['npm-axios', 'add a request header']]
      .map(([slug, query]) => ({ slug, query }))],
    ['test_tool (hello world)', [{ language: 'javascript', runtime: 'node', files: [{ path: 'index.js', code: 'console.log("hello")' }] }]],
  ];
  for (const [label, argsList] of calls) {
    const sizes: Record<string, { chars: number; tokens: number }> = {};
    for (const detail of ['compact', 'full']) {
      for (const format of ['toon', 'json']) {
        let chars = 0;
        let tokens = 0;
        for (const args of argsList) {
          const result = await client.callTool({ name: label.split(' ')[0]!, arguments: { ...args, format, detail } }) as CallToolResult;
          const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
          if (result.isError) throw new Error(`${label} ${JSON.stringify(args)}: ${text.slice(0, 300)}`);
          chars += text.length;
          tokens += tokenizer.encode(text).length;
        }
        sizes[`${detail} ${format}`] = { chars: Math.round(chars / argsList.length), tokens: Math.round(tokens / argsList.length) };
      }
    }
    const cell = (key: string) => `${key} ${sizes[key]!.chars} ch/${sizes[key]!.tokens} tok`;
    const saved = 1 - sizes['compact toon']!.tokens / sizes['full json']!.tokens;
    console.log(`${label.padEnd(28)} ${['compact toon', 'compact json', 'full toon', 'full json'].map(cell).join('  ')}  (default vs REST json: ${Math.round(saved * 100)} % fewer tokens)`);
  }
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

// Many editors on one home: a second `tooldex mcp` beside a holder (it connects to TOOLDEX_HOME/mcp.sock instead of
// opening the store), and the hand-over when the holder exits (its neighbour opens the store and answers).
const joins: number[] = [];
const handovers: number[] = [];
for (let run = 0; run < 3; run++) {
  const home = await freshHome();
  const spawnClient = async () => {
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StdioClientTransport({
      command: process.execPath, args: [path.resolve('bin/tooldex.js'), 'mcp'], stderr: 'ignore',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TOOLDEX_HOME: home, LOG_LEVEL: 'warn' },
    }));
    await client.listTools();
    return client;
  };
  const holder = await spawnClient();
  let started = performance.now();
  const second = await spawnClient();
  joins.push(performance.now() - started);
  started = performance.now();
  await holder.close();
  await second.callTool({ name: 'search_tools', arguments: { query: 'http client' } });
  handovers.push(performance.now() - started);
  await second.close();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  fs.rmSync(home, { recursive: true, force: true });
}
console.log(`${'second tooldex mcp on a held home, to tools/list'.padEnd(44)} median ${(percentile(joins, 50) / 1000).toFixed(2)} s  (runs: ${joins.map((s) => (s / 1000).toFixed(2)).join(', ')})`);
console.log(`${'hand-over: holder exits → neighbour answers'.padEnd(44)} median ${(percentile(handovers, 50) / 1000).toFixed(2)} s  (runs: ${handovers.map((s) => (s / 1000).toFixed(2)).join(', ')})`);
