// `npm run bench:quickstarts`: for the most popular packages of npm, PyPI, crates and Go in the catalog, the share whose
// quickstart tooldex verified (status ran, non-empty stdout), failures by cause, and time to a verified quickstart;
// baseline from the same run: the docs' first example sent unchanged to the sandbox (what tooldex did before).
//   --limit N (per ecosystem, default 50)  --ecosystem npm,pypi  --slugs a,b  --concurrency 2  --out results.json
//   --reverify (with a kept BENCH_HOME: verify the benched versions again instead of reading the stored verdicts)
//   --reverify-only a,b (only these again)  --no-baseline (skip the baseline's sandbox run)
//   --deadline 2026-11-27T23:20Z (start no package after it; --out is rewritten after every package)
//   --rater sheet.md (the chosen quickstarts for a rater who has not seen the code: "teaches the main use / runs but
//   trivial / wrong"; no scores or features in it, so they do not lead the rating)
// Per package the rows (and --out) carry what a rater needs without the code: the chosen quickstart's program, where
// it came from (source, origin, the named score features, its rank), status, stdout, and the import lines handed
// out with whether each ran (npm and PyPI: one sandbox run that executes each line verbatim; crates and Go: the lines
// are read from the program that ran, which is checked).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDocs } from '../src/docs/index.ts';
import { createLogger } from '../src/log.ts';
import { meaningfulStdout } from '../src/quickstart/outcome.ts';
import { importLinesCheck, readImportLinesCheck } from '../src/quickstart/import-check.ts';
import { testRequestSchema } from '../src/sandbox/schema.ts';

const args = process.argv.slice(2);
const option = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const LIMIT = Number(option('limit') ?? 50);
const ECOSYSTEMS = (option('ecosystem') ?? 'npm,pypi,crates,go').split(',');
const CONCURRENCY = Number(option('concurrency') ?? 2);
const SLUGS = option('slugs')?.split(',');
const OUT = option('out');
const REVERIFY = args.includes('--reverify');
/** --reverify-only a,b: verify only these again (the rest read their stored verdicts from a kept BENCH_HOME). */
const REVERIFY_ONLY = new Set(option('reverify-only')?.split(',') ?? []);
/** --no-baseline: skip the docs' first example run (one sandbox run a package), e.g. when re-reading stored verdicts. */
const BASELINE = !args.includes('--no-baseline');
/** --rater <file.md>: per package the chosen quickstart as a rater reads it (code, source, status, stdout), blind to scores. */
const RATER = option('rater');
/** --deadline <ISO time>: no new package is started after it (a loaded machine's partial run still reports what ran). */
const DEADLINE = option('deadline') ? Date.parse(option('deadline')!) : Infinity;
/** Tools with nothing to import: bin-only npm packages, @types/* declarations, Python installers. */
const CLI_ONLY_PYPI = new Set(['pip', 'wheel', 'virtualenv', 'pipenv', 'poetry']);

const home = process.env.BENCH_HOME ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-bench-quickstarts-'));
const config = loadConfig({
  TOOLDEX_HOME: home, LOG_LEVEL: (process.env.LOG_LEVEL as 'warn' | undefined) ?? 'warn', TOOLDEX_DOCS_SITES: 'off',
  TOOLDEX_SANDBOX_CACHE_DIR: process.env.BENCH_SANDBOX_CACHE ?? path.join(os.tmpdir(), 'tooldex-bench-sandbox-cache'),
  TOOLDEX_QUICKSTART_SWEEP_SECONDS: 0, TOOLDEX_QUICKSTART_WAIT_MS: 0, TOOLDEX_QUICKSTART_CONCURRENCY: CONCURRENCY, TOOLDEX_SANDBOX_QUEUE: 256,
});
const logger = createLogger(config.LOG_LEVEL);
const app = await createApp(config, logger);
// The docs capability without verification: what GET /tools/context answered before (the baseline's quickstart).
const plainDocs = createDocs({ config, store: app.store, logger, catalog: app.catalog });

interface Row {
  slug: string; ecosystem: string; version?: string; skipped?: string;
  baseline: { status: string; ok: boolean; why?: string };
  verified: { status: string; ok: boolean; reason?: string; stdout?: string; source?: string; tried?: number; attempts?: Array<{ source: string; status: string; detail?: string }>; note?: string };
  /** The quickstart a context hands out: its program and why it was chosen (origin, score features, rank). */
  quickstart?: { code: string; language: string; offer: string; chosen?: { origin: string; score: number; signals: string[]; rank: number; of: number } };
  /** The import lines handed out and whether each ran (`from program`: read from the verified program, which ran). */
  imports?: Array<{ line: string; ran: boolean | 'from program'; detail?: string }>;
  docsMs?: number; verifyMs?: number; totalMs?: number;
}

