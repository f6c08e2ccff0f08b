// Seed lists of names to ingest, most popular first (data/seeds/): npm with monthly downloads and PyPI by
// download rank (public registry facts), crates, Go modules and gems from the project's own lists, plus
// `<ecosystem>-extra.tsv` lists of well-known names the popularity lists miss.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SeedEntry } from './registries/index.ts';
import type { Ecosystem } from './types.ts';

export const SEEDS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../data/seeds');

const FILES: Record<Ecosystem, string> = {
  npm: 'npm.tsv', pypi: 'pypi.tsv', crates: 'crates.tsv', go: 'go.tsv', rubygems: 'rubygems.tsv',
};

/** Parses a seed file: .txt is one name per line; .tsv has a header naming its columns. */
export function parseSeeds(fileName: string, text: string): SeedEntry[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, '')).filter((line) => line.trim() && !line.startsWith('#'));
  const seen = new Set<string>();
  const entries: SeedEntry[] = [];
  const push = (entry: Omit<SeedEntry, 'rank'>) => {
    const key = entry.name.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    entries.push({ ...entry, rank: entries.length + 1 });
  };
  if (fileName.endsWith('.txt')) {
    for (const line of lines) push({ name: line.trim() });
    return entries;
  }
  const header = (lines.shift() ?? '').split('\t');
  const column = (cells: string[], name: string) => {
    const index = header.indexOf(name);
    return index >= 0 ? cells[index]?.trim() || undefined : undefined;
  };
  for (const line of lines) {
    const cells = line.split('\t');
    const name = column(cells, 'name');
    if (!name) continue;
    const downloads = column(cells, 'monthly_downloads');
    push({ name, version: column(cells, 'version'), summary: column(cells, 'summary'), downloads: downloads ? Number(downloads) : undefined });
  }
  return entries;
}

/** The ecosystem's list, most popular first, then its extras (marked `extra`, ranked after the list). */
export function loadSeeds(ecosystem: Ecosystem, dir = SEEDS_DIR): SeedEntry[] {
  const file = FILES[ecosystem];
  const main = parseSeeds(file, fs.readFileSync(path.join(dir, file), 'utf8'));
  const extraFile = path.join(dir, `${ecosystem}-extra.tsv`);
  if (!fs.existsSync(extraFile)) return main;
  const known = new Set(main.map((entry) => entry.name.toLowerCase()));
  const extras = parseSeeds('extra.tsv', fs.readFileSync(extraFile, 'utf8')).filter((entry) => !known.has(entry.name.toLowerCase()));
  return [...main, ...extras.map((entry, i) => ({ ...entry, rank: main.length + i + 1, extra: true }))];
}
