// A derived copy of the in-memory search index on disk, keyed by the store's catalog revision, so a warm start reads
// it (typed arrays straight from the file, tools as JSON) instead of reading every tool and re-tokenising. The store
// stays the system of record: a missing, stale or unreadable cache only costs a rebuild.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CatalogSearchIndex } from './search-index.ts';
import { RecordTexts, type SerializedTable } from './tool-table.ts';

/** Bump when tokenising, stemming, indexed fields, derived facts (families, popularity) or the file layout change, so old caches are not loaded. */
// 12: the derivative bases left the layout (round 5: the feature did not pay), and each posting's BM25 impact (4 bytes,
// read by nothing) became its field mask (1 byte).
const INDEX_FORMAT = 12;
const MAGIC = 'tooldex-index\n';

export class IndexCache {
  constructor(private readonly dir: string, private readonly storeIdentity: string) {}

  private file(revision: number): string {
    const key = crypto.createHash('sha256').update(`${INDEX_FORMAT}|${this.storeIdentity}`).digest('hex').slice(0, 12);
    return path.join(this.dir, `catalog-index-${key}-r${revision}.bin`);
  }

  load(revision: number): CatalogSearchIndex | undefined {
    try {
      const bytes = fs.readFileSync(this.file(revision));
      if (bytes.subarray(0, MAGIC.length).toString() !== MAGIC) return undefined;
      const headerLength = bytes.readUInt32LE(MAGIC.length);
      const header = JSON.parse(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength).toString()) as CacheHeader;
      // Sections start at multiples of 8 bytes, so typed arrays are views on the file's buffer, not copies.
      let at = align(MAGIC.length + 4 + headerLength);
      const section = () => {
        const length = header.sections[sectionIndex++]!;
        const start = bytes.byteOffset + at;
        at = align(at + length);
        return { start, length };
      };
      let sectionIndex = 0;
      const view = <T>(make: (buffer: ArrayBufferLike, offset: number, length: number) => T, size: number) => {
        const { start, length } = section();
        return make(bytes.buffer, start, length / size);
      };
      const text = () => {
        const { start, length } = section();
        return Buffer.from(bytes.buffer, start, length).toString();
      };
      const lines = () => text().split('\n');
      const terms = lines();
      const offsets = view((b, o, l) => new Int32Array(b, o, l), 4);
      const docs = view((b, o, l) => new Int32Array(b, o, l), 4);
      const fields = view((b, o, l) => new Uint8Array(b, o, l), 1);
      const popularity = view((b, o, l) => new Float32Array(b, o, l), 4);
      const heads = view((b, o, l) => new Int32Array(b, o, l), 4);
      const table: SerializedTable = {
        slugs: lines(), names: lines(), categories: lines(), languages: lines(), repositories: lines(),
        ecosystems: view((b, o, l) => new Uint8Array(b, o, l), 1), popularity: view((b, o, l) => new Float32Array(b, o, l), 4),
        // One record per line: JSON text never holds a raw newline. Parsed only when a result shows the tool.
        records: (() => {
          const { start, length } = section();
          return RecordTexts.fromLines(Buffer.from(bytes.buffer, start, length));
        })(),
      };
      return CatalogSearchIndex.fromSerialized({ table, text: { docCount: header.docCount, terms, offsets, docs, fields }, popularity, heads });
    } catch {
      return undefined;
    }
  }

  save(revision: number, index: CatalogSearchIndex): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const { table, text, popularity = new Float32Array(0), heads = new Int32Array(0) } = index.serialize();
    const bytesOf = (array: Float32Array | Int32Array | Uint8Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    const joined = (values: string[]) => Buffer.from(values.join('\n'));
    const parts = [
      joined(text.terms), bytesOf(text.offsets), bytesOf(text.docs), bytesOf(text.fields), bytesOf(popularity), bytesOf(heads),
      joined(table.slugs), joined(table.names), joined(table.categories), joined(table.languages), joined(table.repositories),
      bytesOf(table.ecosystems), bytesOf(table.popularity), table.records.toBuffer(table.slugs.length),
    ];
    const header = Buffer.from(JSON.stringify({ docCount: text.docCount, sections: parts.map((part) => part.length) } satisfies CacheHeader));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length);
    const chunks: Buffer[] = [Buffer.from(MAGIC), length, header];
    let size = MAGIC.length + 4 + header.length;
    for (const part of parts) {
      chunks.push(Buffer.alloc(align(size) - size), part);
      size = align(size) + part.length;
    }
    const target = this.file(revision);
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.concat(chunks), { mode: 0o600 });
    fs.renameSync(tmp, target); // atomic: a reader never sees half a cache
    for (const name of fs.readdirSync(this.dir)) {
      const full = path.join(this.dir, name);
      if (name.startsWith('catalog-index-') && full !== target && !name.endsWith('.tmp')) fs.rmSync(full, { force: true });
    }
  }
}

interface CacheHeader {
  docCount: number;
  sections: number[];
}

const align = (offset: number) => Math.ceil(offset / 8) * 8;
