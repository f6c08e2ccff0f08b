// Writes test/fixtures/catalog/cue-sample.jsonl.gz: a small sample of the shipped catalog for the parser's test with the
// catalog's framework cues as they ship (test/unit/catalog/cue-fixture.test.ts). Real records, links and the README
// excerpt dropped (cues read the name, description, keywords and tags only): a share of each ecosystem (SHARE) taken
// evenly from the tools whose own text says one of the words below and evenly from the rest, and the tools named for
// the words.
//   node --import tsx bench/search-cue-fixture.ts
import path from 'node:path';
import { readSnapshot, writeSnapshot, DEFAULT_SNAPSHOT } from '../src/catalog/snapshot.ts';
import { ECOSYSTEMS, type ToolRecord } from '../src/catalog/types.ts';

/** Framework words of the parser's table (search-parts.test.ts), and two more of each registry. */
const WORDS = ['pydantic', 'asyncio', 'serde', 'goroutine', 'rspec', 'activerecord', 'numpy', 'rails', 'django', 'tokio', 'express', 'sinatra'];
const SPLITS: Array<[string, string]> = [['active', 'record']];

const out = path.join(import.meta.dirname, '../test/fixtures/catalog/cue-sample.jsonl.gz');
const ownText = (tool: ToolRecord) => ` ${[tool.name, tool.description, tool.shortDescription, ...tool.keywords, ...tool.frameworks, ...tool.categories].join(' ').toLowerCase()} `;
const said = (text: string, word: string) => new RegExp(`[^a-z0-9]${word}[^a-z0-9]`).test(text);
const all: ToolRecord[] = [];
for await (const tool of readSnapshot(DEFAULT_SNAPSHOT)) all.push(tool);
const says = all.map((tool) => {
  const text = ownText(tool);
  return WORDS.some((w) => said(text, w)) || SPLITS.some(([a, b]) => said(text, a) && said(text, b));
});
/**
 * Share of each ecosystem kept, taken evenly from its tools that say a word and evenly from the rest, so that each
 * ecosystem's rate of tools saying a word (what the cues compare) stays as in the whole catalog while the counts stay
 * above the cue's minimum where the whole catalog has them well above it. RubyGems is small and whole.
 */
const SHARE: Record<string, number> = { npm: 0.03, pypi: 0.1, crates: 0.25, go: 0.1, rubygems: 1 };
const keep = all.map(() => false);
for (const e of ECOSYSTEMS) {
  for (const group of [true, false]) {
    const members = all.map((_, i) => i).filter((i) => all[i]!.ecosystem === e && says[i] === group);
    const wanted = Math.round(SHARE[e]! * members.length);
    for (let k = 0; k < wanted; k++) keep[members[Math.floor((k * members.length) / wanted)]!] = true;
  }
}
// The tools named for a word (the framework itself) are always there.
all.forEach((tool, i) => { if (WORDS.includes(tool.name.toLowerCase())) keep[i] = true; });
const kept = all.filter((_, i) => keep[i])
  .map((tool) => ({ ...tool, homepage: null, docsUrl: null, license: null, updatedAt: null, extra: {} }));
await writeSnapshot(out, kept);
console.log(`${kept.length} of ${all.length} tools → ${path.relative(process.cwd(), out)}`);
