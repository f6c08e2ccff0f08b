// An LRU of query vectors in front of any Embedder: repeated queries cost a map look-up, not a model call.
// Passages are not cached (they are embedded once at ingest and stored).
import { LRUCache } from 'lru-cache';
import type { Embedder, EmbedKind, EmbedPriority } from './types.ts';

export class CachedEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly kind: Embedder['kind'];
  private readonly inner: Embedder;
  private readonly cache: LRUCache<string, Float32Array> | undefined;
  hits = 0;
  misses = 0;
  /** Most query vectors kept (TOOLDEX_SEMANTIC_CACHE). */
  readonly capacity: number;

  constructor(inner: Embedder, size: number) {
    this.inner = inner;
    this.id = inner.id;
    this.dimensions = inner.dimensions;
    this.kind = inner.kind;
    this.capacity = Math.max(0, size);
    this.cache = size > 0 ? new LRUCache({ max: size }) : undefined;
  }

  /** Query vectors held now. */
  get size(): number {
    return this.cache?.size ?? 0;
  }

  backlog(): number {
    return this.inner.backlog?.() ?? 0;
  }

  expectedWaitMs(): number {
    return this.inner.expectedWaitMs?.() ?? 0;
  }

  startsAtOnce(): boolean {
    return this.inner.startsAtOnce?.() ?? true;
  }
  warm(): void {
    this.inner.warm?.();
  }


  /** A question's vector if the cache holds it (no model call, no queue): what ranking under back-pressure can use. */
  known(text: string): Float32Array | undefined {
    return this.cache?.get(text);
  }

  async embed(texts: string[], kind: EmbedKind, priority?: EmbedPriority): Promise<Float32Array[]> {
    const cache = this.cache;
    if (kind !== 'query' || !cache) return this.inner.embed(texts, kind, priority);
    const out: Array<Float32Array | undefined> = texts.map((text) => cache.get(text));
    const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))];
    // A text repeated within one call is embedded once: its repeats count as hits.
    this.hits += texts.length - missing.length;
    this.misses += missing.length;
    if (missing.length > 0) {
      const fresh = await this.inner.embed(missing, kind, priority);
      const byText = new Map(missing.map((text, i) => [text, fresh[i]!]));
      texts.forEach((text, i) => {
        if (out[i] === undefined) {
          const vector = byText.get(text)!;
          cache.set(text, vector);
          out[i] = vector;
        }
      });
    }
    // Callers get the cached array itself: vectors are treated as read-only everywhere.
    return out as Float32Array[];
  }
}
