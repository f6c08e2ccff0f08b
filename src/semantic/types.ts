// The contract between the semantic component and its callers (catalog and docs ranking): one Embedder interface.
// Capabilities ask an Embedder for vectors; they never load a model or call an endpoint themselves.

export type EmbedKind = 'query' | 'passage';
/** `now`: a request waits for it; `background`: work ahead of need. Default: queries now, passages background. */
export type EmbedPriority = 'now' | 'background';

export interface Embedder {
  /** Model identity and version; store it beside every vector — a different id means the vectors must be recomputed. */
  readonly id: string;
  readonly dimensions: number;
  /**
   * Where the vectors come from, for logs and /healthz-like reports: `static` (local per-word model, microseconds),
   * `transformer` (local sentence encoder, milliseconds) or `remote` (endpoint).
   */
  readonly kind: 'static' | 'transformer' | 'remote';
  /**
   * Unit-length vectors, one per text, in order. Rejects with ToolDexError `semantic_unavailable` when a remote
   * endpoint fails; callers then rank lexically for that request.
   */
  embed(texts: string[], kind: EmbedKind, priority?: EmbedPriority): Promise<Float32Array[]>;
  /**
   * Texts a request waits for that are queued and not yet being computed (local encoders): what back-pressure reads.
   * Absent where the embedder has no queue of its own (the static model, an endpoint).
   */
  backlog?(): number;
  /**
   * How long a request would wait for the vector of a text queued now (local encoders: the texts ahead of it and its own
   * model call, times the measured time per text): what back-pressure in time reads. Absent where there is no queue.
   */
  expectedWaitMs?(): number;
  /** Whether a text queued now would be started at once (no other text a request waits for ahead of it). */
  startsAtOnce?(): boolean;
  /** The query vector already known for `text` (the query-vector cache), without computing one. */
  known?(text: string): Float32Array | undefined;
  /**
   * Starts what the next texts will need (local encoders: a thread and its model session) without embedding anything,
   * when texts are known to be coming soon: a package being indexed for its first question. Absent where nothing starts.
   */
  warm?(): void;
}
