// A fixed, recorded sample of the catalog's most popular packages for `npm run bench:quickstarts -- --slugs …`: per
// ecosystem a seeded draw of N from the top M by the bench's own order (popularity desc, then slug), read from the
// catalog snapshot (data/catalog.jsonl.gz), so the same sample is benched before and after a change and by anyone later.
//   node --import tsx bench/quickstarts-top-sample.ts [--seed 20261129] [--top 100] [--per 20] [--ecosystem npm,pypi,crates,go]
// Prints the slugs comma-separated (stdout), the ecosystems interleaved (a --deadline then cuts each alike), and per
// ecosystem the draw (stderr). No evaluation set is read.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { random as seededRandom } from '../scripts/seeded-random.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1]! : fallback; };
const SEED = Number(option('seed', '20261129'));
const TOP = Number(option('top', '100'));
const PER = Number(option('per', '20'));
const ECOSYSTEMS = option('ecosystem', 'npm,pypi,crates,go').split(',');


interface Row { slug: string; ecosystem: string; popularity: number | null }
const rows = zlib.gunzipSync(fs.readFileSync(new URL('../data/catalog.jsonl.gz', import.meta.url))).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Row);
const random = seededRandom(SEED);
const draws: string[][] = [];
for (const ecosystem of ECOSYSTEMS) {
  const top = rows.filter((r) => r.ecosystem === ecosystem)
    .sort((a, b) => (b.popularity ?? 0) - (a.popularity ?? 0) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .slice(0, TOP).map((r) => r.slug);
  const pool = [...top];
  const pick: string[] = [];
  while (pick.length < PER && pool.length) pick.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  process.stderr.write(`${ecosystem}: ${pick.join(' ')}\n`);
  draws.push(pick);
}
const interleaved = Array.from({ length: PER }, (_, i) => draws.map((d) => d[i]).filter((s): s is string => Boolean(s))).flat();
console.log(interleaved.join(','));
