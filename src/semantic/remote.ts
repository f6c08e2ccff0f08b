// An Embedder backed by an OpenAI-compatible embeddings endpoint (POST {url}/embeddings), for operators who run a
// larger model elsewhere. Same interface as the local model; failures become `semantic_unavailable`.
import { ToolDexError } from '../errors.ts';
import type { Embedder, EmbedKind } from './types.ts';
import { normalizeInPlace } from './vector.ts';

export interface RemoteOptions {
  url: string;
  model: string;
  apiKey?: string;
  /** Sent as `dimensions` (models that can shorten their vectors); otherwise learnt from the first answer. */
  dimensions?: number;
  timeoutMs: number;
  /** Inputs per request. */
  batchSize?: number;
}

interface EmbeddingsAnswer {
  data?: Array<{ embedding?: unknown; index?: number }>;
}

const unavailable = (message: string) => new ToolDexError('semantic_unavailable', 503,
  `The embeddings endpoint failed: ${message}. Check TOOLDEX_EMBEDDINGS_URL/KEY/MODEL; answers fall back to full-text ranking.`);

export class RemoteEmbedder implements Embedder {
  readonly kind = 'remote' as const;
  readonly id: string;
  readonly dimensions: number;
  private readonly options: RemoteOptions;
  private readonly endpoint: string;

  private constructor(options: RemoteOptions, dimensions: number) {
    this.options = options;
    this.endpoint = endpointOf(options.url);
    this.dimensions = dimensions;
    this.id = `remote:${options.model}:${dimensions}`;
  }

  /**
   * With `dimensions` configured the endpoint is not needed at start (failures surface per request, and it recovers
   * by itself); without, one probe text tells the vector size.
   */
  static async connect(options: RemoteOptions): Promise<RemoteEmbedder> {
    if (options.dimensions) return new RemoteEmbedder(options, options.dimensions);
    const probe = new RemoteEmbedder(options, options.dimensions ?? 0);
    const [vector] = await probe.request(['tooldex']);
    if (!vector || vector.length === 0) throw unavailable('the probe returned no vector');
    return new RemoteEmbedder(options, vector.length);
  }

  async embed(texts: string[], _kind: EmbedKind): Promise<Float32Array[]> {
    const size = this.options.batchSize ?? 128;
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += size) {
      const vectors = await this.request(texts.slice(start, start + size));
      for (const vector of vectors) {
        if (this.dimensions && vector.length !== this.dimensions) {
          throw unavailable(`a vector has ${vector.length} dimensions, expected ${this.dimensions}`);
        }
        out.push(vector);
      }
    }
    return out;
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const body: Record<string, unknown> = { model: this.options.model, input, encoding_format: 'float' };
    if (this.options.dimensions) body.dimensions = this.options.dimensions;
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw unavailable(error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw unavailable(`HTTP ${response.status} from ${this.endpoint}`);
    let answer: EmbeddingsAnswer;
    try {
      answer = (await response.json()) as EmbeddingsAnswer;
    } catch {
      throw unavailable('the answer is not JSON');
    }
    const data = answer.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw unavailable(`expected ${input.length} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`);
    }
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((item) => {
      if (!Array.isArray(item.embedding) || !item.embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw unavailable('an embedding is not an array of numbers');
      }
      return normalizeInPlace(Float32Array.from(item.embedding as number[]));
    });
  }
}

/** `http://host/v1` → `http://host/v1/embeddings`; a URL that already names /embeddings is used as is. */
export function endpointOf(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/embeddings') ? trimmed : `${trimmed}/embeddings`;
}