async function pick(ecosystem: string): Promise<string[]> {
  const rows = await app.store.query<{ slug: string }>('select slug from tools where ecosystem = $1 order by popularity desc, slug limit $2', [ecosystem, LIMIT * 2]);
  return rows.map((r) => r.slug);
}

async function benchOne(slug: string): Promise<Row | undefined> {
  const started = performance.now();
  const tool = await app.catalog.resolve(slug);
  const row: Row = { slug, ecosystem: tool.ecosystem, baseline: { status: 'none', ok: false }, verified: { status: 'none', ok: false } };
  let context;
  try {
    context = await contextOf(slug);
  } catch (error) {
    row.verified = { status: 'context_error', ok: false, reason: (error as Error).message.slice(0, 200) };
    row.baseline = { status: 'context_error', ok: false };
    return row;
  }
  row.version = context.version;
  if (tool.ecosystem === 'npm' && context.entryPoints.length && context.entryPoints.every((e) => e.startsWith('bin:'))) return { ...row, skipped: 'CLI-only (bin entry points only)' };
  if (tool.ecosystem === 'npm' && tool.name.startsWith('@types/')) return { ...row, skipped: 'type declarations only' };
  if (tool.ecosystem === 'pypi' && CLI_ONLY_PYPI.has(tool.name)) return { ...row, skipped: 'installer (CLI-only)' };
  row.docsMs = performance.now() - started;
  // Baseline: today's testRequest, unchanged, in a session of its own.
  if (!BASELINE) row.baseline = { status: 'not_run', ok: false };
  else if (context.testRequest) {
    try {
      const result = await app.sandbox.run(testRequestSchema.parse(context.testRequest), 'bench:baseline');
      const meaningful = result.status === 'ran' ? meaningfulStdout(result.stdout) : { ok: false, why: result.status };
      row.baseline = { status: result.status, ok: result.status === 'ran' && meaningful.ok, why: meaningful.why };
    } catch (error) {
      row.baseline = { status: 'error', ok: false, why: (error as Error).message.slice(0, 120) };
    }
  } else row.baseline = { status: 'no_test_request', ok: false };
  const verifyStarted = performance.now();
  if (REVERIFY || REVERIFY_ONLY.has(tool.slug)) await app.store.query('delete from quickstart_verifications where slug = $1 and version = $2', [tool.slug, context.version]);
  const verification = await app.quickstarts.verifyNow({ slug: tool.slug, version: context.version, ecosystem: tool.ecosystem, name: tool.name });
  // Not a library with code to run (the same class as @types/* above): declarations only, or one platform's binary.
  const nothingToRun = /^(a types-only package|a platform binary)/.exec(verification.result?.verified.reason ?? '');
  if (verification.status === 'unverifiable' && nothingToRun) return { ...row, skipped: `${nothingToRun[1]} (nothing to run)` };
  row.verifyMs = performance.now() - verifyStarted;
  row.totalMs = (row.docsMs ?? 0) + row.verifyMs;
  const v = verification.result?.verified;
  row.verified = {
    status: verification.status, ok: verification.status === 'ran' && Boolean(v?.stdout?.trim()), reason: v?.reason,
    stdout: v?.stdout, source: verification.result?.quickstart?.source, tried: verification.result?.tried.length,
    attempts: verification.result?.tried, note: v?.note,
  };
  const result = verification.result;
  if (result?.quickstart) {
    row.quickstart = { code: result.quickstart.code, language: result.quickstart.language, offer: verification.status === 'ran' ? 'verified' : 'unverified', ...(result.chosen ? { chosen: result.chosen } : {}) };
  }
  // At the version that ran (a pin older than the context's when the sandbox cannot install that one: numpy).
  if (result?.imports?.length) row.imports = await checkImports(tool, v?.version ?? context.version, result.imports, result.quickstart?.code ?? '');
  return row;
}

/**
 * Whether each import line handed out runs. npm and PyPI: one sandbox run executes every line verbatim (each npm line
 * in a module of its own kind, .mjs for `import`, .cjs for `require`). Crates and Go: lines are only ever read from the
 * verified program (it compiled and ran), so the check is that the line is in that program.
 */
async function checkImports(tool: { slug: string; ecosystem: string; name: string }, version: string, lines: string[], program: string): Promise<NonNullable<Row['imports']>> {
  if (tool.ecosystem !== 'npm' && tool.ecosystem !== 'pypi') {
    return lines.map((line) => ({ line, ran: program.includes(line.replace(/^import\s+/, '')) ? 'from program' : false }));
  }
  const request = importLinesCheck(tool.ecosystem, { name: tool.name, version, slug: tool.slug }, lines);
  try {
    const result = await app.sandbox.run(testRequestSchema.parse(request), 'bench:imports');
    const verdicts = readImportLinesCheck(result.stdout, lines.length);
    return lines.map((line, i) => ({ line, ran: verdicts[i]?.ok ?? false, ...(verdicts[i]?.ok ? {} : { detail: verdicts[i]?.detail ?? `${result.status}: ${result.stderr.slice(0, 160)}` }) }));
  } catch (error) {
    return lines.map((line) => ({ line, ran: false, detail: (error as Error).message.slice(0, 160) }));
  }
}

