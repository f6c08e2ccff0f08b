// `npm run bench:search`: ranking quality (tooldex vs a BM25 baseline) and HTTP load at concurrency 32
// over the full shipped catalog on the embedded store (vs GET /healthz as the HTTP-stack floor).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createApp } from '../src/app.ts';
import { allTools } from '../src/catalog/repository.ts';
import { loadConfig } from '../src/config.ts';
import { buildServer } from '../src/http/server.ts';
import { createLogger } from '../src/log.ts';
import { baselineRanker, evaluate, loadLabelledQueries, tooldexRanker } from './search-quality.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-bench-'));
const started = Date.now();
const config = loadConfig({ TOOLDEX_HOME: home, PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'warn', TOOLDEX_RATE_LIMIT_RPM: 1_000_000 });
const app = await createApp(config, createLogger('warn'));
console.log(`store ready with ${app.catalog.size()} tools in ${Date.now() - started} ms (fresh TOOLDEX_HOME, snapshot load)`);

const tools = await allTools(app.store);
const queries = loadLabelledQueries();
const holdout = loadLabelledQueries(path.join(import.meta.dirname, 'search-queries-holdout.tsv'));
// The weights were tuned on the first set; the held-out set was written before it was ever run.
for (const [setName, set] of [['tuning', queries], ['held-out', holdout]] as const) {
  for (const [label, ranker] of [['tooldex', tooldexRanker(tools)], ['bm25-baseline', baselineRanker(tools)]] as const) {
    const report = evaluate(set, ranker);
    console.log(`quality ${setName.padEnd(8)} ${label.padEnd(13)} queries=${set.length} hit@5=${report.hitAt5.toFixed(3)} mrr@10=${report.mrrAt10.toFixed(3)}`);
    if (process.env.BENCH_VERBOSE) for (const miss of report.misses) console.log(`  miss: ${miss}`);
  }
}

const server = await buildServer(app);
let url = await server.listen({ port: 0, host: '127.0.0.1' });
const paths = queries.map((q) => `/tools/search?q=${encodeURIComponent(q.query)}`);

async function load(label: string, requestPaths: string[]) {
  let next = 0;
  const result = await autocannon({
    url, connections: CONNECTIONS, duration: DURATION_S,
    requests: [{ setupRequest: (request) => ({ ...request, path: requestPaths[next++ % requestPaths.length]! }) }],
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  console.log(`load ${label.padEnd(14)} c=${CONNECTIONS} ${DURATION_S}s p50=${result.latency.p50}ms p99=${result.latency.p99}ms req/s=${Math.round(result.requests.average)} errors=${errors}`);
}

await load('http-floor', ['/icons/npm.svg']); // the HTTP stack alone: no store, no ranking
await load('search-cached', paths);
await server.close();
await app.close();

// The same queries with the answer cache off: every request ranks the catalog again.
const uncachedApp = await createApp({ ...config, TOOLDEX_SEARCH_CACHE: 0 }, createLogger('warn'));
const uncachedServer = await buildServer(uncachedApp);
url = await uncachedServer.listen({ port: 0, host: '127.0.0.1' });
await load('search-uncached', paths);
await uncachedServer.close();
await uncachedApp.close();
fs.rmSync(home, { recursive: true, force: true });
console.log(`machine: ${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
