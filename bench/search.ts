// `npm run bench:search`: ranking quality on the held-out and tuning query sets (tooldex, tooldex lexical-only,
// BM25), start-up times and idle memory, and HTTP load with distinct queries against the bare /healthz floor.
//   BENCH_ONLY=quality | load: one half.
//   BENCH_ONLY=single [BENCH_SECONDS=20]: short single-client mode: one start, then one client asking distinct new
//   queries over HTTP, framework cues from the catalog on and off in turn (4 rounds each, the seconds split among
//   them), p50/p99 of each and the load; no quality, no 32-client load, no server memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import net from 'node:net';
import autocannon from 'autocannon';
import { createApp, type App } from '../src/app.ts';
import { allTools } from '../src/catalog/repository.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { buildServer } from '../src/http/server.ts';
import { createLogger } from '../src/log.ts';
import { CUE_SOURCES } from '../src/catalog/query.ts';
import {
  absentAnswers, baselineRanker, evaluate, HELDOUT_FILE, loadLabelledQueries, slices, TUNING_FILE, type Ranker,
} from './search-quality.ts';

if (process.env.BENCH_ABLATE) {
  // BENCH_ABLATE=1 [BENCH_SET=file.tsv]: the ranking ablation (bench/search-ablation.ts) instead of the full bench.
  await import('./search-ablation.ts');
  process.exit(0);
}

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const only = process.env.BENCH_ONLY; // "quality" or "load" to run one half
const load1 = () => os.loadavg()[0]!.toFixed(2);

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-bench-'));
const config = loadConfig({ TOOLDEX_HOME: home, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'warn', TOOLDEX_RATE_LIMIT_RPM: 1_000_000 });

async function timedStart(label: string, settings: Config): Promise<App> {
  const started = Date.now();
  const app = await createApp(settings, createLogger('warn'));
  console.log(`start ${label.padEnd(5)} ${Date.now() - started} ms, ${app.catalog.size()} tools (load ${load1()})`);
  return app;
}

const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

// First start on a fresh machine (empty TOOLDEX_HOME: initdb, snapshot load, index build), then a warm start.
let app = await timedStart('first', config);
if (only !== 'single') {
  await app.close();
  app = await timedStart('warm', config);
}
const waited = Date.now();
await app.catalog.semanticReady();
console.log(`start semantic layer ready ${Date.now() - waited} ms after the ${only === 'single' ? 'first' : 'warm'} start (searches before rank lexically)`);
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 1000));
console.log(`memory idle rss=${rssMb()} MB after ${only === 'single' ? 'first' : 'warm'} start (heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB)`);

if (only !== 'load' && only !== 'single') {
  const tools = await allTools(app.store);
  const slugs = new Set(tools.map((tool) => tool.slug));
  const heldout = loadLabelledQueries(HELDOUT_FILE);
  const tuning = loadLabelledQueries(TUNING_FILE);
  for (const [name, set] of [['held-out', heldout], ['tuning', tuning]] as const) {
    const absent = absentAnswers(set, slugs);
    console.log(`labels ${name}: ${set.length} queries, ${absent.length} acceptable answers absent from the catalog${absent.length ? `: ${absent.slice(0, 20).join(' ')}` : ''}`);
  }
  const catalog = app.catalog;
  const rankers: Array<[string, Ranker]> = [
    ['tooldex', async (q) => (await catalog.search(q, { limit: 10 })).results.map((r) => r.slug)],
    ['lexical', async (q) => (await catalog.search(q, { limit: 10, semantic: false })).results.map((r) => r.slug)],
    ['bm25', baselineRanker(tools)],
  ];
  for (const [setName, set] of [['held-out', heldout], ['tuning', tuning]] as const) {
    for (const [label, ranker] of rankers) {
      for (const [slice, queries] of slices(set)) {
        const r = await evaluate(queries, ranker);
        console.log(`quality ${setName.padEnd(8)} ${label.padEnd(7)} ${slice.padEnd(8)} n=${String(r.queries).padStart(3)} hit@1=${r.hitAt1.toFixed(3)} hit@5=${r.hitAt5.toFixed(3)} mrr@10=${r.mrrAt10.toFixed(3)}`);
        if (process.env.BENCH_VERBOSE && slice === 'all' && label !== 'bm25') for (const miss of r.misses) console.log(`  miss: ${miss}`);
      }
    }
  }
}

if (only === 'single') await singleClient(app);

