// `node --import tsx bench/quickstart-alternatives.ts --slugs a,b --per 3 --out alts.json --sheet sheet.md`:
// labels for learning quickstart selection. Per package, the ranked candidates are run one by one (each in the same
// way verification runs it: made into a program, repaired from its own diagnostics) until `--per` of them printed
// something meaningful or `--tries` candidates were run; each that ran becomes an alternative with a stable id
// (`<slug>#<6 hex of its program's hash>`: no rank in it, and the sheet lists a package's alternatives in id order, so
// a rater cannot tell which one selection ranks first). The sheet shows the program and its real output, blind to
// scores and features; the JSON keeps everything a fitter needs (candidate, rank, program, stdout).
//   --sheet-only (rewrite the sheet and ids from --out, run nothing)
//   --per 3 (alternatives per package)  --tries 6 (candidates run at most per package)  --concurrency 1
//   --deadline <ISO time> (start no package after it)  --main-uses main-uses.tsv (slug, main use, read from the docs)
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { createApp } from '../src/app.ts';
import { createDocs } from '../src/docs/index.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { readHostFacts } from '../src/quickstart/host-facts.ts';
import { npmExportsProbe, readNpmExports } from '../src/quickstart/imports.ts';
import { declaredParameters } from '../src/quickstart/npm-values.ts';
import { prepareCandidates, SERVICE_OWNER, tryCandidates } from '../src/quickstart/verify.ts';
import type { ScoredCandidate } from '../src/quickstart/types.ts';
import { withoutDoubtHeader, withoutDoubtNote } from '../src/quickstart/teach-model.ts';

const args = process.argv.slice(2);
const option = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const SLUGS = (option('slugs') ?? '').split(',').filter(Boolean);
const PER = Number(option('per') ?? 3);
const TRIES = Number(option('tries') ?? 6);
const CONCURRENCY = Number(option('concurrency') ?? 1);
const OUT = option('out') ?? 'alternatives.json';
const SHEET = option('sheet');
const DEADLINE = option('deadline') ? Date.parse(option('deadline')!) : Infinity;
if (SLUGS.some((s) => /fresh-r6/.test(s))) throw new Error('not a slug');
const idOf = (slug: string, source: string, program: string) => `${slug}#${createHash('sha1').update(`${source}\n${program}`).digest('hex').slice(0, 6)}`;
if (args.includes('--sheet-only')) {
  const kept = JSON.parse(fs.readFileSync(OUT, 'utf8')) as PackageRun[];
  for (const run of kept) for (const alt of run.alternatives) alt.id = idOf(alt.slug, alt.candidate.source, alt.program);
  fs.writeFileSync(OUT, JSON.stringify(kept, null, 2));
  if (SHEET) fs.writeFileSync(SHEET, sheet(kept));
  process.exit(0);
}

const home = process.env.BENCH_HOME ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-bench-alternatives-'));
const config = loadConfig({
  TOOLDEX_HOME: home, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off',
  TOOLDEX_SANDBOX_CACHE_DIR: process.env.BENCH_SANDBOX_CACHE ?? path.join(os.tmpdir(), 'tooldex-bench-sandbox-cache'),
  TOOLDEX_QUICKSTART_SWEEP_SECONDS: 0, TOOLDEX_QUICKSTART_WAIT_MS: 0, TOOLDEX_QUICKSTART_CONCURRENCY: CONCURRENCY, TOOLDEX_SANDBOX_QUEUE: 256,
  // One candidate at a time: its own repairs only (2 + the first run).
  TOOLDEX_QUICKSTART_MAX_RUNS: 3,
});
const logger = createLogger('warn');
const app = await createApp(config, logger);
// The docs capability without verification: only the version and the artifact are read from it.
const plainDocs = createDocs({ config, store: app.store, logger, catalog: app.catalog });

export interface Alternative {
  id: string; slug: string; ecosystem: string; version: string; rank: number; of: number;
  candidate: Pick<ScoredCandidate, 'origin' | 'source' | 'path' | 'score' | 'signals' | 'blockers' | 'language' | 'code' | 'owner' | 'exampleName' | 'combinedFrom'>;
  program: string; language: string; stdout: string; note?: string;
}
export interface PackageRun { slug: string; ecosystem: string; version?: string; tried: number; failed: Array<{ rank: number; source: string; detail?: string }>; alternatives: Alternative[]; error?: string }

const runs: PackageRun[] = fs.existsSync(OUT) ? JSON.parse(fs.readFileSync(OUT, 'utf8')) as PackageRun[] : [];
const done = new Set(runs.map((r) => r.slug));
const host = await app.sandbox.toolchains().then(readHostFacts);

