// Rebuilds data/catalog.jsonl.gz: starts from the shipped snapshot (records fetched from the registries earlier),
// fetches the names given with --fetch from their registries (a few, bounded), adds seed-list records for every
// other listed name without network, and writes the snapshot sorted by slug.
// Then computes every tool's vector with the semantic layer's embedder and writes data/catalog-vectors.bin beside it.
// Usage: node --import tsx scripts/build-snapshot.ts [--fetch crates:jiff,npm:drizzle-orm] [--out data/catalog.jsonl.gz]
//        node --import tsx scripts/build-snapshot.ts --vectors-only   (recompute the vectors of the current snapshot)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { deriveCategories } from '../src/catalog/classify.ts';
import { ingestCatalog } from '../src/catalog/ingest.ts';
import { allTools } from '../src/catalog/repository.ts';
import { DEFAULT_SNAPSHOT, readSnapshot, seedFromSnapshot, writeSnapshot } from '../src/catalog/snapshot.ts';
import { DEFAULT_VECTORS, toolText, writeVectorsFile } from '../src/catalog/tool-vectors.ts';
import { ECOSYSTEMS, type Ecosystem } from '../src/catalog/types.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { createEmbedder, quantize, type QuantizedVector } from '../src/semantic/index.ts';
import { openStore } from '../src/store/index.ts';

const { values } = parseArgs({ options: {
  fetch: { type: 'string' }, out: { type: 'string' }, from: { type: 'string' }, 'vectors-only': { type: 'boolean' },
} });
const out = values.out ?? DEFAULT_SNAPSHOT;
const vectorsOut = path.join(path.dirname(out), path.basename(DEFAULT_VECTORS));

async function writeVectors(): Promise<void> {
  const embedder = await createEmbedder({ ...loadConfig(), TOOLDEX_SEMANTIC: 'on' }, createLogger('warn'));
  if (!embedder) return;
  const vectors = new Map<string, QuantizedVector>();
  const tools = [];
  for await (const tool of readSnapshot(out)) tools.push(tool);
  for (let i = 0; i < tools.length; i += 512) {
    const batch = tools.slice(i, i + 512);
    const embedded = await embedder.embed(batch.map(toolText), 'passage');
    batch.forEach((tool, j) => vectors.set(tool.slug, quantize(embedded[j]!)));
  }
  writeVectorsFile(vectorsOut, embedder.id, embedder.dimensions, vectors);
  console.error(`vectors: ${vectors.size} (${embedder.id}), ${(fs.statSync(vectorsOut).size / 2 ** 20).toFixed(1)} MiB → ${vectorsOut}`);
}

if (values['vectors-only']) {
  await writeVectors();
  process.exit(0);
}
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-snapshot-'));
const config = loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'warn' }, {});
const logger = createLogger('warn');
const store = await openStore(config);
try {
  const previous = await seedFromSnapshot(store, values.from ?? DEFAULT_SNAPSHOT);
  console.error(`start: ${previous.length} tools from the previous snapshot`);
  if (values.fetch) {
    const names: Partial<Record<Ecosystem, string[]>> = {};
    for (const entry of values.fetch.split(',')) {
      const [ecosystem, name] = [entry.slice(0, entry.indexOf(':')) as Ecosystem, entry.slice(entry.indexOf(':') + 1)];
      (names[ecosystem] ??= []).push(name);
    }
    // Registries only (index, packuments, archives): no downloads APIs from the build machine.
    const fetched = await ingestCatalog(store, config, logger, {
      ecosystems: Object.keys(names) as Ecosystem[], names, concurrency: 4, measurePopularity: false,
    });
    for (const s of fetched) console.error(`fetched ${s.ecosystem}: ${s.fetched} ok, ${s.missing} not found, ${s.failed} failed, ${s.fromSeed} from seed`);
  }
  const offline = await ingestCatalog(store, config, logger, { ecosystems: [...ECOSYSTEMS], offline: true });
  for (const s of offline) console.error(`seed list ${s.ecosystem}: ${s.fromSeed} added, ${s.skipped} kept (popularity updated), ${s.missing} left out (no summary, never fetched)`);
  // Categories follow the current classifier (fixes such as "type inference is not machine learning" reach old records).
  const tools = (await allTools(store)).sort((a, b) => a.slug.localeCompare(b.slug))
    .map((tool) => ({ ...tool, categories: deriveCategories({ name: tool.name, description: tool.description, keywords: tool.keywords }) }));
  const count = await writeSnapshot(out, tools);
  console.error(`snapshot: ${count} tools, ${(fs.statSync(out).size / 2 ** 20).toFixed(1)} MiB → ${out}`);
} finally {
  await store.close();
  fs.rmSync(home, { recursive: true, force: true });
}
await writeVectors();
