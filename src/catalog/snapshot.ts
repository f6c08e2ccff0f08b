// The catalog snapshot shipped in data/: gzipped JSON lines of ToolRecords, written by `tooldex ingest`
// and loaded into an empty store on first start, so no network is needed to serve.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { Store } from '../store/index.ts';
import { countTools, upsertTools } from './repository.ts';
import type { ToolRecord } from './types.ts';

export const DEFAULT_SNAPSHOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../data/catalog.jsonl.gz');
const BATCH = 5000;

export async function* readSnapshot(file: string): AsyncGenerator<ToolRecord> {
  const lines = readline.createInterface({ input: fs.createReadStream(file).pipe(zlib.createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) yield JSON.parse(line) as ToolRecord;
}

export async function writeSnapshot(file: string, tools: AsyncIterable<ToolRecord> | Iterable<ToolRecord>): Promise<number> {
  const tmp = `${file}.tmp`;
  const gzip = zlib.createGzip({ level: 9 });
  const out = fs.createWriteStream(tmp);
  gzip.pipe(out);
  let count = 0;
  for await (const tool of tools) {
    if (!gzip.write(`${JSON.stringify(tool)}\n`)) await new Promise((resolve) => gzip.once('drain', resolve));
    count++;
  }
  gzip.end();
  await new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
  fs.renameSync(tmp, file); // atomic: a reader never sees half a snapshot
  return count;
}

/**
 * Loads the snapshot when the catalog is empty and returns the tools it loaded (none when the store had some),
 * so the caller can index them without reading them back from the store.
 */
export async function seedFromSnapshot(
  store: Store, file: string, onProgress: (loaded: number) => void = () => undefined,
): Promise<ToolRecord[]> {
  if ((await countTools(store)) > 0 || !fs.existsSync(file)) return [];
  const loaded: ToolRecord[] = [];
  // One transaction: a crash mid-load leaves an empty catalog that the next start loads again, never half of one.
  await store.transaction(async (tx) => {
    // Secondary indexes are built once after the bulk load instead of updated row by row (several times faster).
    await tx.query('drop index if exists tools_name_trgm');
    await tx.query('drop index if exists tools_ecosystem_popularity');
    let batch: ToolRecord[] = [];
    const flush = async () => {
      await upsertTools(tx, batch);
      loaded.push(...batch);
      batch = [];
      onProgress(loaded.length);
    };
    for await (const tool of readSnapshot(file)) {
      batch.push(tool);
      if (batch.length === BATCH) await flush();
    }
    await flush();
    await tx.query('create index tools_name_trgm on tools using gin (lower(name) gin_trgm_ops)');
    await tx.query('create index tools_ecosystem_popularity on tools (ecosystem, popularity desc)');
  });
  return loaded;
}
