// In-memory nearest-neighbour index over quantised vectors: exact int8 scoring for small sets, and for large ones a
// sign-bit (binary) Hamming pass that picks candidates which are then rescored exactly. Knows nothing of models.
import { quantize, type QuantizedVector } from './vector.ts';

export interface VectorHit {
  id: string;
  /** Cosine similarity (vectors are stored unit length). */
  score: number;
}

/** Below this many vectors every one is scored exactly (about 1 ms for 8k × 256 on the build machine). */
const EXACT_LIMIT = 8192;
/** Candidates the binary pass keeps per wanted hit, and at least. */
const CANDIDATES_PER_HIT = 16;
const MIN_CANDIDATES = 512;

export class VectorIndex {
  readonly dimensions: number;
  private readonly words: number;
  private ids: string[] = [];
  private rows = new Map<string, number>();
  private values: Int8Array;
  private scales: Float32Array;
  private bits: Uint32Array;
  /** Changes whenever a row is added or moved, so callers that keep row numbers know to look them up again. */
  layout = 0;

  constructor(dimensions: number, capacity = 1024) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new RangeError('dimensions must be a positive integer');
    this.dimensions = dimensions;
    this.words = Math.ceil(dimensions / 32);
    this.values = new Int8Array(capacity * dimensions);
    this.scales = new Float32Array(capacity);
    this.bits = new Uint32Array(capacity * this.words);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** Adds or replaces the vector of `id`. Float vectors are quantised; give them unit length for cosine scores. */
  add(id: string, vector: Float32Array | QuantizedVector): void {
    const quantized = vector instanceof Float32Array ? quantize(vector) : vector;
    if (quantized.values.length !== this.dimensions) {
      throw new RangeError(`vector of ${id} has ${quantized.values.length} dimensions, the index ${this.dimensions}`);
    }
    let row = this.rows.get(id);
    if (row === undefined) {
      row = this.ids.length;
      this.layout += 1;
      this.grow(row + 1);
      this.ids.push(id);
      this.rows.set(id, row);
    }
    this.values.set(quantized.values, row * this.dimensions);
    this.scales[row] = quantized.scale;
    const base = row * this.words;
    this.bits.fill(0, base, base + this.words);
    for (let i = 0; i < this.dimensions; i += 1) {
      if (quantized.values[i]! > 0) this.bits[base + (i >>> 5)]! |= 1 << (i & 31);
    }
  }

  /** Removes `id` (the last row moves into its place). */
  remove(id: string): boolean {
    const row = this.rows.get(id);
    if (row === undefined) return false;
    const last = this.ids.length - 1;
    this.layout += 1;
    if (row !== last) {
      const moved = this.ids[last]!;
      this.values.copyWithin(row * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.bits.copyWithin(row * this.words, last * this.words, (last + 1) * this.words);
      this.scales[row] = this.scales[last]!;
      this.ids[row] = moved;
      this.rows.set(moved, row);
    }
    this.ids.pop();
    this.rows.delete(id);
    return true;
  }

  /** Similarity of the query to one stored vector, or undefined when `id` has none. */
  score(query: Float32Array, id: string): number | undefined {
    const row = this.rows.get(id);
    return row === undefined ? undefined : this.scoreRow(query, row);
  }

  /** The row of `id` (-1 when it has no vector); valid until `layout` changes. */
  rowOf(id: string): number {
    return this.rows.get(id) ?? -1;
  }

  /** Similarity of the query to the vector in `row` (from rowOf): no lookup by id, for callers scoring many rows per query. */
  scoreAt(query: Float32Array, row: number): number {
    return this.scoreRow(query, row);
  }

  /**
   * The `k` most similar vectors, best first; `filter` (when given) must accept an id for it to count. It is also given
   * the id's row (valid until `layout` changes), so that a caller with a row table can skip a lookup by id per row.
   * `exact` scores every vector instead of pre-selecting by sign bits (slower above a few thousand vectors).
   */
  search(query: Float32Array, k: number, filter?: (id: string, row: number) => boolean, options: { exact?: boolean } = {}): VectorHit[] {
    if (query.length !== this.dimensions) {
      throw new RangeError(`query has ${query.length} dimensions, the index ${this.dimensions}`);
    }
    if (k <= 0 || this.size === 0) return [];
    const candidates = options.exact || this.size <= EXACT_LIMIT
      ? this.allRows(filter)
      : this.binaryCandidates(query, Math.max(k * CANDIDATES_PER_HIT, MIN_CANDIDATES), filter);
    const hits = new TopK(k);
    for (const row of candidates) hits.offer(row, this.scoreRow(query, row));
    return hits.sorted().map(({ row, score }) => ({ id: this.ids[row]!, score }));
  }

  private scoreRow(query: Float32Array, row: number): number {
    const values = this.values;
    const dimensions = this.dimensions;
    let at = row * dimensions;
    // Four running sums: independent additions pipeline, and the loop runs once per candidate of every query.
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < dimensions; i += 4, at += 4) {
      s0 += query[i]! * values[at]!;
      s1 += query[i + 1]! * values[at + 1]!;
      s2 += query[i + 2]! * values[at + 2]!;
      s3 += query[i + 3]! * values[at + 3]!;
    }
    for (; i < dimensions; i += 1, at += 1) s0 += query[i]! * values[at]!;
    return (s0 + s1 + s2 + s3) * this.scales[row]!;
  }

