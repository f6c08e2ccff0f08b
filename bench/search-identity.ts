// Ranking identity check for speed work: each query of a TSV set (default bench/search-tuning.tsv), hybrid and lexical,
// unfiltered and with the set's ecosystem, writes its top 10 slugs with scores; run before and after a change and
// compare the files with cmp. A speed change must leave this output byte-identical.
//   IDENTITY_OUT=/tmp/before.txt node --import tsx bench/search-identity.ts [set.tsv]
import fs from 'node:fs';
import os from 'node:os';
import { readSnapshot, DEFAULT_SNAPSHOT } from '../src/catalog/snapshot.ts';
import { CatalogSearchIndex } from '../src/catalog/search-index.ts';
import { DEFAULT_VECTORS, loadToolVectors } from '../src/catalog/tool-vectors.ts';
import { loadStaticEmbedder } from '../src/semantic/index.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import type { Ecosystem, ToolRecord } from '../src/catalog/types.ts';
const tools: ToolRecord[] = [];
for await (const tool of readSnapshot(DEFAULT_SNAPSHOT)) tools.push(tool);
const index = CatalogSearchIndex.build(tools);
const embedder = await loadStaticEmbedder(loadConfig({ TOOLDEX_HOME: os.tmpdir() }).TOOLDEX_SEMANTIC_MODEL_DIR);
index.vectors = await loadToolVectors(embedder, index, DEFAULT_VECTORS, createLogger('warn'));
const rows = fs.readFileSync(process.argv[2] ?? 'bench/search-tuning.tsv', 'utf8').trim().split('\n').slice(1)
  .map((line) => line.split('\t')).filter((cols) => cols[0]);
const out: string[] = [];
for (const [query, ecosystem] of rows) {
  const vector = (await embedder.embed([index.embeddingText(query!)], 'query'))[0]!;
  for (const options of [{ limit: 10 }, { limit: 10, ecosystem: ecosystem as Ecosystem }]) {
    for (const v of [vector, undefined]) {
      const hits = index.search(query!, options, v);
      out.push(`${query}\t${options.ecosystem ?? '-'}\t${v ? 'hybrid' : 'lexical'}\t${hits.map((h) => `${h.tool.slug}:${h.score.toFixed(6)}`).join(',')}`);
    }
  }
}
console.log(`${rows.length} queries, ${out.length} rankings`);
if (process.env.IDENTITY_OUT) fs.writeFileSync(process.env.IDENTITY_OUT, `${out.join('\n')}\n`);
