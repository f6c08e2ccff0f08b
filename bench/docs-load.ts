// The load section of `npm run bench:docs` (BENCH_LOAD=1): docs questions over HTTP from 32 concurrent clients, every
// one distinct (the query-vector cache cannot help), about 5 packages indexed and wholly embedded beforehand, side by
// side with the bare /healthz floor measured in the same run; then one client alone. The machine is shared, so the
// figures that travel are the ratios to the floor. Beside each run it says where the time went: the event loop's busy
// time and the process's CPU per request, the encoder's queue wait, time from sent to answered and model time per question, and the
// server-side time of answers by ranking mode. Settings come from the environment (TOOLDEX_SEMANTIC_ENCODER_THREADS,
// _BATCH, _QUEUE, _WAIT_MS), so each step is measured by running again with another value:
//   BENCH_LOAD=1 BENCH_HOME=/tmp/docs-load TOOLDEX_SEMANTIC_ENCODER_QUEUE=0 npm run bench:docs
// BENCH_LOAD_PACKAGES=tool@v,… picks the packages, BENCH_SECONDS the length of each run (default 10).
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { allPassages } from '../src/docs/repository.ts';
import { buildServer } from '../src/http/server.ts';
import { createLogger } from '../src/log.ts';
import { loadTransformerEmbedder, type TransformerEmbedder } from '../src/semantic/index.ts';
import { freshHome } from '../test/helpers/stores.ts';

const PACKAGES = (process.env.BENCH_LOAD_PACKAGES ?? 'npm:zod@4.6.7,pypi:requests@2.34.2,pypi:click@8.5.1,crates:anyhow@1.0.104,go:github.com/spf13/cobra@v1.10.2').split(',');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const load1 = () => os.loadavg()[0]!.toFixed(1);

const keptHome = process.env.BENCH_HOME;
if (keptHome && !fs.existsSync(keptHome)) fs.cpSync(await freshHome(), keptHome, { recursive: true });
const home = keptHome ?? await freshHome();
// The environment's encoder settings apply (the step measured); the rest is the bench's.
const settings = { TOOLDEX_HOME: home, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_RATE_LIMIT_RPM: 1_000_000, PORT: 0, HOST: '127.0.0.1' } as const;
// BENCH_LOAD_STEPS='threads:batch:queue[:auto|off[:waitMs]],…' measures several encoder settings one after the other in this process (a
// fresh app each, the floor again beside each), so the steps are compared under the same load of a shared machine.
const steps = process.env.BENCH_LOAD_STEPS?.split(',').map((step) => {
  const [threads, batch, queue, encoder = 'auto', wait] = step.split(':');
  return { TOOLDEX_SEMANTIC_ENCODER_THREADS: threads, TOOLDEX_SEMANTIC_ENCODER_BATCH: batch, TOOLDEX_SEMANTIC_ENCODER_QUEUE: queue, TOOLDEX_SEMANTIC_ENCODER: encoder,
    ...(wait === undefined ? {} : { TOOLDEX_SEMANTIC_ENCODER_WAIT_MS: wait }) };
}) ?? [{}];
let app = await createApp(loadConfig(settings, { ...process.env, ...steps[0] }), createLogger('warn'));

