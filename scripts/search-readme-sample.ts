// Coverage of a README extractor change over the READMEs this machine already holds (no registry look-up): installed
// npm packages (node_modules), Python distributions (site-packages METADATA: the long description PyPI serves as
// info.description), crates in the cargo registry cache and Go modules in the module cache. Each README found whose tool
// is in the catalog is extracted twice, by the shipped regular-expression excerpt (archive.ts readmeExcerpt) and by the
// candidate Markdown-parser extract (search-readme-prose.ts), and compared:
//   node --import tsx scripts/search-readme-sample.ts [outDir]
// prints per ecosystem: READMEs found in the catalog, how many excerpts change, description words each carries, and
// setup/housekeeping words left; writes outDir/readme-old.jsonl and outDir/readme-new.jsonl (BENCH_README_FILE rows).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readSnapshot, DEFAULT_SNAPSHOT } from '../src/catalog/snapshot.ts';
import { readmeExcerpt } from '../src/catalog/registries/archive.ts';
import { readmeProse } from './search-readme-prose.ts';
import { indexTerms } from '../src/catalog/text-index.ts';
import type { ToolRecord } from '../src/catalog/types.ts';

const readmeIn = (dir: string): string | undefined => {
  try {
    const name = fs.readdirSync(dir).find((f) => /^readme(\.(md|markdown|rst|txt))?$/i.test(f));
    return name ? fs.readFileSync(path.join(dir, name), 'utf8') : undefined;
  } catch { return undefined; }
};
const subdirs = (dir: string): string[] => {
  try { return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(dir, d.name)); } catch { return []; }
};

/** [ecosystem, catalog name, README] of what this machine holds. */
function* localReadmes(): Generator<[string, string, string]> {
  const modules = path.join(import.meta.dirname, '../node_modules');
  for (const dir of subdirs(modules).flatMap((d) => (path.basename(d).startsWith('@') ? subdirs(d) : [d]))) {
    const readme = readmeIn(dir);
    if (readme) yield ['npm', path.relative(modules, dir), readme];
  }
  const site = path.join(os.homedir(), '.pyenv/versions');
  for (const version of subdirs(site)) {
    for (const lib of subdirs(path.join(version, 'lib'))) {
      for (const dist of subdirs(path.join(lib, 'site-packages')).filter((d) => d.endsWith('.dist-info'))) {
        let meta: string;
        try { meta = fs.readFileSync(path.join(dist, 'METADATA'), 'utf8'); } catch { continue; }
        const split = meta.indexOf('\n\n');
        const name = meta.match(/^Name: (.+)$/m)?.[1]?.trim().toLowerCase().replace(/[._]+/g, '-');
        if (name && split > 0 && meta.length - split > 40) yield ['pypi', name, meta.slice(split + 2)];
      }
    }
  }
  for (const registry of subdirs(path.join(os.homedir(), '.cargo/registry/src'))) {
    for (const crate of subdirs(registry)) {
      const readme = readmeIn(crate);
      const name = path.basename(crate).replace(/-\d+\.\d+\.\d+.*$/, '');
      if (readme) yield ['crates', name, readme];
    }
  }
  const mod = path.join(os.homedir(), 'go/pkg/mod');
  const walk = function* (dir: string, depth: number): Generator<string> {
    for (const d of subdirs(dir)) {
      if (path.basename(d) === 'cache') continue;
      if (path.basename(d).includes('@')) yield d;
      else if (depth < 4) yield* walk(d, depth + 1);
    }
  };
  for (const dir of walk(mod, 0)) {
    const readme = readmeIn(dir);
    const name = path.relative(mod, dir).replace(/@[^/]*$/, '').replace(/!([a-z])/g, (_, c: string) => c.toUpperCase());
    if (readme) yield ['go', name, readme];
  }
}

const outDir = process.argv[2] ?? os.tmpdir();
const tools = new Map<string, ToolRecord>();
for await (const tool of readSnapshot(DEFAULT_SNAPSHOT)) tools.set(`${tool.ecosystem}\t${tool.name.toLowerCase()}`, tool);

// Words of setup and housekeeping that describe no tool's purpose (the class the parser drops by section).
const SETUP = new Set(indexTerms('install installation pip npm cargo yarn license licence contributing contributors changelog table contents sponsors copyright'));
const stats = new Map<string, { found: number; stored: number; sameAsStored: number; changed: number; oldDesc: number; newDesc: number; descTerms: number; gained: number; lost: number; oldSetup: number; newSetup: number; oldLen: number; newLen: number }>();
const oldRows: string[] = [];
const newRows: string[] = [];
const seen = new Set<string>();
for (const [ecosystem, name, readme] of localReadmes()) {
  const tool = tools.get(`${ecosystem}\t${name.toLowerCase()}`);
  if (!tool || seen.has(tool.slug)) continue;
  seen.add(tool.slug);
  const s = stats.get(ecosystem) ?? { found: 0, stored: 0, sameAsStored: 0, changed: 0, oldDesc: 0, newDesc: 0, descTerms: 0, gained: 0, lost: 0, oldSetup: 0, newSetup: 0, oldLen: 0, newLen: 0 };
  stats.set(ecosystem, s);
  const before = readmeExcerpt(readme);
  const after = readmeProse(readme);
  s.found++;
  if (typeof tool.extra.readmeExcerpt === 'string') {
    s.stored++;
    if (tool.extra.readmeExcerpt === before) s.sameAsStored++;
  }
  if (before !== after) s.changed++;
  const own = new Set(indexTerms(tool.name));
  const desc = new Set(indexTerms(tool.description).filter((t) => !own.has(t)));
  const has = (text: string) => new Set(indexTerms(text));
  const [b, a] = [has(before), has(after)];
  const inB = [...desc].filter((t) => b.has(t)).length;
  const inA = [...desc].filter((t) => a.has(t)).length;
  s.descTerms += desc.size; s.oldDesc += inB; s.newDesc += inA;
  if (inA > inB) s.gained++;
  if (inA < inB) s.lost++;
  s.oldSetup += [...b].filter((t) => SETUP.has(t)).length;
  s.newSetup += [...a].filter((t) => SETUP.has(t)).length;
  s.oldLen += before.length; s.newLen += after.length;
  oldRows.push(JSON.stringify({ slug: tool.slug, readmeExcerpt: before }));
  newRows.push(JSON.stringify({ slug: tool.slug, readmeExcerpt: after }));
}
fs.writeFileSync(path.join(outDir, 'readme-old.jsonl'), oldRows.join('\n') + '\n');
fs.writeFileSync(path.join(outDir, 'readme-new.jsonl'), newRows.join('\n') + '\n');
console.log('ecosystem  in catalog  stored excerpt (= regex of this README)  excerpt changes  description terms in excerpt old→new (of)  tools gaining / losing them  setup words old→new  mean length old→new');
for (const [ecosystem, s] of stats) {
  console.log(`${ecosystem.padEnd(9)}  ${String(s.found).padStart(10)}  ${s.stored} (${s.sameAsStored})  ${s.changed}  ${s.oldDesc}→${s.newDesc} (${s.descTerms})  ${s.gained} / ${s.lost}  ${s.oldSetup}→${s.newSetup}  ${Math.round(s.oldLen / s.found)}→${Math.round(s.newLen / s.found)}`);
}
