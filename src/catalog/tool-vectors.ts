// Tool vectors of the semantic layer: computed where the snapshot is built and shipped beside it
// (data/catalog-vectors.bin), read at start when the embedder matches, and computed here for any tool not covered.
// Knows nothing of models: it asks the semantic component (src/semantic) for vectors.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../log.ts';
import { packVectors, quantize, unpackVectors, VectorIndex, type Embedder, type QuantizedVector } from '../semantic/index.ts';
import type { ToolRecord } from './types.ts';

export const DEFAULT_VECTORS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../data/catalog-vectors.bin');
const MAGIC = 'tooldex-vectors/1\n';

/** The text a tool is embedded from: its name, description and keywords. */
export function toolText(tool: ToolRecord): string {
  return `${tool.name}: ${tool.description}${tool.keywords.length ? ` Keywords: ${tool.keywords.join(', ')}.` : ''}`;
}

interface VectorsHeader {
  embedder: string;
  dimensions: number;
  slugs: string[];
}

/** Writes quantised vectors: magic line, header length, JSON header (embedder id, slugs), scales, int8 values. */
export function writeVectorsFile(file: string, embedder: string, dimensions: number, vectors: Map<string, QuantizedVector>): void {
  const slugs = [...vectors.keys()].sort();
  const header = Buffer.from(JSON.stringify({ embedder, dimensions, slugs } satisfies VectorsHeader));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, Buffer.concat([Buffer.from(MAGIC), length, header, packVectors(slugs.map((slug) => vectors.get(slug)!), dimensions)]));
  fs.renameSync(tmp, file);
}

function readVectorsFile(file: string): { header: VectorsHeader; vectors: QuantizedVector[] } | undefined {
  if (!fs.existsSync(file)) return undefined;
  const bytes = fs.readFileSync(file);
  if (bytes.subarray(0, MAGIC.length).toString() !== MAGIC) return undefined;
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 4;
  const header = JSON.parse(bytes.subarray(start, start + headerLength).toString()) as VectorsHeader;
  const body = start + headerLength;
  const count = header.slugs.length;
  const vectors = unpackVectors(bytes.subarray(body, body + count * (4 + header.dimensions)), count, header.dimensions);
  return vectors && { header, vectors };
}

/**
 * A vector index over the tools: shipped vectors when they were made by this embedder, and vectors computed now for
 * every other tool (a few after an ingest; all of them with a different model, which takes longer).
 */
export interface ToolVectorIndexes {
  /** Every tool's vector, for scoring candidates. */
  all: VectorIndex;
  /** The vectors of the most used quarter of each ecosystem, scanned for tools that share no word with a query. */
  head: VectorIndex;
}

export async function loadToolVectors(
  embedder: Embedder, catalog: { slugs(): string[]; all(): Iterable<ToolRecord>; headSlugs(): Set<string> }, file: string, logger: Logger,
): Promise<ToolVectorIndexes> {
  const slugs = catalog.slugs();
  const headSlugs = catalog.headSlugs();
  const indexes = { all: new VectorIndex(embedder.dimensions, slugs.length + 64), head: new VectorIndex(embedder.dimensions, headSlugs.size + 64) };
  const add = (slug: string, vector: QuantizedVector) => {
    indexes.all.add(slug, vector);
    if (headSlugs.has(slug)) indexes.head.add(slug, vector);
  };
  const wanted = new Set(slugs);
  const shipped = readVectorsFile(file);
  if (shipped && shipped.header.embedder === embedder.id && shipped.header.dimensions === embedder.dimensions) {
    shipped.header.slugs.forEach((slug, i) => {
      if (wanted.has(slug)) add(slug, shipped.vectors[i]!);
    });
  } else if (shipped) {
    logger.info({ shipped: shipped.header.embedder, current: embedder.id }, 'shipped tool vectors are from another model; computing them');
  }
  if (slugs.some((slug) => !indexes.all.has(slug))) {
    await addMissing(embedder, [...catalog.all()].filter((tool) => !indexes.all.has(tool.slug)), indexes, headSlugs);
  }
  return indexes;
}

/** Embeds tools (new, or whose text changed) and adds them, in batches. */
export async function addMissing(embedder: Embedder, tools: ToolRecord[], indexes: ToolVectorIndexes, headSlugs?: Set<string>): Promise<void> {
  const BATCH = 256;
  for (let i = 0; i < tools.length; i += BATCH) {
    const batch = tools.slice(i, i + BATCH);
    // Embedding is CPU work on the main thread: let timers and sockets run between batches (a 70,000-tool batch
    // blocked the loop long enough for database connection timeouts to fire).
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const vectors = await embedder.embed(batch.map(toolText), 'passage');
    batch.forEach((tool, j) => {
      const vector = quantize(vectors[j]!);
      indexes.all.add(tool.slug, vector);
      if (headSlugs?.has(tool.slug) || indexes.head.has(tool.slug)) indexes.head.add(tool.slug, vector);
    });
  }
}