// Index and wholly embed every package first: the load measures answering, not indexing.
const questions: string[] = [];
for (const tool of PACKAGES) {
  let result;
  for (;;) {
    try { result = await app.docs.search(tool, 'how do I get started', { limit: 3 }); break; } catch (error) {
      if ((error as { status?: number }).status !== 503) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  await app.docs.idle();
  const reference = `${result.slug}@${result.version}`;
  // Distinct questions in the words a reader would use: one per documented name or heading, in three phrasings.
  const names = new Set<string>();
  for (const passage of await allPassages(app.store, result.slug, result.version)) {
    const name = (passage.symbol?.split(/::|\.|\//).pop() ?? passage.headings.at(-1) ?? passage.title ?? '').replace(/[_`*#]/g, ' ').trim();
    if (name.length > 2 && name.length < 60) names.add(name.toLowerCase());
  }
  for (const name of names) {
    for (const phrasing of [`how do I use ${name}`, `what does ${name} do`, `example of ${name} with options`]) {
      questions.push(`/tools/docs/${encodeURIComponent(reference)}?q=${encodeURIComponent(phrasing)}&limit=5`);
    }
  }
}
// Interleave the packages, as many agents asking at once would.
questions.sort((a, b) => hash(a) - hash(b));
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

let next = 0;
/** Server-side time of each docs answer by ranking mode (an onSend hook below): whose answers make the p99. */
const served: Record<'semantic' | 'lexical', number[]> = { semantic: [], lexical: [] };
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!) : 0;
};
/** The encoder of this step (the same pool the app uses: one per folder and shape), for its counters. */
let encoder: TransformerEmbedder | undefined;
const run = async (url: string, label: string, connections: number, seconds: number, pick: () => string) => {
  const rankings = { semantic: 0, lexical: 0, other: 0 };
  served.semantic = []; served.lexical = [];
  const before = { ...encoder?.counters };
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url, connections, duration: seconds,
    requests: [{
      setupRequest: (request) => ({ ...request, path: pick() }),
      onResponse: (status: number, body: string) => {
        const mode = status === 200 ? /"ranking":"(\w+)"/.exec(body)?.[1] : undefined;
        if (mode === 'semantic' || mode === 'lexical') rankings[mode]++;
        else rankings.other++;
      },
    }],
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  const modes = label.startsWith('docs') ? ` ranking semantic=${rankings.semantic} lexical=${rankings.lexical}` : '';
  console.log(`load ${label.padEnd(15)} c=${String(connections).padStart(2)} ${seconds}s req/s=${Math.round(result.requests.average)} ` +
    `p50=${result.latency.p50}ms p99=${result.latency.p99}ms errors=${errors}${modes} (load ${load1()})`);
  // Where the time goes: the event loop's busy time per request (this process also runs the clients, for the floor
  // too), the whole process's CPU per request (the encoder thread included), the encoder's queue and run times per
  // question, and the server-side time of answers by ranking mode.
  const busy = performance.eventLoopUtilization(elu);
  const used = process.cpuUsage(cpu);
  const requests = Math.max(1, result.requests.total);
  let detail = `  event loop busy ${Math.round(100 * busy.utilization)}% (${(busy.active / requests).toFixed(2)} ms a request), ` +
    `process CPU ${((used.user + used.system) / 1000 / requests).toFixed(2)} ms a request`;
  if (encoder && label.startsWith('docs')) {
    const c = encoder.counters, texts = c.urgentTexts - (before.urgentTexts ?? 0);
    detail += `; encoder: ${texts} urgent texts, wait ${((c.urgentWaitMs - (before.urgentWaitMs ?? 0)) / Math.max(1, texts)).toFixed(1)} ms, ` +
      `run ${((c.urgentRunMs - (before.urgentRunMs ?? 0)) / Math.max(1, texts)).toFixed(1)} ms (sent to answered), ` +
      `model ${((c.urgentModelMs - (before.urgentModelMs ?? 0)) / Math.max(1, texts)).toFixed(1)} ms on average`;
  }
  if (label.startsWith('docs')) {
    detail += `; served semantic p50/p99 ${percentile(served.semantic, 0.5)}/${percentile(served.semantic, 0.99)} ms, ` +
      `lexical ${percentile(served.lexical, 0.5)}/${percentile(served.lexical, 0.99)} ms`;
  }
  console.log(detail);
  return result;
};
const distinct = () => {
  const round = Math.floor(next / questions.length);
  const path = questions[next++ % questions.length]!;
  return round ? path.replace('&limit=', `${encodeURIComponent(` (${round})`)}&limit=`) : path;
};
for (const [i, step] of steps.entries()) {
  if (i > 0) {
    await app.close();
    app = await createApp(loadConfig(settings, { ...process.env, ...step }), createLogger('warn'));
  }
  const config = loadConfig(settings, { ...process.env, ...step });
  // A fresh app loads each package's index and stored vectors, and starts its encoder threads, on its first question:
  // done here, one question per package, so the step measures answering and not that start.
  for (const tool of PACKAGES) await app.docs.search(tool, 'how do I get started', { limit: 3 });
  await app.docs.idle();
  encoder = config.TOOLDEX_SEMANTIC_ENCODER === 'off' ? undefined : await loadTransformerEmbedder(config.TOOLDEX_SEMANTIC_ENCODER_DIR,
    { threads: config.TOOLDEX_SEMANTIC_ENCODER_THREADS, batch: config.TOOLDEX_SEMANTIC_ENCODER_BATCH, idleMs: config.TOOLDEX_SEMANTIC_ENCODER_IDLE_MS });
  const server = await buildServer(app);
  server.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload === 'string' && request.url.startsWith('/tools/docs/')) {
      const mode = /"ranking":"(semantic|lexical)"/.exec(payload)?.[1] as 'semantic' | 'lexical' | undefined;
      if (mode) served[mode].push(reply.elapsedTime);
    }
    return payload;
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  await run(url, 'warm-up', 4, 2, distinct);
  const floor = await run(url, 'healthz-floor', CONNECTIONS, SECONDS, () => '/healthz');
  const docs = await run(url, 'docs-distinct', CONNECTIONS, SECONDS, distinct);
  await new Promise((resolve) => setTimeout(resolve, 2000)); // questions the clients left queued are answered first
  const single = await run(url, 'docs-single', 1, Math.min(SECONDS, 5), distinct);
  console.log(`load ratio threads=${config.TOOLDEX_SEMANTIC_ENCODER_THREADS} batch=${config.TOOLDEX_SEMANTIC_ENCODER_BATCH} queue=${config.TOOLDEX_SEMANTIC_ENCODER_QUEUE} wait=${config.TOOLDEX_SEMANTIC_ENCODER_WAIT_MS}ms encoder=${config.TOOLDEX_SEMANTIC_ENCODER}: ` +
    `throughput=${(100 * docs.requests.average / floor.requests.average).toFixed(1)}% of the floor (goal ≥ 8%), ` +
    `p99=${(docs.latency.p99 / Math.max(1, floor.latency.p99)).toFixed(1)}× the floor's (goal ≤ 5×); single client p50=${single.latency.p50}ms (goal < 20 ms)`);
  await server.close();
}
console.log(`${next} of ${questions.length} distinct questions used over ${PACKAGES.length} packages; machine: ${os.cpus().length} cores ` +
  `(${os.cpus()[0]?.model.trim()}), Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString().slice(0, 16)}`);
await app.close();
if (!keptHome) fs.rmSync(home, { recursive: true, force: true });
