// `node --import tsx bench/memory-tour.ts`: the resident memory of a real `tooldex serve` after a newcomer's tour —
// for each of ~20 packages: search for it, read its context, ask its docs three questions, run its test request in the
// sandbox — then idle. Prints RSS during and after: settled after the last request, and idle once the threads that stop
// when idle have stopped (TOOLDEX_SEMANTIC_ENCODER_IDLE_MS; the figure the project bounds: < 1 GB), each with the
// server's own breakdown (bench/memory-probe.mjs: V8 heap, external, array buffers; /proc: mapped files, malloc heap,
// other anonymous memory, threads), and the caches' sizes from the settings. Bounded: MEMORY_TOUR_SECONDS (default 300) ends the tour early; MEMORY_TOUR_TESTS=0
// leaves the sandbox runs out; MEMORY_HOME=dir keeps the store (downloads, indexes) between runs; MEMORY_HEAP=1 writes
// a heap snapshot of the idle server (node --heapsnapshot-signal) to look at what is held.
// Settings in the environment (TOOLDEX_SEMANTIC_ENCODER_THREADS, TOOLDEX_DOCS_INDEX_CACHE, …) reach the server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { freshHome } from '../test/helpers/stores.ts';

const PACKAGES = (process.env.MEMORY_TOUR_PACKAGES ?? [
  'npm:zod@4.6.7', 'npm:hono@4.13.19', 'npm:fastify@5.12.8', 'npm:axios@1.7.9', 'npm:commander@12.1.0', 'npm:pino@9.5.0',
  'npm:uuid@11.0.3', 'npm:dayjs@1.11.13', 'pypi:pydantic@2.14.3', 'pypi:fastapi@0.165.0', 'pypi:requests@2.34.2',
  'pypi:httpx@0.28.1', 'pypi:click@8.5.1', 'pypi:typer@0.29.2', 'crates:serde@1.0.229', 'crates:anyhow@1.0.104',
  'crates:clap@4.6.9', 'crates:itertools@0.15.0', 'go:github.com/spf13/cobra@v1.10.2', 'go:go.uber.org/zap@v1.28.0',
].join(',')).split(',');
const QUESTIONS = ['how do I get started', 'what are the configuration options', 'how are errors reported'];
const SECONDS = Number(process.env.MEMORY_TOUR_SECONDS ?? 300);
const TESTS = process.env.MEMORY_TOUR_TESTS !== '0';