/**
 * The docs context of a package, waiting while its indexing goes on in the background: on a loaded machine a large
 * module (golang.org/x/sys) takes longer than the docs deadline, which says "ask again shortly". That is a docs
 * timing, not a quickstart failure; the wait counts in the time to a verified quickstart.
 */
async function contextOf(slug: string) {
  const until = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      return await plainDocs.context(slug);
    } catch (error) {
      const retry = (error as { details?: { retryAfterSeconds?: number } }).details?.retryAfterSeconds;
      if (!retry || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, retry * 1000));
    }
  }
}

function cause(row: Row): string {
  const reason = row.verified.reason ?? row.verified.status;
  if (row.verified.status === 'context_error') return 'docs unavailable';
  if (/no usage example/.test(reason)) return 'no example';
  if (/does not install/.test(reason)) return 'does not install';
  if (/^every example/.test(reason)) return `blocked (${/every example ([^;,]+)/.exec(reason)?.[1] ?? '?'})`;
  if (/printed (nothing|only|an error)/.test(reason)) return 'printed nothing meaningful';
  if (/timeout/.test(reason)) return 'timeout';
  if (/gave up/.test(reason)) return 'infrastructure';
  if (/failed_run/.test(reason)) return 'examples fail to build or run';
  if (/failed_install/.test(reason)) return 'an example\'s extra package does not install';
  return row.verified.status;
}

const pct = (n: number, d: number) => (d ? `${Math.round((100 * n) / d)}%` : 'n/a');
const quantile = (values: number[], q: number) => { const s = [...values].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] ?? NaN; };
const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

