// The hit@1 misses of a QUICK_OUT file (bench/search-quick.ts) by class, computed, one class per miss, the first that
// fits in this order (round 8's hand classes, made mechanical so that two models' misses are classed the same way):
//   ecosystem   the query names no language and the #1's ecosystem holds none of its answers (as round 8 computed it)
//   recall      no acceptable answer in the top 10
//   family      the #1 is named after an answer, or an answer after the #1 (a plugin, a sub-package, its head)
//   peer        a peer, migration or negation query ("alternative to", "instead of", "without", "deprecated", …)
//   literal     the rest: a lesser match above the canonical tool in the right ecosystem
//   node --import tsx scripts/search-miss-classes.ts FILE [FILE2]   (FILE2: a second model's rows, side by side)
//   MISS_SLICES=1 …  also one table per ecosystem the writer had in mind, and for queries that name no language (round 11)
//   MISS_SET=search-fresh-r10 …  only that set's rows (a LOSO file holds every left-out set)
import fs from 'node:fs';

const PEER = /\b(alternative|alternatives|instead of|replace|replacement|like|similar to|without|deprecated|unmaintained|migrat\w*|retired|successor|but for|lighter than|vs)\b/i;
const CLASSES = ['ecosystem', 'recall', 'family', 'peer', 'literal'] as const;

interface Row { set: string; ecosystem: string; query: string; named: boolean; at: number; top: string[]; acceptable: string[] }

function rows(file: string): Row[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => {
    const [set = '', ecosystem = '', named = '', at = '0', query = '', top = '', acceptable = ''] = line.split('\t');
    return { set, ecosystem, query, named: named === 'y', at: Number(at), top: top.split(' ').filter(Boolean), acceptable: acceptable.split(' ').filter(Boolean) };
  });
}

const ecosystemOf = (slug: string) => slug.slice(0, slug.indexOf('-'));
const nameOf = (slug: string) => slug.slice(slug.indexOf('-') + 1);
const namedAfter = (a: string, b: string) => ecosystemOf(a) === ecosystemOf(b) && (nameOf(a).startsWith(`${nameOf(b)}-`) || nameOf(a).startsWith(`${nameOf(b)}__`) || nameOf(a).endsWith(`__${nameOf(b)}`));

export function classOf(row: Row): (typeof CLASSES)[number] | 'hit' {
  if (row.at === 1) return 'hit';
  const first = row.top[0] ?? '';
  if (!row.named && first && !row.acceptable.some((slug) => ecosystemOf(slug) === ecosystemOf(first))) return 'ecosystem';
  if (row.at === 0) return 'recall';
  if (row.acceptable.some((slug) => namedAfter(first, slug) || namedAfter(slug, first))) return 'family';
  if (PEER.test(row.query)) return 'peer';
  return 'literal';
}

const files = process.argv.slice(2);
const only = process.env.MISS_SET;
const tables = files.map((file) => rows(file).filter((row) => !only || row.set === only));

function table(title: string, keep: (row: Row) => boolean): void {
  console.log(`${title}\t${files.map((f) => `${f} misses (answer at 2–5) of ${tables[0]!.filter(keep).length}`).join('\t')}`);
  for (const name of [...CLASSES, 'all'] as const) {
    const cells = tables.map((rowsOf) => {
      const misses = rowsOf.filter((row) => keep(row) && classOf(row) !== 'hit' && (name === 'all' || classOf(row) === name));
      return `${misses.length} (${misses.filter((row) => row.at >= 2 && row.at <= 5).length})`;
    });
    console.log(`${name}\t${cells.join('\t')}`);
  }
}
table('class', () => true);
if (process.env.MISS_SLICES === '1') {
  for (const ecosystem of ['go', 'npm', 'pypi', 'crates', 'rubygems']) table(`\n${ecosystem}`, (row) => row.ecosystem === ecosystem);
  table('\nnames no language', (row) => !row.named);
}
if (tables.length === 2) {
  const [a, b] = tables as [Row[], Row[]];
  const moved = a.map((row, i) => [row, b[i]!] as const).filter(([x, y]) => (x.at === 1) !== (y.at === 1));
  console.log(`hit@1 won by the second: ${moved.filter(([, y]) => y.at === 1).length}, lost: ${moved.filter(([x]) => x.at === 1).length}`);
}
