// `npm run bench:docs:coverage`: how much of the ecosystem docs search covers, measured over the most popular catalog
// packages instead of a question set (so it cannot be tuned to a few questions). For the top N tools of each ecosystem
// (the catalog's popularity order) it indexes the latest version through the docs capability and reports per
// ecosystem: packages with zero passages (each with the reason), the share of the package's public API items that
// have a passage with explanatory text, against what the package itself declares public (src/docs/extract/declared-api.ts),
// the share of its shipped guide files indexed, and the time to index (p50/max).
//
//   npm run bench:docs:coverage -- [--top 100] [--ecosystems npm,pypi,crates,go] [--only npm:lodash,go:gorm.io/gorm]
//                                  [--concurrency 1] [--home DIR] [--out FILE] [--budget-s SECONDS]
// --budget-s bounds a run: packages not started by then are left out (and listed as such); the report is rewritten
// every 20 packages, so a run stopped early still leaves one.
//
// --home (or BENCH_HOME) keeps the store and a cache of the raw-artifact measurements between runs: a re-run with the
// same extractor reads the stored passages and reports the index times measured when they were made. The report
// (JSON and Markdown, beside --out, default <home>/docs-coverage.{json,md}) lists every package it used.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { parse as parseToml } from 'smol-toml';
import { createApp } from '../src/app.ts';
import type { Ecosystem } from '../src/catalog/types.ts';
import { loadConfig } from '../src/config.ts';
import { declaredGoApi, declaredNpmApi, declaredPythonApi, declaredRustApi, type DeclaredItem } from '../src/docs/extract/declared-api.ts';
import { hasExplanation } from '../src/docs/extract/evidence.ts';
import { codeUses } from '../src/docs/links.ts';
import { loadParsers } from '../src/docs/extract/treesitter.ts';
import { EXTRACTOR_VERSIONS, extractorVersion } from '../src/docs/extraction.ts';
import { importNameOf, ownMetadata } from '../src/docs/sources/pypi.ts';
import { allPassages, type StoredPassage } from '../src/docs/repository.ts';
import { createLogger } from '../src/log.ts';
import { freshHome } from '../test/helpers/stores.ts';
import { rawArtifact, typesArtifact } from './docs-artifacts.ts';

const { values: args } = parseArgs({ options: {
  top: { type: 'string', default: process.env.COVERAGE_TOP ?? '100' },
  ecosystems: { type: 'string', default: 'npm,pypi,crates,go' },
  only: { type: 'string' },
  // One at a time by default: concurrent first questions share the extraction thread and the registry slots, so their
  // index times include waiting for each other.
  concurrency: { type: 'string', default: '1' },
  home: { type: 'string', default: process.env.BENCH_HOME },
  'budget-s': { type: 'string' },
  out: { type: 'string' },
} });
const top = Number(args.top);
const ecosystems = args.ecosystems!.split(',').map((e) => e.trim()).filter(Boolean);
const only = args.only?.split(',').map((s) => s.trim());

const home = args.home ?? path.join(os.tmpdir(), 'tooldex-coverage');
// An existing home is reused as it is (its store and cache); a new one starts as a migrated store with the catalog.
if (!fs.existsSync(home) || !fs.readdirSync(home).length) fs.cpSync(await freshHome(), home, { recursive: true });
const out = args.out ?? path.join(home, 'docs-coverage.json');
const cacheFile = path.join(home, 'coverage-cache.json');

/** Raw-artifact facts and index times, per `slug@version` (index times per extractor version). */
/** Bumped when what counts as declared public API changes, so cached raw-artifact measurements are made again. */
const DECLARED_VERSION = 4;
interface Cached {
  declaredVersion?: number; declared?: DeclaredItem[]; declaredFrom?: string; guides?: string[]; shape?: string; indexMs?: Record<string, number>;
  /** Declared items whose name a shipped guide file or README mentions anywhere (prose or code): documented somewhere. */
  mentioned?: string[];
}
const cache: Record<string, Cached> = fs.existsSync(cacheFile) ? JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as Record<string, Cached> : {};
const saveCache = () => fs.writeFileSync(cacheFile, JSON.stringify(cache));

// Sites off: the published artifacts are measured, and docs sites are not reachable from these machines.
const app = await createApp(loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_SEMANTIC_ENCODER: 'off' }, {}), createLogger('warn'));

