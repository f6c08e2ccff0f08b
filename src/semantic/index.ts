// The semantic component's front door: createEmbedder picks the local static model, an OpenAI-compatible endpoint,
// or nothing (semantic off / unavailable → null, callers rank lexically), and wraps it in the query-vector cache.
import type { Config } from '../config.ts';
import { isToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { CachedEmbedder } from './cache.ts';
import { RemoteEmbedder } from './remote.ts';
import { loadStaticEmbedder } from './static-model.ts';
import type { Embedder } from './types.ts';

export type { Embedder, EmbedKind } from './types.ts';
export { VectorIndex, type VectorHit } from './vector-index.ts';
export {
  cosine, decodeVector, dequantize, dot, dotQuantized, encodeVector, normalizeInPlace, quantize, vectorFromBase64,
  vectorToBase64, type QuantizedVector,
} from './vector.ts';
export { StaticEmbedder, loadStaticEmbedder } from './static-model.ts';
export { RemoteEmbedder } from './remote.ts';
export { CachedEmbedder } from './cache.ts';
export { DEFAULT_MODEL_ID, BUILD_COMMAND } from './model-files.ts';

export type SemanticConfig = Pick<Config, 'TOOLDEX_SEMANTIC' | 'TOOLDEX_SEMANTIC_MODEL_DIR' | 'TOOLDEX_SEMANTIC_CACHE' |
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
