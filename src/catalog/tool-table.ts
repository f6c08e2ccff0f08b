// The catalog's tools in memory, compactly: the few facts ranking reads for candidates (slug, name, ecosystem,
// popularity, categories, languages, repository) in columns, and each whole record as its JSON text, parsed only when
// a result shows it. 70,000 parsed records cost ~150 MB of heap and most of a warm start; their text does not.
import { isDeepStrictEqual } from 'node:util';
import { LRUCache } from 'lru-cache';
import { ECOSYSTEMS, type Ecosystem, type ToolRecord } from './types.ts';

export interface ToolFacts {
  slug: string;
  name: string;
  ecosystem: Ecosystem;
  popularity: number;
  categories: string[];
  languages: string[];
  repository: string | null;
}

/** Columns as stored in the index cache: one string per column (values joined by newlines) plus typed arrays. */
export interface SerializedTable {
  slugs: string[];
  names: string[];
  categories: string[];
  languages: string[];
  repositories: string[];
  ecosystems: Uint8Array;
  popularity: Float32Array;
  records: RecordTexts;
}

/**
 * Each tool's record as JSON text. Read from the index cache, the texts stay lines of the file's buffer and are decoded
 * one at a time when a result shows the tool: decoding and splitting all of them (~70 MB) was a third of a warm start.
 */
export class RecordTexts {
  /** Texts set since (all of them for a table built in memory); a hole falls back to the buffer's line. */
  private readonly texts: string[] = [];

  private constructor(private readonly bytes?: Buffer, private readonly ends?: Int32Array) {}

  static empty(): RecordTexts {
    return new RecordTexts();
  }

  /** Lines of `bytes` (newline-separated; JSON text never holds a raw newline), found without decoding them. */
  static fromLines(bytes: Buffer): RecordTexts {
    const ends: number[] = [];
    let at = 0;
    while (at < bytes.length) {
      const end = bytes.indexOf(10, at);
      ends.push(end < 0 ? bytes.length : end);
      at = end < 0 ? bytes.length : end + 1;
    }
    return new RecordTexts(bytes, Int32Array.from(ends));
  }

  get(doc: number): string {
    const text = this.texts[doc];
    if (text !== undefined || !this.bytes || !this.ends || doc >= this.ends.length) return text!;
    return this.bytes.toString('utf8', doc === 0 ? 0 : this.ends[doc - 1]! + 1, this.ends[doc]);
  }

  set(doc: number, text: string): void {
    this.texts[doc] = text;
  }

  /** Every text, newline-separated (the index cache's layout). */
  toBuffer(count: number): Buffer {
    if (this.bytes && this.ends?.length === count && this.texts.length === 0) return this.bytes;
    return Buffer.from(Array.from({ length: count }, (_, doc) => this.get(doc)).join('\n'));
  }
}

function withoutReadme(tool: ToolRecord): ToolRecord {
  const { readmeExcerpt: _readme, ...extra } = tool.extra;
  return { ...tool, extra };
}

export class ToolTable {
  private readonly parsed = new LRUCache<number, ToolRecord>({ max: 4000 });
  private ecosystems: Uint8Array;
  private popularity: Float32Array;

  private constructor(private readonly columns: Omit<SerializedTable, 'ecosystems' | 'popularity'>, ecosystems: Uint8Array, popularity: Float32Array) {
    this.ecosystems = ecosystems;
    this.popularity = popularity;
  }

  static of(tools: ToolRecord[]): ToolTable {
    const table = new ToolTable({ slugs: [], names: [], categories: [], languages: [], repositories: [], records: RecordTexts.empty() },
      new Uint8Array(tools.length), new Float32Array(tools.length));
    tools.forEach((tool, doc) => table.set(doc, tool));
    return table;
  }

  static fromSerialized(data: SerializedTable): ToolTable {
    return new ToolTable(data, data.ecosystems, data.popularity);
  }

  serialize(): SerializedTable {
    return { ...this.columns, ecosystems: this.ecosystems.subarray(0, this.size), popularity: this.popularity.subarray(0, this.size) };
  }

  get size(): number {
    return this.columns.slugs.length;
  }

  /** Sets the tool at `doc` (README excerpts only feed the index; results never show them, so memory does not keep them). */
  set(doc: number, tool: ToolRecord): void {
    const c = this.columns;
    c.records.set(doc, JSON.stringify(withoutReadme(tool)));
    c.slugs[doc] = tool.slug;
    c.names[doc] = tool.name;
    c.categories[doc] = tool.categories.join(',');
    c.languages[doc] = tool.languages.join(',');
    c.repositories[doc] = tool.repository ?? '';
    if (doc >= this.ecosystems.length) {
      const grow = Math.max(doc + 1, this.ecosystems.length * 2);
      const ecosystems = new Uint8Array(grow);
      ecosystems.set(this.ecosystems);
      const popularity = new Float32Array(grow);
      popularity.set(this.popularity);
      [this.ecosystems, this.popularity] = [ecosystems, popularity];
    }
    this.ecosystems[doc] = ECOSYSTEMS.indexOf(tool.ecosystem);
    this.popularity[doc] = tool.popularity;
    this.parsed.delete(doc);
  }

  slug(doc: number): string {
    return this.columns.slugs[doc]!;
  }

  name(doc: number): string {
    return this.columns.names[doc]!;
  }

  ecosystemIndex(doc: number): number {
    return this.ecosystems[doc]!;
  }

  categories(doc: number): string[] {
    const text = this.columns.categories[doc]!;
    return text ? text.split(',') : [];
  }

  languages(doc: number): string[] {
    const text = this.columns.languages[doc]!;
    return text ? text.split(',') : [];
  }

  fact(doc: number): ToolFacts {
    return {
      slug: this.slug(doc), name: this.name(doc), ecosystem: ECOSYSTEMS[this.ecosystems[doc]!]!, popularity: this.popularity[doc]!,
      categories: this.categories(doc), languages: this.languages(doc), repository: this.columns.repositories[doc] || null,
    };
  }

  slugs(): string[] {
    return this.columns.slugs;
  }

  record(doc: number): ToolRecord {
    let tool = this.parsed.get(doc);
    if (!tool) {
      tool = JSON.parse(this.columns.records.get(doc)) as ToolRecord;
      this.parsed.set(doc, tool);
    }
    return tool;
  }

  /** True when `doc` holds this record already (as kept: without its README excerpt). */
  holds(doc: number, tool: ToolRecord): boolean {
    return isDeepStrictEqual(JSON.parse(this.columns.records.get(doc)), withoutReadme(tool));
  }

  /** Every record, parsed one at a time (for vectors of tools the shipped file lacks, snapshots, benches). */
  *allRecords(): Generator<ToolRecord> {
    for (let doc = 0; doc < this.size; doc++) yield JSON.parse(this.columns.records.get(doc)) as ToolRecord;
  }
}