interface Tool { slug: string; ecosystem: Ecosystem; name: string }
const tools: Tool[] = [];
for (const ecosystem of ecosystems) {
  const rows = await app.store.query<Tool>('select slug, ecosystem, name from tools where ecosystem = $1 order by popularity desc, slug limit $2', [ecosystem, top]);
  tools.push(...rows.filter((t) => !only || only.includes(`${t.ecosystem}:${t.name}`)));
}

const GUIDE = /\.(md|mdx|markdown|rst)$/i;
const NOT_GUIDE = /^(changelog|changes|history|license|licence|code_of_conduct|contributing|security|authors|notice|funding|support|maintainers)/i;
/** The guide files a package ships: its Markdown/reST outside tests, fixtures, vendored code and release notes. */
function shippedGuides(files: Map<string, string>): string[] {
  return [...files.keys()].filter((p) => GUIDE.test(p) && !NOT_GUIDE.test(p.split('/').pop()!)
    && !/(^|\/)(node_modules|\.git|\.github|tests?|__tests__|testdata|vendor|fixtures?|benchmarks?|changelog|changes|release[-_]?notes|whatsnew|history|[^/]+\.dist-info)\//i.test(p));
}

/** What kind of package it is, to say why one has no passages. */
function shapeOf(ecosystem: string, files: Map<string, string>): string {
  const paths = [...files.keys()];
  const count = (re: RegExp) => paths.filter((p) => re.test(p)).length;
  const readme = paths.some((p) => /^readme(\.\w+)?$/i.test(p.split('/').pop()!) && p.split('/').length <= 2);
  const code = ecosystem === 'npm' ? `${count(/\.d\.(ts|mts|cts)$/)} .d.ts, ${count(/\.(c|m)?js$/)} .js`
    : ecosystem === 'pypi' ? `${count(/\.py$/)} .py, ${count(/\.pyi$/)} .pyi` : ecosystem === 'crates' ? `${count(/\.rs$/)} .rs` : `${count(/\.go$/)} .go`;
  return `${files.size} files, README ${readme ? 'yes' : 'no'}, ${count(GUIDE)} md/rst, ${code}`;
}

async function declaredOf(tool: Tool, version: string, files: Map<string, string>): Promise<{ declared: DeclaredItem[]; from: string }> {
  switch (tool.ecosystem) {
    case 'npm': {
      const own = await declaredNpmApi(files);
      if (own.length) return { declared: own, from: 'own types' };
      const types = await typesArtifact(tool.name, version).catch(() => undefined);
      if (!types) return { declared: [], from: 'no types, no @types' };
      return { declared: await declaredNpmApi(types.files), from: `@types/${tool.name.replace(/^@/, '').replace('/', '__')}@${types.version}` };
    }
    case 'pypi': {
      const parsers = await loadParsers(['python']);
      const topLevel = ownMetadata([...files.keys()].map((path) => ({ path })), 'top_level.txt');
      const names = (topLevel ? files.get(topLevel.path)! : '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('_'));
      const initDirs = [...files.keys()].map((f) => /^(?:src\/)?([A-Za-z_]\w*)\/__init__\.py$/.exec(f)?.[1]).filter((d): d is string => Boolean(d));
      const guess = names.length ? names : [importNameOf(tool.name, undefined, initDirs)];
      return { declared: guess.flatMap((name) => declaredPythonApi(parsers, files, name)), from: guess.join(',') };
    }
    case 'crates': {
      let libPath: string | undefined;
      let crate = tool.name.replace(/-/g, '_');
      try {
        const cargo = parseToml(files.get('Cargo.toml') ?? '') as { lib?: { path?: string; name?: string } };
        libPath = cargo.lib?.path?.replace(/^\.\//, '');
        crate = cargo.lib?.name ?? crate;
      } catch { /* defaults */ }
      const rs = new Map([...files].filter(([p]) => /\.(rs|md)$/.test(p)));
      return { declared: await declaredRustApi(await loadParsers(['rust']), rs, crate, libPath), from: 'pub items from the crate root' };
    }
    case 'go':
      return { declared: declaredGoApi(await loadParsers(['go']), files), from: 'exported identifiers' };
    default:
      return { declared: [], from: 'unsupported' };
  }
}

const lastOf = (item: DeclaredItem) => item.name.split(/::|\./).pop()!;
const parentOf = (item: DeclaredItem) => item.name.split(/::|\./).slice(-2, -1)[0]?.toLowerCase();

/** Declared items (by name) that a guide section explaining in prose uses in its code; see the caller. */
function guideUses(passages: StoredPassage[], declared: DeclaredItem[]): Set<string> {
  const byName = new Map<string, DeclaredItem[]>();
  for (const item of declared) byName.set(lastOf(item), [...(byName.get(lastOf(item)) ?? []), item]);
  const used = new Set<string>();
  for (const p of passages) {
    if (p.symbol || !hasExplanation(p.content)) continue;
    for (const use of codeUses(p.content, p.headings.length > 1 ? p.headings[p.headings.length - 1] : undefined)) {
      const candidates = byName.get(use.name) ?? [];
      const qualified = use.qualifier ? candidates.filter((item) => parentOf(item) === use.qualifier!.toLowerCase()) : [];
      const pool = qualified.length ? qualified : candidates.length <= 3 ? candidates : [];
      const chosen = [...pool].sort((a, b) => a.name.length - b.name.length)[0];
      if (chosen) used.add(chosen.name);
    }
  }
  return used;
}

/** Declared items whose name is a word of some shipped guide file or README: the artifact documents them somewhere. */
function mentionedIn(files: Map<string, string>, declared: DeclaredItem[]): string[] {
  const words = new Set<string>();
  for (const [file, text] of files) if (GUIDE.test(file) || /(^|\/)readme(\.\w+)?$/i.test(file)) for (const word of text.match(/[A-Za-z_$][\w$]*/g) ?? []) words.add(word);
  return declared.filter((item) => words.has(lastOf(item))).map((item) => item.name);
}

/** Whether an item has a passage that explains it: the passage's symbol names it (Go, crates: the whole path). */
function covers(ecosystem: string, item: DeclaredItem, explaining: Map<string, boolean>): boolean {
  if (ecosystem === 'crates') return explaining.get(item.where) === true;
  return explaining.get(item.name) === true;
}

interface Row {
  ecosystem: string; name: string; version?: string; passages: number; error?: string; reason?: string;
  api: { declared: number; explained: number; withGuides: number; from: string; missing: string[]; unexplainedMentioned?: number }; guides: { shipped: number; indexed: number; missing: string[] };
  indexMs?: number; shape?: string; finished?: boolean;
}

const rows: Row[] = [];
const limit = pLimit(Math.max(1, Number(args.concurrency)));
const budgetMs = args['budget-s'] ? Number(args['budget-s']) * 1000 : Infinity;
const notRun: string[] = [];
const started = Date.now();
let done = 0;
await Promise.all(tools.map((tool) => limit(async () => {
  if (Date.now() - started > budgetMs) { notRun.push(`${tool.ecosystem}:${tool.name}`); return; }
  const row: Row = { ecosystem: tool.ecosystem, name: tool.name, passages: 0, api: { declared: 0, explained: 0, withGuides: 0, from: '', missing: [], unexplainedMentioned: 0 }, guides: { shipped: 0, indexed: 0, missing: [] } };
  rows.push(row);
  try {
    // Only a run that indexes (not one that finds the passages stored by this extractor) measures the time to index.
    const stored = await app.store.query<{ version: string }>("select version from docs_versions where slug = $1 and status = 'ready' and extractor >= $2", [tool.slug, extractorVersion(tool.ecosystem)]);
    const t0 = performance.now();
    // A large package answers 503 (still indexing, in the background) after 20 s: ask again, as a client would.
    const prepare = async (): Promise<Awaited<ReturnType<typeof app.docs.prepare>>> => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await app.docs.prepare(tool.slug);
        } catch (error) {
          if ((error as { status?: number }).status !== 503 || attempt > 60) throw error;
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
    };
    const prepared = await prepare();
    const ms = performance.now() - t0;
    row.version = prepared.version;
    const key = `${tool.slug}@${prepared.version}`;
    const entry = (cache[key] ??= {});
    const extractor = extractorVersion(tool.ecosystem);
    if (!stored.some((s) => s.version === prepared.version) || !entry.indexMs?.[extractor]) (entry.indexMs ??= {})[extractor] = Math.round(ms);
    row.indexMs = entry.indexMs[extractor];
    const passages: StoredPassage[] = await allPassages(app.store, tool.slug, prepared.version);
    row.passages = passages.length;
    if (!entry.declared || !entry.guides || entry.declaredVersion !== DECLARED_VERSION) {
      const files = await rawArtifact(tool.ecosystem, tool.name, prepared.version, undefined);
      const { declared, from } = await declaredOf(tool, prepared.version, files);
      Object.assign(entry, { declaredVersion: DECLARED_VERSION, declared, declaredFrom: from, guides: shippedGuides(files), shape: shapeOf(tool.ecosystem, files), mentioned: mentionedIn(files, declared) });
      saveCache();
    }
    row.shape = entry.shape;
    const explaining = new Map<string, boolean>();
    const note = (key: string, explains: boolean) => explaining.set(key, explaining.get(key) === true || explains);
    for (const p of passages) {
      if (!p.symbol) continue;
      const explains = hasExplanation(p.content);
      note(p.symbol, explains);
      const segments = p.symbol.split(/::|\.|\//);
      note(segments[segments.length - 1]!, explains);
    }
    const declared = entry.declared!;
    const missing = declared.filter((item) => !covers(tool.ecosystem, item, explaining));
    // Documented in a guide: a guide or README section that explains in prose uses the item in its code (or names it in
    // its heading, `### expand(str)`, or in bold before its parameters, "**getLineInfo**`(input, offset)`"), resolved as
    // answers link sections to items (src/docs/links.ts): the call's name, told apart by the qualifier written before
    // it (`session.get(` → Session.get); a bare name shared by more than three declared items counts for none.
    const inGuides = guideUses(passages, declared);
    const missingEverywhere = missing.filter((item) => !inGuides.has(item.name));
    const mentioned = new Set(entry.mentioned ?? []);
    row.api = { declared: declared.length, explained: declared.length - missing.length, withGuides: declared.length - missingEverywhere.length, from: entry.declaredFrom ?? '',
      unexplainedMentioned: missingEverywhere.filter((item) => mentioned.has(item.name)).length, missing: missingEverywhere.map((m) => m.name) };
    const sources = new Set(passages.map((p) => p.source));
    const guides = entry.guides!;
    const guideMissing = guides.filter((g) => !sources.has(g));
    row.guides = { shipped: guides.length, indexed: guides.length - guideMissing.length, missing: guideMissing.slice(0, 10) };
    if (!passages.length) row.reason = `indexed, nothing extracted (${entry.shape})`;
  } catch (error) {
    row.error = (error as Error).message.slice(0, 300);
    row.reason = `failed: ${row.error}`;
  }
  row.finished = true;
  done++;
  if (done % 10 === 0 || done === tools.length) console.error(`  ${done}/${tools.length} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (done % 20 === 0) writeReport(false);
})));
await app.close();
writeReport(true);

function writeReport(final: boolean): void {
  const finished = rows.filter((r) => r.finished);
  const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))] ?? NaN;
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : 'n/a');
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  const summary = ecosystems.map((ecosystem) => {
    const list = finished.filter((r) => r.ecosystem === ecosystem).sort((a, b) => a.name.localeCompare(b.name));
    const withApi = list.filter((r) => r.api.declared > 0);
    const declared = withApi.reduce((s, r) => s + r.api.declared, 0);
    const explained = withApi.reduce((s, r) => s + r.api.explained, 0);
    const withGuides = withApi.reduce((s, r) => s + r.api.withGuides, 0);
    const unexplained = declared - withGuides;
    const unexplainedMentioned = withApi.reduce((s, r) => s + (r.api.unexplainedMentioned ?? 0), 0);
    const perPackageWithGuides = withApi.map((r) => r.api.withGuides / r.api.declared);
    const perPackage = withApi.map((r) => r.api.explained / r.api.declared);
    const shipped = list.reduce((s, r) => s + r.guides.shipped, 0);
    const indexed = list.reduce((s, r) => s + r.guides.indexed, 0);
    const times = list.map((r) => r.indexMs).filter((t): t is number => t !== undefined);
    return {
      ecosystem, packages: list.length, zeroPassages: list.filter((r) => !r.passages).map((r) => ({ name: r.name, version: r.version, reason: r.reason })),
      api: { packagesWithDeclaredApi: withApi.length, declared, explained, share: declared ? explained / declared : null, withGuides, shareWithGuides: declared ? withGuides / declared : null,
        packageMedianShare: perPackage.length ? percentile(perPackage, 0.5) : null, packagesAt95: perPackage.filter((s) => s >= 0.95).length,
        packageMedianWithGuides: perPackageWithGuides.length ? percentile(perPackageWithGuides, 0.5) : null, packagesAt95WithGuides: perPackageWithGuides.filter((s) => s >= 0.95).length,
        unexplained, unexplainedMentioned },
      guides: { shipped, indexed, share: shipped ? indexed / shipped : null },
      indexMs: { p50: percentile(times, 0.5), max: Math.max(...times), slowest: list.find((r) => r.indexMs === Math.max(...times))?.name },
    };
  });
  const report = { date: new Date().toISOString(), extractor: EXTRACTOR_VERSIONS, top, complete: final && !notRun.length, notRun, machine: `${os.cpus().length} cores, load ${load}`, summary, packages: [...finished].sort((a, b) => a.ecosystem.localeCompare(b.ecosystem) || a.name.localeCompare(b.name)) };
  fs.writeFileSync(out, JSON.stringify(report, null, 2));

  const md: string[] = [`# Docs coverage, top ${top} per ecosystem (${report.date.slice(0, 16)} UTC, extractor ${Object.entries(EXTRACTOR_VERSIONS).map(([e, v]) => `${e} ${v}`).join(', ')}, ${report.machine})`, '',
    '| ecosystem | packages | zero passages | API items explained by their API passage | … or used in a guide section\'s code | packages ≥ 95 % (API passage / + guides) | median package (API passage / + guides) | still unexplained, named in a shipped guide/README | guide files indexed | index p50 / max |', '|---|---|---|---|---|---|---|---|---|---|'];
  for (const s of summary) {
    const median = (share: number | null) => (share === null ? 'n/a' : pct(share, 1));
    md.push(`| ${s.ecosystem} | ${s.packages} | ${s.zeroPassages.length} | ${pct(s.api.explained, s.api.declared)} (${s.api.explained}/${s.api.declared}, ${s.api.packagesWithDeclaredApi} packages) | ${pct(s.api.withGuides, s.api.declared)} | ${s.api.packagesAt95} / ${s.api.packagesAt95WithGuides} of ${s.api.packagesWithDeclaredApi} | ${median(s.api.packageMedianShare)} / ${median(s.api.packageMedianWithGuides)} | ${pct(s.api.unexplainedMentioned, s.api.unexplained)} (${s.api.unexplainedMentioned}/${s.api.unexplained}) | ${pct(s.guides.indexed, s.guides.shipped)} (${s.guides.indexed}/${s.guides.shipped}) | ${(s.indexMs.p50 / 1000).toFixed(2)} s / ${(s.indexMs.max / 1000).toFixed(2)} s (${s.indexMs.slowest}) |`);
  }
  for (const s of summary) if (s.zeroPassages.length) md.push('', `Zero passages, ${s.ecosystem}:`, ...s.zeroPassages.map((z) => `- ${z.name}@${z.version ?? '?'}: ${z.reason}`));
  md.push('', '| package | version | passages | API explained (API passage / + guides) | API from | guides | index ms | unexplained anywhere (first) |', '|---|---|---|---|---|---|---|---|');
  for (const r of report.packages) md.push(`| ${r.ecosystem}:${r.name} | ${r.version ?? ''} | ${r.passages} | ${r.api.explained} / ${r.api.withGuides} of ${r.api.declared} | ${r.api.from} | ${r.guides.indexed}/${r.guides.shipped} | ${r.indexMs ?? ''} | ${r.api.missing.slice(0, 6).join(' ')}${r.error ? ` ERROR ${r.error.slice(0, 80)}` : ''} |`);
  if (notRun.length) md.push('', `Not run (--budget-s reached): ${notRun.join(', ')}`);
  fs.writeFileSync(out.replace(/\.json$/, '.md'), `${md.join('\n')}\n`);
  if (!final) return;
  console.log(md.slice(0, 4 + summary.length).join('\n'));
  for (const s of summary) for (const z of s.zeroPassages) console.log(`  zero passages ${s.ecosystem}:${z.name}@${z.version ?? '?'}: ${z.reason}`);
  console.log(`report: ${out} (and .md); machine ${report.machine}`);
}
