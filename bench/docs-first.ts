// Where a first question's time goes, per ecosystem: a fresh store, one app (as one server process), and for each
// package its first question (the version is not indexed yet) timed in stages, then later questions: right after it (its
// passages still being embedded in the background) and once they all are.
//   node --import tsx bench/docs-first.ts                       (8 packages per ecosystem from the spent docs sets)
//   BENCH_PACKAGES=npm:zod@4.6.7,pypi:rich@15.0.0 node --import tsx bench/docs-first.ts
//   BENCH_PER_ECOSYSTEM=12 BENCH_SETS=docs-fresh-r6,docs-fresh-r5 …   (which spent sets, how many packages of each ecosystem)
//   BENCH_PROBE=1 …   (other requests while each first question runs: a question to the warm-up package, already indexed,
//   every 50 ms, timed; and the event loop's longest delay meanwhile)
//   BENCH_SETS=all BENCH_STRIDE=4 BENCH_PER_ECOSYSTEM=999 BENCH_OVERLAP=1 …   (every 4th distinct package of every spent
//   set, one after another as the quality bench asks them: each first question beside the earlier ones' background work)
// Stages: registry metadata and artifact bytes (every fetch timed to its last byte), unpack and the rest of the
// source's work (download stage less network), extraction (worker thread), storing, the package index, meaning (the
// first question's candidates embedded) and ranking. The process's own start (extraction thread, parsers, encoder
// threads) is paid once by a warm-up package that is not counted. Every line says the load average.
// Only spent sets are read (the names are listed here, never globbed).
import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { EXTRACTION_IDLE, extractionThreadRunning } from '../src/docs/extraction.ts';
import { freshHome } from '../test/helpers/stores.ts';

const SPENT = ['docs-fresh', 'docs-fresh-r4', 'docs-fresh-r5', 'docs-fresh-r6', 'docs-fresh-r7', 'docs-fresh-r8', 'docs-fresh-r9', 'docs-fresh-r10', 'docs-fresh-r11', 'docs-fresh-r12', 'docs-fresh-r13', 'docs-fresh-r14', 'docs-fresh-r15', 'docs-fresh-r16', 'docs-fresh-r17', 'docs-fresh-r18', 'docs-fresh-r19', 'docs-fresh-r20', 'docs-heldout', 'docs-tuning'];
const sets = process.env.BENCH_SETS === 'all' ? SPENT
  : (process.env.BENCH_SETS?.split(',') ?? ['docs-fresh-r6', 'docs-fresh-r5']).filter((set) => SPENT.includes(set));
/** Every k-th distinct package of an ecosystem (1: all), so a sample spans all the sets named, not the first ones. */
const stride = Math.max(1, Number(process.env.BENCH_STRIDE ?? 1));
const perEcosystem = Number(process.env.BENCH_PER_ECOSYSTEM ?? 8);
const LATER = Number(process.env.BENCH_LATER ?? 6);
const WARM_UP = process.env.BENCH_WARM_UP ?? 'npm:ms@2.1.3';
const cold = process.env.BENCH_COLD === '1';
const overlap = process.env.BENCH_OVERLAP === '1';
const probe = process.env.BENCH_PROBE === '1';
if (cold) EXTRACTION_IDLE.ms = 300;
const load1 = () => os.loadavg()[0]!.toFixed(1);

function packages(): string[] {
  if (process.env.BENCH_PACKAGES) return process.env.BENCH_PACKAGES.split(',');
  const byEcosystem = new Map<string, string[]>();
  for (const set of sets) {
    for (const line of fs.readFileSync(new URL(`./${set}.tsv`, import.meta.url), 'utf8').split('\n')) {
      const tool = line.split('\t')[0]!;
      if (!tool || tool.startsWith('#') || !tool.includes('@')) continue;
      const ecosystem = tool.split(':')[0]!;
      const list = byEcosystem.get(ecosystem) ?? [];
      if (!list.includes(tool)) list.push(tool);
      byEcosystem.set(ecosystem, list);
    }
  }
  // Ecosystems in turn (npm, PyPI, crates, Go, npm, …), so a run cut short still has all of them.
  const lists = [...byEcosystem.values()].map((list) => list.filter((_, i) => i % stride === 0).slice(0, perEcosystem));
  return Array.from({ length: Math.max(0, ...lists.map((l) => l.length)) }, (_, i) => lists.map((l) => l[i])).flat()
    .filter((tool): tool is string => Boolean(tool) && /^(npm|pypi|crates|go):/.test(tool!));
}

