// What text the wrong #1 and the missed answer carry, for the hit@1 misses of a QUICK_OUT file (bench/search-quick.ts)
// or a FIT_LOSO_OUT file, per ecosystem the writer had in mind:
//   node --import tsx scripts/search-miss-text.ts FILE [FILE…]   (MISS_SET=search-fresh-r12: that set's rows only)
// For each miss: the share of the query's terms each tool's fields hold (name, description, keywords+tags, README
// opening), whether its README opening carries the setup/housekeeping words a parser drops (readme-prose.ts), and the
// length of its description. Prints the means per ecosystem for the #1 and for the first acceptable answer in the
// catalog (the one the writer listed first), so "the #1 wins on README words" and "the answer's text is thin" are counted.
import fs from 'node:fs';
import { readSnapshot, DEFAULT_SNAPSHOT } from '../src/catalog/snapshot.ts';
import { fieldTexts } from '../src/catalog/search-index.ts';
import { indexTerms } from '../src/catalog/text-index.ts';
import type { ToolRecord } from '../src/catalog/types.ts';

const tools = new Map<string, ToolRecord>();
for await (const tool of readSnapshot(DEFAULT_SNAPSHOT)) tools.set(tool.slug, tool);
const SETUP = new Set(indexTerms('install installation pip npm cargo yarn license licence contributing changelog contents sponsors copyright badge'));

interface Text { own: number; description: number; keywords: number; readme: number; readmeOnly: number; hasReadme: number; setup: number; descWords: number; n: number }
const empty = (): Text => ({ own: 0, description: 0, keywords: 0, readme: 0, readmeOnly: 0, hasReadme: 0, setup: 0, descWords: 0, n: 0 });

function add(acc: Text, tool: ToolRecord | undefined, query: string[]): void {
  if (!tool || !query.length) return;
  const f = fieldTexts(tool);
  const has = (text: string) => new Set(indexTerms(text));
  const [name, description, keywords, readme] = [has(f.name), has(f.description), has(`${f.keywords} ${f.tags}`), has(f.readme)];
  const share = (set: Set<string>) => query.filter((t) => set.has(t)).length / query.length;
  acc.own += share(new Set([...name, ...description, ...keywords]));
  acc.description += share(description);
  acc.keywords += share(keywords);
  acc.readme += share(readme);
  acc.readmeOnly += query.filter((t) => readme.has(t) && !name.has(t) && !description.has(t) && !keywords.has(t)).length / query.length;
  acc.hasReadme += f.readme ? 1 : 0;
  acc.setup += [...readme].some((t) => SETUP.has(t)) ? 1 : 0;
  acc.descWords += tool.description.split(/\s+/).filter(Boolean).length;
  acc.n++;
}

const only = process.env.MISS_SET;
const first = new Map<string, Text>();
const answer = new Map<string, Text>();
for (const file of process.argv.slice(2)) {
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [set = '', ecosystem = '', , at = '0', query = '', top = '', acceptable = ''] = line.split('\t');
    if ((only && set !== only) || Number(at) === 1) continue;
    const terms = [...new Set(indexTerms(query))];
    const key = `${set} ${ecosystem}`;
    if (!first.has(key)) { first.set(key, empty()); answer.set(key, empty()); }
    add(first.get(key)!, tools.get(top.split(' ')[0] ?? ''), terms);
    add(answer.get(key)!, tools.get(acceptable.split(' ').find((slug) => tools.has(slug)) ?? ''), terms);
  }
}
const f2 = (x: number, n: number) => (n ? x / n : 0).toFixed(2);
console.log('set ecosystem            misses  | query terms held by: own fields / description / keywords+tags / README / README only  | has README  setup words in it  description words');
for (const key of [...first.keys()].sort()) {
  for (const [who, acc] of [['#1', first.get(key)!], ['answer', answer.get(key)!]] as const) {
    console.log(`${key.padEnd(28)} ${who.padEnd(6)} ${String(acc.n).padStart(3)}  | ${f2(acc.own, acc.n)} / ${f2(acc.description, acc.n)} / ${f2(acc.keywords, acc.n)} / ${f2(acc.readme, acc.n)} / ${f2(acc.readmeOnly, acc.n)}  | ${f2(acc.hasReadme, acc.n)}  ${f2(acc.setup, acc.n)}  ${f2(acc.descWords, acc.n)}`);
  }
}
