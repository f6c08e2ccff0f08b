// The catalog's most mentioned tools per ecosystem (mentions.ts), and how long computing them takes: a check of the
// `mentions` feature's input, read from the shipped snapshot (no evaluation set read).
//   node --import tsx scripts/search-mentions.ts [top per ecosystem, default 15] [name ...]
import { readSnapshot, DEFAULT_SNAPSHOT } from '../src/catalog/snapshot.ts';
import { fieldTexts } from '../src/catalog/search-index.ts';
import { TextIndex } from '../src/catalog/text-index.ts';
import { mentionShare } from '../src/catalog/mentions.ts';
import { ECOSYSTEMS, type ToolRecord } from '../src/catalog/types.ts';

const [topArg, ...names] = process.argv.slice(2);
const top = Number(topArg ?? 15);
const tools: ToolRecord[] = [];
for await (const tool of readSnapshot(DEFAULT_SNAPSHOT)) tools.push(tool);
const index = TextIndex.build(tools.map(fieldTexts));
const ecosystemOf = Uint8Array.from(tools, (tool) => ECOSYSTEMS.indexOf(tool.ecosystem));
const started = performance.now();
const cpu = process.cpuUsage();
const share = mentionShare(tools, ecosystemOf, (term) => index.hits(term));
console.log(`${tools.length} tools, mentions in ${(performance.now() - started).toFixed(0)} ms (cpu ${((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000).toFixed(0)} ms)`);
for (const ecosystem of ECOSYSTEMS) {
  const docs = tools.map((_, doc) => doc).filter((doc) => tools[doc]!.ecosystem === ecosystem).sort((a, b) => share[b]! - share[a]!);
  const nonzero = docs.filter((doc) => share[doc]! > 0).length;
  console.log(`${ecosystem} (${nonzero} of ${docs.length} above 0): ${docs.slice(0, top).map((doc) => `${tools[doc]!.name} ${share[doc]!.toFixed(2)}`).join(', ')}`);
}
for (const name of names) tools.forEach((tool, doc) => tool.name === name && console.log(`${tool.ecosystem}/${name}: ${share[doc]!.toFixed(3)}`));
