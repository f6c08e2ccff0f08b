// The semantic component's front door: createEmbedder picks the local static model, an OpenAI-compatible endpoint,
// or nothing (semantic off / unavailable → null, callers rank lexically), and wraps it in the query-vector cache.
import type { Config } from '../config.ts';
import { isToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { CachedEmbedder } from './cache.ts';
import { RemoteEmbedder } from './remote.ts';
import { loadStaticEmbedder } from './static-model.ts';
import { loadTransformerEmbedder } from './transformer-model.ts';
import type { Embedder } from './types.ts';

export type { Embedder, EmbedKind, EmbedPriority } from './types.ts';
export { VectorIndex, type VectorHit } from './vector-index.ts';
export {
  cosine, decodeVector, dequantize, dot, dotQuantized, encodeVector, normalizeInPlace, packVectors, quantize,
  unpackVectors, vectorFromBase64, vectorToBase64, type QuantizedVector,
} from './vector.ts';
export { StaticEmbedder, loadStaticEmbedder } from './static-model.ts';
export { TransformerEmbedder, loadTransformerEmbedder, DEFAULT_ENCODER_ID } from './transformer-model.ts';
export { RemoteEmbedder } from './remote.ts';
export { CachedEmbedder } from './cache.ts';
export { DEFAULT_MODEL_ID, BUILD_COMMAND } from './model-files.ts';

export type SemanticConfig = Pick<Config, 'TOOLDEX_SEMANTIC' | 'TOOLDEX_SEMANTIC_MODEL_DIR' | 'TOOLDEX_SEMANTIC_CACHE' |
  'TOOLDEX_SEMANTIC_ENCODER' | 'TOOLDEX_SEMANTIC_ENCODER_DIR' | 'TOOLDEX_SEMANTIC_ENCODER_THREADS' | 'TOOLDEX_SEMANTIC_ENCODER_BATCH' |
  'TOOLDEX_SEMANTIC_ENCODER_IDLE_MS' |
  'TOOLDEX_EMBEDDINGS_URL' | 'TOOLDEX_EMBEDDINGS_KEY' | 'TOOLDEX_EMBEDDINGS_MODEL' | 'TOOLDEX_EMBEDDINGS_DIMENSIONS' |
  'TOOLDEX_EMBEDDINGS_TIMEOUT_MS'>;

/**
 * The embedder the settings ask for, or null when semantic ranking is off or (with `auto`) unavailable.
 * With TOOLDEX_SEMANTIC=on a missing or broken model is an error instead of a silent fallback.
 */
export async function createEmbedder(config: SemanticConfig, logger: Logger): Promise<Embedder | null> {
  if (config.TOOLDEX_SEMANTIC === 'off') return null;
  try {
    const inner = config.TOOLDEX_EMBEDDINGS_URL
      ? await RemoteEmbedder.connect({
        url: config.TOOLDEX_EMBEDDINGS_URL,
        model: config.TOOLDEX_EMBEDDINGS_MODEL,
        apiKey: config.TOOLDEX_EMBEDDINGS_KEY,
        dimensions: config.TOOLDEX_EMBEDDINGS_DIMENSIONS,
        timeoutMs: config.TOOLDEX_EMBEDDINGS_TIMEOUT_MS,
      })
      : await loadStaticEmbedder(config.TOOLDEX_SEMANTIC_MODEL_DIR);
    logger.info({ model: inner.id, kind: inner.kind, dimensions: inner.dimensions }, 'semantic ranking on');
    return new CachedEmbedder(inner, config.TOOLDEX_SEMANTIC_CACHE);
  } catch (error) {
    if (config.TOOLDEX_SEMANTIC === 'on' || !isToolDexError(error)) throw error;
    logger.warn({ code: error.code }, `semantic ranking off (lexical only): ${error.message}`);
    return null;
  }
}

/**
 * The sentence encoder: what compares whole texts (docs questions with docs passages). An embeddings endpoint when one
 * is configured (the operator's model), else the local transformer; null when semantic ranking is off or, with
 * `auto`, the encoder cannot load (the static model's word-level meaning still applies then).
 */
export async function createSentenceEncoder(config: SemanticConfig, logger: Logger): Promise<Embedder | null> {
  if (config.TOOLDEX_SEMANTIC === 'off') return null;
  if (config.TOOLDEX_EMBEDDINGS_URL) return createEmbedder(config, logger);
  if (config.TOOLDEX_SEMANTIC_ENCODER === 'off') return null;
  try {
    const encoder = await loadTransformerEmbedder(config.TOOLDEX_SEMANTIC_ENCODER_DIR,
      { threads: config.TOOLDEX_SEMANTIC_ENCODER_THREADS, batch: config.TOOLDEX_SEMANTIC_ENCODER_BATCH, idleMs: config.TOOLDEX_SEMANTIC_ENCODER_IDLE_MS });
    logger.info({ model: encoder.id, kind: encoder.kind, dimensions: encoder.dimensions, threads: encoder.threads, batch: encoder.batch, idleMs: encoder.idleMs,
      queryCache: config.TOOLDEX_SEMANTIC_CACHE }, 'sentence encoder on');
    return new CachedEmbedder(encoder, config.TOOLDEX_SEMANTIC_CACHE);
  } catch (error) {
    if (config.TOOLDEX_SEMANTIC === 'on') throw error;
    logger.warn({ code: isToolDexError(error) ? error.code : undefined, err: isToolDexError(error) ? undefined : error },
      `sentence encoder off (docs rank by words and word meaning): ${(error as Error).message}`);
    return null;
  }
}