/**
 * One client, distinct queries never asked before (the answer cache cannot help), framework cues from the catalog on
 * and off in turn on the same server (CUE_SOURCES is read per query), so that both see the same load. Each setting
 * gets its own queries; the cue memo (per word) warms up over the run, as it does in a serving process.
 */
async function singleClient(served: App): Promise<void> {
  const tools = await allTools(served.store);
  const distinct = [...new Set(tools.map((tool) => tool.shortDescription.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/).filter(Boolean).slice(0, 5).join(' ')).filter((q) => q.length > 8))];
  const server = await buildServer(served);
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  const shipped = CUE_SOURCES.derived;
  const latencies: Record<string, number[]> = { 'cues-on': [], 'cues-off': [] };
  const rounds = 4;
  let next = 0;
  const started = load1();
  for (let round = 0; round < rounds; round++) {
    for (const [label, derived] of [['cues-on', true], ['cues-off', false]] as const) {
      CUE_SOURCES.derived = derived;
      const until = Date.now() + (DURATION_S * 1000) / (2 * rounds);
      while (Date.now() < until) {
        const t = process.hrtime.bigint();
        const response = await fetch(`${url}/tools/search?q=${encodeURIComponent(distinct[next++ % distinct.length]!)}`);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`search answered ${response.status}`);
        latencies[label]!.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }
  }
  CUE_SOURCES.derived = shipped;
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  for (const [label, values] of Object.entries(latencies)) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`single ${label.padEnd(8)} c=1 n=${sorted.length} p50=${at(sorted, 0.5).toFixed(2)}ms p90=${at(sorted, 0.9).toFixed(2)}ms p99=${at(sorted, 0.99).toFixed(2)}ms new queries (load ${started} -> ${load1()})`);
  }
  await server.close();
}

if (only !== 'quality' && only !== 'single') {
  // Distinct queries: every request asks something new, so the answer cache cannot help (as with many agents).
  const tools = await allTools(app.store);
  const distinct = [...new Set(tools.map((tool) => tool.shortDescription.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/).filter(Boolean).slice(0, 5).join(' ')).filter((q) => q.length > 8))];
  const paths = distinct.map((q) => `/tools/search?q=${encodeURIComponent(q)}`);
  const server = await buildServer(app);
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  let next = 0;
  const run = async (label: string, connections: number, pick: () => string) => {
    const result = await autocannon({
      url, connections, duration: DURATION_S,
      requests: [{ setupRequest: (request) => ({ ...request, path: pick() }) }],
    });
    const errors = result.errors + result.timeouts + result.non2xx;
    console.log(`load ${label.padEnd(16)} c=${String(connections).padStart(2)} ${DURATION_S}s p50=${result.latency.p50}ms p99=${result.latency.p99}ms req/s=${Math.round(result.requests.average)} errors=${errors} (load ${load1()})`);
    return result;
  };
  const floor = await run('healthz-floor', CONNECTIONS, () => '/healthz');
  const searched = await run('search-distinct', CONNECTIONS, () => paths[next++ % paths.length]!);
  await run('search-distinct', 1, () => paths[next++ % paths.length]!);
  console.log(`load ratio throughput=${(searched.requests.average / floor.requests.average).toFixed(2)} of the floor (goal ≥ 0.30), p99=${(searched.latency.p99 / Math.max(1, floor.latency.p99)).toFixed(1)}× the floor's (goal ≤ 3), ${distinct.length} distinct queries`);
  await server.close();
}
await app.close();
if (only === 'single') {
  fs.rmSync(home, { recursive: true, force: true });
  process.exit(0);
}

// Idle resident memory of a real server process on the embedded store (warm start, semantic layer in).
const port = await new Promise<number>((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as net.AddressInfo;
    probe.close(() => resolve(free));
  });
});
const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../src/cli/main.ts'), 'serve'], {
  env: { ...process.env, TOOLDEX_HOME: home, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: 'ignore',
});
const serverStarted = Date.now();
for (;;) {
  const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
  if (ok || Date.now() - serverStarted > 120_000) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const readyMs = Date.now() - serverStarted;
await new Promise((resolve) => setTimeout(resolve, 8000)); // the semantic layer loads after start; then idle
const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
const rss = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
console.log(`memory server idle rss=${Math.round(rss)} MB (tooldex serve, warm start, answering /healthz after ${readyMs} ms incl. process start)`);
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
fs.rmSync(home, { recursive: true, force: true });
console.log(`machine: ${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${new Date().toISOString().slice(0, 10)}`);