  private allRows(filter?: (id: string, row: number) => boolean): number[] {
    const rows: number[] = [];
    for (let row = 0; row < this.ids.length; row += 1) if (!filter || filter(this.ids[row]!, row)) rows.push(row);
    return rows;
  }

  /** Rows whose sign bits are nearest the query's (Hamming distance), selected by a counting pass: O(n). */
  private binaryCandidates(query: Float32Array, wanted: number, filter?: (id: string, row: number) => boolean): number[] {
    const words = this.words;
    const queryBits = new Uint32Array(words);
    for (let i = 0; i < this.dimensions; i += 1) if (query[i]! > 0) queryBits[i >>> 5]! |= 1 << (i & 31);
    const count = this.ids.length;
    const distances = new Uint16Array(count);
    const histogram = new Uint32Array(this.dimensions + 2);
    const excluded = this.dimensions + 1;
    const bits = this.bits;
    for (let row = 0; row < count; row += 1) {
      if (filter && !filter(this.ids[row]!, row)) {
        distances[row] = excluded;
        continue;
      }
      let distance = 0;
      const base = row * words;
      for (let w = 0; w < words; w += 1) {
        const x = bits[base + w]! ^ queryBits[w]!;
        distance += POPCOUNT16[x & 0xffff]! + POPCOUNT16[x >>> 16]!;
      }
      distances[row] = distance;
      histogram[distance]! += 1;
    }
    let threshold = 0;
    let taken = 0;
    while (threshold <= this.dimensions && taken + histogram[threshold]! < wanted) taken += histogram[threshold++]!;
    let atThreshold = wanted - taken;
    const rows: number[] = [];
    for (let row = 0; row < count; row += 1) {
      const distance = distances[row]!;
      if (distance < threshold) rows.push(row);
      else if (distance === threshold && atThreshold > 0) {
        rows.push(row);
        atThreshold -= 1;
      }
    }
    return rows;
  }

  private grow(needed: number): void {
    const capacity = this.scales.length;
    if (needed <= capacity) return;
    const next = Math.max(needed, capacity * 2);
    const values = new Int8Array(next * this.dimensions);
    values.set(this.values);
    this.values = values;
    const scales = new Float32Array(next);
    scales.set(this.scales);
    this.scales = scales;
    const bits = new Uint32Array(next * this.words);
    bits.set(this.bits);
    this.bits = bits;
  }
}

/** Keeps the k best (row, score) pairs seen, in a small binary min-heap. */
class TopK {
  private readonly heap: Array<{ row: number; score: number }> = [];
  constructor(private readonly k: number) {}

  offer(row: number, score: number): void {
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push({ row, score });
      this.up(heap.length - 1);
    } else if (worse(heap[0]!, row, score)) {
      heap[0] = { row, score };
      this.down(0);
    }
  }

  sorted(): Array<{ row: number; score: number }> {
    return [...this.heap].sort((a, b) => b.score - a.score || a.row - b.row);
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!.row, heap[parent]!.score)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && worse(heap[left]!, heap[smallest]!.row, heap[smallest]!.score)) smallest = left;
      if (right < heap.length && worse(heap[right]!, heap[smallest]!.row, heap[smallest]!.score)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  }
}

/** Whether `a` ranks below (row, score): lower score, or the same score and a later row. */
const worse = (a: { row: number; score: number }, row: number, score: number) =>
  a.score < score || (a.score === score && a.row > row);

/** Set bits of every 16-bit value: two look-ups per word beat bit-twiddling popcount in V8. */
const POPCOUNT16 = (() => {
  const table = new Uint8Array(1 << 16);
  for (let i = 1; i < table.length; i += 1) table[i] = (i & 1) + table[i >>> 1]!;
  return table;
})();
