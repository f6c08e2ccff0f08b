// `node --import tsx bench/quickstart-ranks.ts --slugs a,b [--top 4] [--out ranks.md]`: how quickstart selection ranks
// each package's candidates, without any sandbox run (collect, combine, score and order only). The top candidates
// with their score features, for judging selection (does the first one teach the package's main use?) in seconds
// instead of the sandbox builds `bench:quickstarts` needs. Candidates are tried in this order; the first that runs
// and prints something meaningful wins, so the first few are what a context would hand out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { readHostFacts } from '../src/quickstart/host-facts.ts';
import { calledNames, docsCallCounts, readmeLeadNames } from '../src/quickstart/score.ts';
import { prepareCandidates, readmeText } from '../src/quickstart/verify.ts';
import { textOf } from '../src/docs/archive.ts';

const args = process.argv.slice(2);
const option = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const SLUGS = option('slugs')?.split(',').filter(Boolean) ?? [];
const TOP = Number(option('top') ?? 4);
const OUT = option('out');
/**
 * --lead-out file: each package's README lead examples' called names (score.ts readmeLeadNames) and how many of its
 * own examples call each name (score.ts docsCallCounts): the teach fit's inputs. An existing file is extended (packages
 * already in it are skipped), and it is written after each package, so a long run can be stopped and resumed.
 */
const LEAD_OUT = option('lead-out');
/**
 * --mentions (with --lead-out): also each package's `mentions`, how often each name is written as code across its
 * README and the documentation files it ships (textMentions), and `order`, the first README example calling each name
 * (readmeOrder). A package already in the file keeps its lead and docs counts (read from the version of their day)
 * and only gains these. Round 15 tried a teach feature on each (`textShare`, `readmeOrder`); neither won
 * forward-chaining (docs/quickstarts.md, "Round 15: selection"). Kept for the next try.
 */
const MENTIONS = args.includes('--mentions');
const leads: Record<string, { version: string; lead: string[]; docs?: { examples: number; calls: Record<string, number> }; mentions?: Record<string, number>; order?: { examples: number; first: Record<string, number> } }> = LEAD_OUT && fs.existsSync(LEAD_OUT) ? JSON.parse(fs.readFileSync(LEAD_OUT, 'utf8')) : {};

/**
 * How often each name is written as code across the README and the documentation files the artifact ships (Markdown,
 * reStructuredText, text; each cut at 200,000 characters): in prose and examples alike, what a reader of the
 * package's own pages meets most. The 600 most frequent names, to bound the file.
 */
function textMentions(files: Awaited<ReturnType<typeof prepareCandidates>>['files']): Record<string, number> {
  const docs = files.files.filter((f) => /\.(md|markdown|rst|txt)$/i.test(f.path) && !/readme/i.test(f.path.split('/').pop() ?? '')).map((f) => textOf(f).slice(0, 200_000));
  const counts = new Map<string, number>();
  // Written as code only: called (`Host(`), reached through a value or module (`.Host`, `::Host`), or inline code
  // (`` `Host` ``), so that a name that is also a prose word ("Go", "open") counts where the text means the API.
  const code = /(?<=[.:]|`)[A-Za-z_]\w+|[A-Za-z_]\w+(?=\s*\(|`)/g;
  for (const text of [readmeText(files) ?? '', ...docs]) for (const [word] of text.matchAll(code)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, 600));
}

/**
 * The README's examples in page order (as readmeLeadNames reads them) and, per called name, the first example that
 * calls it (0-based): the author shows the main use first and side features further down.
 */
function readmeOrder(ranked: Awaited<ReturnType<typeof prepareCandidates>>['ranked']): { examples: number; first: Record<string, number> } {
  const line = (c: (typeof ranked)[number]) => Number(/#L(\d+)/.exec(c.source)?.[1] ?? Number.MAX_SAFE_INTEGER);
  const readme = ranked.filter((c) => c.origin === 'readme' && !c.combinedFrom?.length && !c.localWeb).sort((a, b) => line(a) - line(b));
  const first = Object.create(null) as Record<string, number>; // no prototype: `constructor` is a name examples call
  readme.forEach((c, i) => { for (const n of calledNames(c.code)) first[n] ??= i; });
  return { examples: readme.length, first };
}

const home = process.env.BENCH_HOME ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-bench-ranks-'));
const config = loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_QUICKSTART_SWEEP_SECONDS: 0 });
const app = await createApp(config, createLogger(config.LOG_LEVEL));
const host = await readHostFacts(await app.sandbox.toolchains());
const lines: string[] = [];
for (const slug of SLUGS) {
  if (LEAD_OUT && !OUT && leads[slug]?.docs && (!MENTIONS || leads[slug]?.order)) continue;
  try {
    const tool = await app.catalog.resolve(slug);
    // The catalog's version can be null for a record the registry build did not date; the docs resolve the latest.
    const version = tool.version ?? (await app.docs.prepare(slug)).version;
    const prepared = await prepareCandidates({ config }, tool, version, host);
    leads[slug] = { ...{ version, lead: readmeLeadNames(prepared.ranked), docs: docsCallCounts(prepared.ranked) }, ...leads[slug], ...(MENTIONS ? { mentions: textMentions(prepared.files), order: readmeOrder(prepared.ranked) } : {}) };
    if (LEAD_OUT) fs.writeFileSync(LEAD_OUT, `${JSON.stringify(leads, null, 1)}\n`);
    lines.push(`## ${slug}@${version} (${prepared.candidates.length} candidates)${prepared.unverifiable ? ` unverifiable: ${prepared.unverifiable}` : ''}`);
    for (const [i, c] of prepared.candidates.slice(0, TOP).entries()) {
      lines.push(`### #${i + 1} ${c.origin} ${c.path} score ${c.score} [${c.signals.join('; ')}]`, '```', c.code.split('\n').slice(0, 30).join('\n'), '```');
    }
  } catch (error) {
    lines.push(`## ${slug}: ${(error as Error).message}`);
  }
  process.stderr.write(`${slug}\n`);
}
if (LEAD_OUT) fs.writeFileSync(LEAD_OUT, `${JSON.stringify(leads, null, 1)}\n`);
if (OUT) fs.writeFileSync(OUT, `${lines.join('\n')}\n`); else process.stdout.write(`${lines.join('\n')}\n`);
await app.close();