const rows: Row[] = [];
try {
  const limit = pLimit(CONCURRENCY);
  const started = Date.now();
  const load = os.loadavg()[0]!.toFixed(1);
  console.log(`quickstart bench: ${SLUGS ? `${SLUGS.length} named packages` : `top ${LIMIT} per ecosystem of ${ECOSYSTEMS.join(', ')}`}, concurrency ${CONCURRENCY}, ${os.cpus().length} cores, load ${load}, ${new Date().toISOString()}`);
  const groups = SLUGS ? [SLUGS] : await Promise.all(ECOSYSTEMS.map(pick));
  await Promise.all(groups.map(async (slugs) => {
    let taken = 0;
    for (const slug of slugs) {
      if (taken >= (SLUGS ? slugs.length : LIMIT)) break;
      const row = await limit(() => (Date.now() > DEADLINE ? Promise.resolve(undefined) : benchOne(slug)));
      if (!row || row.skipped) { if (row?.skipped) process.stderr.write(`skip ${slug}: ${row.skipped}\n`); continue; }
      taken++;
      rows.push(row);
      if (OUT) fs.writeFileSync(OUT, JSON.stringify(rows, null, 2));
      const chosen = row.quickstart?.chosen;
      process.stderr.write(`${row.verified.ok ? 'ok  ' : 'FAIL'} ${slug}@${row.version ?? '?'} verified=${row.verified.status}${row.verified.ok ? ` (${secs(row.totalMs ?? 0)}) ${JSON.stringify(row.verified.stdout?.slice(0, 80))}` : ` ${row.verified.reason?.slice(0, 220) ?? ''}`} | baseline=${row.baseline.status}${row.baseline.ok ? ' ok' : ''}${chosen ? ` | from ${chosen.origin} #${chosen.rank}/${chosen.of} score ${chosen.score} [${chosen.signals.join('; ')}]` : ''}${row.imports?.some((l) => !l.ran) ? ` | IMPORT LINE FAILED ${row.imports.filter((l) => !l.ran).map((l) => l.line).join(' / ')}` : ''}\n`);
    }
  }));
  for (const ecosystem of [...new Set(rows.map((r) => r.ecosystem))]) {
    const of = rows.filter((r) => r.ecosystem === ecosystem);
    const ok = of.filter((r) => r.verified.ok);
    const times = ok.map((r) => r.totalMs ?? 0);
    console.log(`${ecosystem.padEnd(6)} verified ran+stdout ${ok.length}/${of.length} (${pct(ok.length, of.length)}) | baseline (docs' first example unchanged) ${of.filter((r) => r.baseline.ok).length}/${of.length} (${pct(of.filter((r) => r.baseline.ok).length, of.length)})`);
    console.log(`${ecosystem.padEnd(6)} time to verified quickstart (docs index + verification, new package) p50 ${secs(quantile(times, 0.5))} max ${secs(Math.max(0, ...times))}`);
    const causes = new Map<string, string[]>();
    for (const r of of.filter((x) => !x.verified.ok)) causes.set(cause(r), [...(causes.get(cause(r)) ?? []), r.slug]);
    console.log(`${ecosystem.padEnd(6)} failures: ${[...causes].map(([c, s]) => `${c} ${s.length} (${s.join(' ')})`).join('; ') || 'none'}`);
    const lines = of.flatMap((r) => r.imports ?? []);
    const failedLines = of.flatMap((r) => (r.imports ?? []).filter((l) => !l.ran).map((l) => `${r.slug}: ${l.line} (${l.detail ?? ''})`.slice(0, 160)));
    console.log(`${ecosystem.padEnd(6)} import lines handed out that ran: ${lines.filter((l) => l.ran).length}/${lines.length} (${pct(lines.filter((l) => l.ran).length, lines.length)})${lines.some((l) => l.ran === 'from program') ? ' (read from the verified program)' : ''}${failedLines.length ? `; failed: ${failedLines.join('; ')}` : ''}`);
    const origins = new Map<string, number>();
    for (const r of ok) origins.set(r.quickstart?.chosen?.origin ?? '?', (origins.get(r.quickstart?.chosen?.origin ?? '?') ?? 0) + 1);
    console.log(`${ecosystem.padEnd(6)} the verified quickstart came from: ${[...origins].sort((a, b) => b[1] - a[1]).map(([o, n]) => `${o} ${n}`).join(', ')}; the best-ranked candidate won in ${ok.filter((r) => r.quickstart?.chosen?.rank === 1).length}/${ok.length}`);
  }
  console.log(`wall ${secs(Date.now() - started)}, load average now ${os.loadavg()[0]!.toFixed(1)}`);
  if (OUT) fs.writeFileSync(OUT, JSON.stringify(rows, null, 2));
  if (RATER) fs.writeFileSync(RATER, raterSheet(rows));
} finally {
  await plainDocs.close();
  await app.close();
  if (!process.env.BENCH_HOME) fs.rmSync(home, { recursive: true, force: true });
  // Everything is closed: the process ends by itself. If something still holds it, say what (the timer is unref'd,
  // so it never keeps the process alive itself), rather than hiding it behind process.exit.
  setTimeout(() => {
    const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
    process.stderr.write(`still alive 10 s after closing; open resources: ${process.getActiveResourcesInfo().join(', ')}\n`);
    for (const handle of handles) process.stderr.write(`  ${describeHandle(handle)}\n`);
  }, 10_000).unref();
}

/** One section per package: what it is, the quickstart tooldex hands out, what running it printed, and a rating line. */
function raterSheet(rated: Row[]): string {
  // A fence no program or output here contains (Markdown's ``` may appear inside a README's code).
  const FENCE = '~~~~';
  const parts = [`# Quickstarts to rate (${new Date().toISOString()})\n\nFor each package: does the program **teach the main use** of the package, **run but stay trivial**, or is it **wrong** (does not run, misleads)? Write one of teaches / trivial / wrong on the rating line.\n`];
  for (const row of rated) {
    const q = row.quickstart;
    parts.push([
      `## ${row.slug}${row.version ? `@${row.version}` : ''}`, '',
      `- status: ${row.verified.status}${row.verified.reason ? ` (${row.verified.reason.slice(0, 300)})` : ''}`,
      `- source: ${row.verified.source ?? 'none'}${q?.offer ? ` (offer: ${q.offer})` : ''}`,
      ...(row.verified.note ? [`- note: ${row.verified.note.slice(0, 500)}`] : []),
      ...(row.imports?.length ? [`- import lines handed out: ${row.imports.map((l) => `\`${l.line}\``).join(', ')}`] : []),
      '', 'code:', '', `${FENCE}${q?.language ?? ''}`, q?.code ?? '(none)', FENCE, '',
      'stdout:', '', FENCE, row.verified.stdout ?? '(nothing)', FENCE, '', 'rating: ', '',
    ].join('\n'));
  }
  return parts.join('\n');
}

function describeHandle(handle: object): string {
  const h = handle as { constructor: { name: string }; spawnfile?: string; pid?: number; remoteAddress?: string; remotePort?: number; _idleTimeout?: number; fd?: number };
  if (h.pid) return `${h.constructor.name} pid ${h.pid} ${h.spawnfile ?? ''}`;
  if (h.remoteAddress) return `${h.constructor.name} ${h.remoteAddress}:${h.remotePort}`;
  return `${h.constructor.name}${h.fd !== undefined ? ` fd ${h.fd}` : ''}${h._idleTimeout ? ` timeout ${h._idleTimeout} ms` : ''}`;
}