// Every network read, timed to its last byte: the body is read here and handed on whole.
interface FetchMark { url: string; at: number; ms: number; bytes: number }
let fetches: FetchMark[] = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
  const started = performance.now(), at = Date.now();
  const response = await realFetch(input, init);
  const body = await response.arrayBuffer();
  fetches.push({ url: String(input instanceof Request ? input.url : input), at, ms: performance.now() - started, bytes: body.byteLength });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};
const isMetadata = (url: string) => !/\.(tgz|tar\.gz|zip|whl|crate|gem)(\?|$)|\/download$|\/@v\/[^/]+\.zip$/.test(url);

// The app's own stage timings, read from its log: 'docs indexed' (download/extract/store) and 'docs answered' (debug).
let logged: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) {
      if (!line) continue;
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.msg === 'docs indexed' || entry.msg === 'docs answered' || entry.msg === 'docs stored') logged.push(entry);
        else if (Number(entry.level) >= 40) process.stderr.write(`${line}\n`);
      } catch { /* not a log line */ }
    }
    done();
  },
});
const logger = pino({ level: 'debug', base: { service: 'tooldex' } }, sink);

const home = await freshHome();
const app = await createApp(loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'debug', TOOLDEX_DOCS_SITES: 'off' }, process.env), logger);

/** BENCH_PROBE=1: the other requests, to the warm-up package (indexed before the first package). */
const PROBE_QUESTIONS = ['how do I parse a duration', 'convert milliseconds to a string', 'what does it return for invalid input', 'long format'];
const LATER_QUESTIONS = ['what are the options', 'how do I handle errors', 'example of basic usage', 'how to configure it',
  'what does it return', 'is it thread safe', 'how to parse input', 'how do I test it'];
/** Asked once the package's passages are all embedded (the background done): the steady state of later questions. */
const SETTLED_QUESTIONS = ['how do I install it', 'what is the default behaviour', 'how to read a file', 'how do I log errors',
  'can I cancel it', 'what are the limits', 'how to use it with async code', 'which errors can it raise'];