async function one(slug: string): Promise<PackageRun> {
  const tool = await app.catalog.resolve(slug);
  const run: PackageRun = { slug: tool.slug, ecosystem: tool.ecosystem, tried: 0, failed: [], alternatives: [] };
  try {
    const version = (await plainDocs.context(slug)).version;
    run.version = version;
    const prepared = await prepareCandidates({ config }, tool, version, host);
    if (prepared.unverifiable) { run.error = prepared.unverifiable; return run; }
    const { info, candidates, through } = prepared;
    if (tool.ecosystem === 'npm') {
      const probe = await app.sandbox.run(npmExportsProbe(info), SERVICE_OWNER);
      info.npmProbe = { status: probe.status, exports: probe.status === 'ran' ? readNpmExports(probe.stdout) : undefined };
      ({ types: info.npmParamTypes, names: info.npmParamNames } = await declaredParameters(prepared.files.files));
    }
    const deps = { config, logger, sandbox: app.sandbox, keepAlive: async () => true };
    for (const [i, candidate] of candidates.entries()) {
      if (run.alternatives.length >= PER || run.tried >= TRIES) break;
      if (candidate.blockers.includes('needs network') && !candidate.localWeb) continue;
      run.tried++;
      const outcome = await tryCandidates(deps, tool, version, info, host, [candidate], through);
      const q = outcome.result.quickstart;
      if (outcome.status === 'ran' && q) {
        const c = candidate;
        run.alternatives.push({
          id: idOf(tool.slug, candidate.source, withoutDoubtHeader(q.code)), slug: tool.slug, ecosystem: tool.ecosystem, version: outcome.result.verified.version ?? version, rank: i + 1, of: candidates.length,
          candidate: { origin: c.origin, source: c.source, path: c.path, score: c.score, signals: c.signals, blockers: c.blockers, language: c.language, code: c.code, owner: c.owner, exampleName: c.exampleName, combinedFrom: c.combinedFrom },
          // The sheet is blind to the model: the program that ran and its own notes, without the doubt note
          // (teach-model.ts), which until round 15 reached the sheet's `note` line.
          program: withoutDoubtHeader(q.code), language: q.language, stdout: outcome.result.verified.stdout ?? '', note: withoutDoubtNote(outcome.result.verified.note),
        });
      } else run.failed.push({ rank: i + 1, source: candidate.source, detail: outcome.result.verified.reason?.slice(0, 200) });
    }
  } catch (error) {
    run.error = (error as Error).message.slice(0, 300);
  }
  return run;
}

try {
  const limit = pLimit(CONCURRENCY);
  console.log(`alternatives: ${SLUGS.length} packages, ${PER} per package, at most ${TRIES} tried, concurrency ${CONCURRENCY}, load ${os.loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}`);
  await Promise.all(SLUGS.filter((s) => !done.has(s)).map((slug) => limit(async () => {
    if (Date.now() > DEADLINE) return;
    const started = Date.now();
    const run = await one(slug);
    runs.push(run);
    fs.writeFileSync(OUT, JSON.stringify(runs, null, 2));
    if (SHEET) fs.writeFileSync(SHEET, sheet(runs));
    process.stderr.write(`${slug}: ${run.alternatives.length} ran of ${run.tried} tried (${((Date.now() - started) / 1000).toFixed(1)} s)${run.error ? ` error ${run.error}` : ''}\n`);
  })));
  console.log(`wall done, load ${os.loadavg()[0]!.toFixed(1)}; ${runs.reduce((n, r) => n + r.alternatives.length, 0)} alternatives over ${runs.filter((r) => r.alternatives.length).length} packages`);
} finally {
  await plainDocs.close();
  await app.close();
}

/** The rater's sheet: per package, each alternative's program and what it printed, with an id and a rating line. */
function sheet(all: PackageRun[]): string {
  const FENCE = '~~~~';
  const parts = [`# Quickstart candidates to rate (${new Date().toISOString()})\n\nEach package has 1–4 alternative programs; each ran in tooldex's sandbox and printed the output shown. For each candidate id: does the program **teach the main use** of the package, **run but stay trivial**, or is it **wrong** (misleads)? Write one of teaches / trivial / wrong on its rating line (ratings.tsv: id, slug, rating, reason).\n`];
  // A package with one program that ran is on the sheet too: whether it teaches is the ceiling for that package
  // (round 11 measured the ceiling, not only picks among several).
  for (const run of all.filter((r) => r.alternatives.length >= 1)) {
    parts.push(`## ${run.slug}@${run.alternatives[0]!.version}\n`);
    for (const alt of [...run.alternatives].sort((a, b) => a.id.localeCompare(b.id))) {
      parts.push([
        `### ${alt.id}`, '',
        `- source: ${alt.candidate.source}`,
        ...(alt.note ? [`- note: ${alt.note.slice(0, 400)}`] : []),
        '', 'code:', '', `${FENCE}${alt.language}`, alt.program, FENCE, '',
        'stdout:', '', FENCE, alt.stdout || '(nothing)', FENCE, '', 'rating: ', '',
      ].join('\n'));
    }
  }
  return parts.join('\n');
}
