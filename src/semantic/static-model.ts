// The local embedder: a static (per-token) embedding table distilled from all-MiniLM-L6-v2; a text's vector is the
// mean of its tokens' vectors, normalised. Microseconds per text, no native code; see docs/semantic.md for the recipe.
import path from 'node:path';
import type { Embedder, EmbedKind } from './types.ts';
import { normalizeInPlace } from './vector.ts';
import { WordPiece } from './wordpiece.ts';
import { readStaticModel } from './model-files.ts';

export class StaticEmbedder implements Embedder {
  readonly kind = 'static' as const;
  readonly id: string;
  readonly dimensions: number;
  private readonly values: Int8Array;
  private readonly scales: Float32Array;
  private readonly tokenizer: WordPiece;
  private readonly maxTokens: number;

  /** `values`: int8 rows (vocabulary × dimensions), each row scaled by `scales[row]` (the shipped, quantised form). */
  constructor(id: string, dimensions: number, values: Int8Array, scales: Float32Array, tokenizer: WordPiece, maxTokens: number) {
    if (values.length !== tokenizer.size * dimensions || scales.length !== tokenizer.size) {
      throw new RangeError(`table holds ${values.length / dimensions} tokens and ${scales.length} scales, the vocabulary ${tokenizer.size}`);
    }
    this.id = id;
    this.dimensions = dimensions;
    this.values = values;
    this.scales = scales;
    this.tokenizer = tokenizer;
    this.maxTokens = maxTokens;
  }

  /** Query and passage vectors come from the same table: the model is symmetric. */
  embed(texts: string[], _kind: EmbedKind): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((text) => this.embedText(text)));
  }

  /** Synchronous form for hot paths (a query costs a few microseconds). */
  embedText(text: string): Float32Array {
    const out = new Float32Array(this.dimensions);
    const ids = this.tokenizer.encode(text, this.maxTokens);
    if (ids.length === 0) return out;
    const dims = this.dimensions;
    for (const id of ids) {
      const offset = id * dims;
      const scale = this.scales[id]!;
      for (let i = 0; i < dims; i += 1) out[i]! += this.values[offset + i]! * scale;
    }
    return normalizeInPlace(out);
  }
}

// One loaded model per directory and process: the table is immutable (8 MB int8), and a process that builds several
// apps (tests, benches) should neither hold copies nor re-hash it each time. Failed loads are not remembered.
const loaded = new Map<string, Promise<StaticEmbedder>>();

/** Loads (once per process) and checks the model in `dir`. */
export function loadStaticEmbedder(dir: string): Promise<StaticEmbedder> {
  const key = path.resolve(dir);
  let pending = loaded.get(key);
  if (!pending) {
    pending = readStaticModel(key).then(({ manifest, values, scales, tokenizerJson }) => new StaticEmbedder(
      manifest.id, manifest.dimensions, values, scales, WordPiece.fromTokenizerJson(tokenizerJson), manifest.maxTokens));
    loaded.set(key, pending);
    pending.catch(() => loaded.delete(key));
  }
  return pending;
}