async function ask(tool: string, question: string) {
  for (;;) {
    try {
      return await app.docs.search(tool, question, { limit: 5 });
    } catch (error) {
      // A large package answers 503 "ask again shortly" while it indexes on: ask again, as a client would.
      if ((error as { status?: number }).status !== 503) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

interface Row {
  tool: string; ecosystem: string; passages: number; firstMs: number; laterMs: number[]; settledMs: number[]; load: string;
  metaMs: number; artifactMs: number; unpackMs: number; extractMs: number; storeMs: number; indexMs: number; meaningMs: number; rankMs: number; ranking: string;
  /** BENCH_PROBE=1: other requests answered while the first question ran (ms each), and the event loop's longest delay. */
  probeMs: number[]; loopMaxMs: number;
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN;
};
const ms = (n: number) => `${Math.round(n)}`.padStart(5);

async function measure(tool: string): Promise<Row> {
  fetches = []; logged = [];
  const started = performance.now(), startedAt = Date.now();
  const probeMs: number[] = [];
  let probing = probe;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  if (probe) delay.enable();
  // Each other request is due 50 ms after the last one's answer and timed from then (as a client's request sent then
  // would wait for a blocked event loop, whether it blocks before or during its answer).
  const prober = (async () => {
    let n = 0, due = performance.now();
    while (probing) {
      await ask(WARM_UP, PROBE_QUESTIONS[n++ % PROBE_QUESTIONS.length]!);
      probeMs.push(performance.now() - due);
      due = performance.now() + 50;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  // Stalls of the event loop over 250 ms while the first question runs: when (ms after it was asked) and how long.
  const stalls: string[] = [];
  let tick = performance.now();
  const ticker = probe ? setInterval(() => {
    const now = performance.now();
    if (now - tick > 260) stalls.push(`${Math.round(tick - started)}+${Math.round(now - tick - 10)}`);
    tick = now;
  }, 10) : undefined;
  const first = await ask(tool, 'how do I get started');
  const firstMs = performance.now() - started;
  probing = false;
  clearInterval(ticker);
  await prober;
  delay.disable();
  const loopMaxMs = probe ? delay.max / 1e6 : 0;
  const indexed = logged.find((e) => e.msg === 'docs indexed') ?? {};
  const answered = logged.filter((e) => e.msg === 'docs answered').at(-1) ?? {};
  const meta = fetches.filter((f) => isMetadata(f.url)), artifact = fetches.filter((f) => !isMetadata(f.url));
  const sum = (marks: FetchMark[]) => marks.reduce((a, f) => a + f.ms, 0);
  const downloadMs = Number(indexed.downloadMs ?? 0);
  // The release list is fetched before ingestion; the source's own metadata reads and downloads are inside downloadMs.
  const ingestStart = Number(indexed.time ?? 0) - Number(indexed.ms ?? 0);
  const laterMs: number[] = [];
  for (const question of LATER_QUESTIONS.slice(0, LATER)) {
    const at = performance.now();
    await ask(tool, question);
    laterMs.push(performance.now() - at);
  }
  // BENCH_OVERLAP=1: the background embedding is left running into the next package's first question (no settled
  // questions), as in the quality bench and a server taking new versions one after another.
  if (!overlap) await app.docs.idle();
  const settledMs: number[] = [];
  for (const question of SETTLED_QUESTIONS.slice(0, overlap ? 0 : LATER)) {
    const at = performance.now();
    await ask(tool, question);
    settledMs.push(performance.now() - at);
  }
  const row: Row = {
    tool, ecosystem: tool.split(':')[0]!, passages: Number(indexed.passages ?? 0), firstMs, laterMs, settledMs, load: load1(),
    metaMs: sum(meta), artifactMs: sum(artifact),
    // Unpack and the source's other work: its download stage less the network reads made inside it.
    unpackMs: Math.max(0, downloadMs - sum(fetches.filter((f) => f.at >= ingestStart))),
    extractMs: Number(indexed.extractMs ?? 0), storeMs: Number(indexed.storeMs ?? 0),
    indexMs: Number(answered.indexMs ?? 0), meaningMs: Number(answered.meaningMs ?? 0), rankMs: Number(answered.rankMs ?? 0),
    ranking: String(first.ranking), probeMs, loopMaxMs,
  };
  console.log(`${tool.padEnd(52)} first ${ms(firstMs)} ms = meta ${ms(row.metaMs)} + artifact ${ms(row.artifactMs)} + unpack ${ms(row.unpackMs)} + ` +
    `extract ${ms(row.extractMs)} + store ${ms(row.storeMs)} + index ${ms(row.indexMs)} + meaning ${ms(row.meaningMs)} + rank ${ms(row.rankMs)} ` +
    `(${row.passages} passages, ${row.ranking}); later p50 ${percentile(laterMs, 0.5).toFixed(1)} ms, once embedded ${percentile(settledMs, 0.5).toFixed(1)} ms (load ${row.load})` +
    (probe ? `; meanwhile ${probeMs.length} other requests p50 ${percentile(probeMs, 0.5).toFixed(0)} p95 ${percentile(probeMs, 0.95).toFixed(0)} max ${Math.max(0, ...probeMs).toFixed(0)} ms, loop delay max ${loopMaxMs.toFixed(0)} ms, stalls ${stalls.join(' ') || 'none'}` +
      logged.filter((e) => e.msg === 'docs stored').map((e) => `; ${String(e.slug)} stored ${Number(e.time) - Number(e.storeMs) - startedAt}+${String(e.storeMs)}`).join('') : ''));
  return row;
}

console.log(`start${cold ? ' (cold: extraction thread stopped before each package)' : ''} ${new Date().toISOString().slice(0, 16)} load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const warm = performance.now();
await ask(WARM_UP, 'how do I get started');
console.log(`warm-up ${WARM_UP} ${Math.round(performance.now() - warm)} ms (the process's start: extraction thread, parsers, encoder; not counted)`);
await app.docs.idle();
const rows: Row[] = [];
for (const tool of packages()) {
  try {
    rows.push(await measure(tool));
  } catch (error) {
    console.log(`${tool} failed: ${(error as Error).message}`);
  }
  // Each package starts as a lone first question would: the previous one's background embedding is not in its time.
  if (!overlap) await app.docs.idle();
  // BENCH_COLD=1: as a server whose last new version came minutes ago, each first question finds the extraction thread
  // stopped (its idle timeout passed); TOOLDEX_SEMANTIC_ENCODER_IDLE_MS=500 does the same for the encoder's threads.
  if (cold) while (extractionThreadRunning()) await new Promise((resolve) => setTimeout(resolve, 100));
}
const stages = ['metaMs', 'artifactMs', 'unpackMs', 'extractMs', 'storeMs', 'indexMs', 'meaningMs', 'rankMs'] as const;
for (const ecosystem of [...new Set(rows.map((r) => r.ecosystem))]) {
  const mine = rows.filter((r) => r.ecosystem === ecosystem);
  const worst = mine.reduce((a, b) => (b.firstMs > a.firstMs ? b : a));
  console.log(`${ecosystem.padEnd(7)} first p50 ${Math.round(percentile(mine.map((r) => r.firstMs), 0.5))} ms max ${Math.round(worst.firstMs)} ms (${worst.tool}); ` +
    `later p50 ${percentile(mine.flatMap((r) => r.laterMs), 0.5).toFixed(1)} ms (right after), ${percentile(mine.flatMap((r) => r.settledMs), 0.5).toFixed(1)} ms (once embedded); n=${mine.length}; stage p50: ` +
    stages.map((s) => `${s.replace('Ms', '')} ${Math.round(percentile(mine.map((r) => r[s]), 0.5))}`).join(', '));
}
// Over every package: the distribution, and where the slowest first questions' time went.
const all = rows.map((r) => r.firstMs);
console.log(`all     first p50 ${Math.round(percentile(all, 0.5))} ms p90 ${Math.round(percentile(all, 0.9))} ms max ${Math.round(Math.max(...all))} ms; ` +
  `over 5 s: ${all.filter((v) => v > 5000).length}, over 2 s: ${all.filter((v) => v > 2000).length}; n=${rows.length}`);
if (probe) {
  const other = rows.flatMap((r) => r.probeMs);
  console.log(`other requests during first questions: n=${other.length} p50 ${percentile(other, 0.5).toFixed(0)} ms p95 ${percentile(other, 0.95).toFixed(0)} ms ` +
    `p99 ${percentile(other, 0.99).toFixed(0)} ms max ${Math.max(0, ...other).toFixed(0)} ms; event loop delay max per package: ${rows.map((r) => Math.round(r.loopMaxMs)).join(' · ')} ms`);
}
for (const r of [...rows].sort((a, b) => b.firstMs - a.firstMs).slice(0, 8)) {
  console.log(`slowest ${r.tool.padEnd(48)} ${ms(r.firstMs)} ms: ${stages.map((s) => `${s.replace('Ms', '')} ${Math.round(r[s])}`).join(', ')} (${r.passages} passages, load ${r.load})`);
}
console.log(`end ${new Date().toISOString().slice(0, 16)} load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${os.cpus().length} cores, Node ${process.version}`);
await app.close();
fs.rmSync(home, { recursive: true, force: true });
process.exit(0);