const keptHome = process.env.MEMORY_HOME;
if (keptHome && !fs.existsSync(keptHome)) fs.cpSync(await freshHome(), keptHome, { recursive: true });
const home = keptHome ?? await freshHome();
const port = await new Promise<number>((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as net.AddressInfo;
    probe.close(() => resolve(free));
  });
});
const env = { ...process.env, TOOLDEX_HOME: home, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_RATE_LIMIT_RPM: '1000000', TOOLDEX_TEST_RPM: '100000' };
const config = loadConfig({}, env);
const heapDir = process.env.MEMORY_HEAP ? fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-heap-')) : '';
// The server writes its own breakdown (V8 heap, external, array buffers) here every 2 s (bench/memory-probe.mjs).
const probeFile = path.join(os.tmpdir(), `tooldex-memory-probe-${process.pid}.json`);
const child = spawn(process.execPath, [...(process.env.MEMORY_HEAP ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapDir}`] : []),
  '--import', 'tsx', '--import', path.join(import.meta.dirname, 'memory-probe.mjs'), path.join(import.meta.dirname, '../src/cli/main.ts'), 'serve'],
{ env: { ...env, MEMORY_PROBE: probeFile }, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;

/** Resident and anonymous memory of the server process, MB (/proc). */
function memory(): { rss: number; anon: number } {
  const rollup = fs.readFileSync(`/proc/${child.pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  return { rss: Math.round(kb('Rss') / 1024), anon: Math.round(kb('Anonymous') / 1024) };
}
const show = (m: { rss: number; anon: number }) => `rss=${m.rss} MB (anonymous ${m.anon} MB)`;
const MB = (bytes: number) => Math.round(bytes / 2 ** 20);
/**
 * Where the resident memory is: the process's own figures (V8 heap used, `external` — PGlite's WebAssembly memory and
 * Buffers —, of which array buffers) and, from /proc, memory mapped from files (code, the shipped models), the main
 * thread's malloc heap (brk) and other anonymous memory (V8's heap pages, other threads' malloc arenas: the encoder's
 * onnxruntime, the extraction thread's parsers), and the threads running.
 */
function breakdown(): string {
  let inside = '';
  try {
    const p = JSON.parse(fs.readFileSync(probeFile, 'utf8')) as { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
    inside = `heap ${MB(p.heapUsed)}/${MB(p.heapTotal)} MB, external ${MB(p.external)} MB (array buffers ${MB(p.arrayBuffers)} MB), `;
  } catch { /* not written yet */ }
  const sums = { file: 0, brk: 0, anon: 0 };
  let name = '';
  for (const line of fs.readFileSync(`/proc/${child.pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) { name = head[1]!; continue; }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (!rss) continue;
    const kb = Number(rss[1]);
    if (name === '[heap]') sums.brk += kb; else if (name.startsWith('/')) sums.file += kb; else sums.anon += kb;
  }
  const threads = fs.readdirSync(`/proc/${child.pid}/task`).length;
  return `${inside}mapped files ${Math.round(sums.file / 1024)} MB, malloc heap ${Math.round(sums.brk / 1024)} MB, other anonymous ${Math.round(sums.anon / 1024)} MB, ${threads} threads`;
}

const started = Date.now();
while (!(await fetch(`${base}/healthz`).then((r) => r.ok, () => false))) {
  if (Date.now() - started > 120_000) throw new Error('the server did not start');
  await new Promise((resolve) => setTimeout(resolve, 200));
}
console.log(`memory after start ${show(memory())}`);
console.log(`  ${breakdown()}`);

const deadline = Date.now() + SECONDS * 1000;
let peak = 0;
const counts = { search: 0, context: 0, docs: 0, test: 0, failed: 0 };
const call = async (kind: keyof typeof counts, url: string, init?: RequestInit) => {
  const response = await fetch(`${base}${url}`, { ...init, signal: AbortSignal.timeout(120_000) }).catch(() => undefined);
  const body = response ? await response.json().catch(() => undefined) as Record<string, unknown> | undefined : undefined;
  if (response?.ok) counts[kind]++; else counts.failed++;
  peak = Math.max(peak, memory().rss);
  return body;
};
let toured = 0;
for (const tool of PACKAGES) {
  if (Date.now() > deadline) break;
  const name = tool.slice(tool.indexOf(':') + 1, tool.lastIndexOf('@'));
  await call('search', `/tools/search?q=${encodeURIComponent(name.split('/').pop()!)}`);
  const context = await call('context', `/tools/context/${encodeURIComponent(tool)}`);
  for (const q of QUESTIONS) await call('docs', `/tools/docs/${encodeURIComponent(tool)}?q=${encodeURIComponent(q)}&limit=5`);
  const testRequest = context?.testRequest as Record<string, unknown> | null | undefined;
  if (TESTS && testRequest && Date.now() < deadline) {
    await call('test', '/tools/test', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(testRequest) });
  }
  toured++;
  console.log(`  ${tool}: ${show(memory())} (${Math.round((Date.now() - started) / 1000)} s); ${breakdown()}`);
}
// Background work the tour started (embedding passages, quickstart checks) finishes, then the server idles.
const idleFrom = Date.now();
let idle = memory();
for (let still = 0; still < 3 && Date.now() - idleFrom < 180_000;) {
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const now = memory();
  still = Math.abs(now.rss - idle.rss) < 5 ? still + 1 : 0;
  idle = now;
}
console.log(`memory tour: ${toured} of ${PACKAGES.length} packages in ${Math.round((idleFrom - started) / 1000)} s ` +
  `(search ${counts.search}, context ${counts.context}, docs ${counts.docs}, test ${counts.test}, failed ${counts.failed}); peak rss=${peak} MB`);
console.log(`memory server settled after the tour ${show(idle)}, ${Math.round((Date.now() - idleFrom) / 1000)} s after the last request`);
console.log(`  ${breakdown()}`);
// Idle: once the threads that stop when idle have stopped (the encoder's after TOOLDEX_SEMANTIC_ENCODER_IDLE_MS, the
// docs extraction thread's after TOOLDEX_DOCS_EXTRACTION_IDLE_MS), and the process has settled again. The figure the
// project bounds (< 1 GB).
const stopAfter = Math.max(config.TOOLDEX_SEMANTIC_ENCODER_IDLE_MS, config.TOOLDEX_DOCS_EXTRACTION_IDLE_MS) + 5_000;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, idleFrom + stopAfter - Date.now())));
for (let still = 0; still < 3 && Date.now() - idleFrom < stopAfter + 120_000;) {
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const now = memory();
  still = Math.abs(now.rss - idle.rss) < 5 ? still + 1 : 0;
  idle = now;
}
console.log(`memory server idle after the tour ${show(idle)} (goal < 1024 MB), ${Math.round((Date.now() - idleFrom) / 1000)} s after the last request`);
console.log(`  ${breakdown()}`);
console.log(`caches: docs package indexes ${config.TOOLDEX_DOCS_INDEX_CACHE} packages, query vectors ${config.TOOLDEX_SEMANTIC_CACHE} per encoder, ` +
  `search answers ${config.TOOLDEX_SEARCH_CACHE}; encoder threads ${config.TOOLDEX_SEMANTIC_ENCODER_THREADS}`);
if (process.env.MEMORY_HEAP) {
  child.kill('SIGUSR2');
  for (let i = 0; i < 120 && !fs.readdirSync(heapDir).some((f) => f.endsWith('.heapsnapshot')); i++) await new Promise((resolve) => setTimeout(resolve, 1000));
  await new Promise((resolve) => setTimeout(resolve, 5000));
  console.log(`heap snapshot: ${fs.readdirSync(heapDir).map((f) => path.join(heapDir, f)).join(', ')}`);
}
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
if (!keptHome) fs.rmSync(home, { recursive: true, force: true });
fs.rmSync(probeFile, { force: true });
console.log(`machine: ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString().slice(0, 16)}`);
