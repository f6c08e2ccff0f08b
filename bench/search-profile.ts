// CPU profile of GET /tools/search under the distinct-query load of bench/search.ts (32 clients, in-process), on a warm
// TOOLDEX_HOME (the first run makes it). The profile covers the load only, not the start.
//   PROF_ONLY=search PROF_OUT=/tmp/prof node --import tsx bench/search-profile.ts   # then open /tmp/prof/search.cpuprofile
//   node --import tsx bench/search-profile.ts                                       # floor and search figures only
// Each run also says what the tail is made of: the event loop's delay (p50/p99/max, perf_hooks) and the garbage
// collector's pauses (count, total, longest, by kind) during the load, and how many answers came from the answer cache.
import autocannon from 'autocannon';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { createApp } from '../src/app.ts';
import { allTools } from '../src/catalog/repository.ts';
import { loadConfig } from '../src/config.ts';
import { buildServer } from '../src/http/server.ts';
import { createLogger } from '../src/log.ts';
const config = loadConfig({ TOOLDEX_HOME: process.env.TOOLDEX_HOME ?? '/tmp/tooldex-profile-home', PORT: 0, HOST: '127.0.0.1', LOG_LEVEL: 'warn', TOOLDEX_RATE_LIMIT_RPM: 1_000_000 });
const app = await createApp(config, createLogger('warn'));
await app.catalog.semanticReady();
const tools = await allTools(app.store);
const distinct = [...new Set(tools.map((tool) => tool.shortDescription.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ')
  .split(/\s+/).filter(Boolean).slice(0, 5).join(' ')).filter((q) => q.length > 8))];
const paths = distinct.map((q) => `/tools/search?q=${encodeURIComponent(q)}`);
const server = await buildServer(app);
const url = await server.listen({ port: 0, host: '127.0.0.1' });
let next = Number(process.env.PROF_OFFSET ?? 0);
for (const [label, pick] of [['floor', () => '/healthz'], ['search', () => paths[next++ % paths.length]!]] as const) {
  if (process.env.PROF_ONLY && process.env.PROF_ONLY !== label) continue;
  const session = new Session();
  if (process.env.PROF_OUT) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const pauses: PerformanceEntry[] = [];
  const gc = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  gc.observe({ entryTypes: ['gc'] });
  loop.enable();
  const r = await autocannon({ url, connections: 32, duration: Number(process.env.PROF_SECONDS ?? 8), requests: [{ setupRequest: (q) => ({ ...q, path: pick() }) }] });
  if (process.env.PROF_OUT) {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(`${process.env.PROF_OUT}/${label}.cpuprofile`, JSON.stringify(profile));
  }
  loop.disable();
  gc.disconnect();
  console.log(label, 'req/s', Math.round(r.requests.average), 'p50', r.latency.p50, 'p99', r.latency.p99, 'errors', r.errors + r.non2xx);
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(`${label} event-loop delay p50 ${ms(loop.percentile(50))} ms p99 ${ms(loop.percentile(99))} ms max ${ms(loop.max)} ms`);
  const kinds = new Map<string, number[]>();
  for (const pause of pauses) {
    const kind = String((pause as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? '?');
    kinds.set(kind, [...(kinds.get(kind) ?? []), pause.duration]);
  }
  const total = pauses.reduce((sum, pause) => sum + pause.duration, 0);
  console.log(`${label} gc ${pauses.length} pauses, ${total.toFixed(0)} ms in all, longest ${Math.max(0, ...pauses.map((p) => p.duration)).toFixed(1)} ms; by kind (1 minor, 2 major, 4 incremental, 8 weak): ${[...kinds].map(([kind, list]) => `${kind}: ${list.length} / ${list.reduce((a, b) => a + b, 0).toFixed(0)} ms / max ${Math.max(...list).toFixed(1)}`).join('; ')}`);
}
await server.close();
await app.close();
process.exit(0);
