// Fetching from registries: a timeout on every request, retries with backoff on 429/5xx/network faults,
// and a size cap on bodies so one huge answer cannot exhaust memory.
import { ToolDexError } from '../../errors.ts';

export interface FetchOptions {
  timeoutMs: number;
  retries?: number;
  maxBytes?: number;
  headers?: Record<string, string>;
}

export class HttpStatusError extends Error {
  constructor(readonly status: number, readonly url: string) {
    super(`${url} answered ${status}`);
  }
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);
const USER_AGENT = 'tooldex/0.1 (+https://github.com/tooldex/tooldex)';

export async function fetchBytes(url: string, options: FetchOptions): Promise<Uint8Array> {
  const retries = options.retries ?? 3;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(url, options);
    } catch (error) {
      const retryable = error instanceof HttpStatusError ? RETRYABLE.has(error.status) : !(error instanceof ToolDexError);
      if (!retryable || attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt + Math.random() * 100));
    }
  }
}

export async function fetchJson<T>(url: string, options: FetchOptions): Promise<T> {
  const bytes = await fetchBytes(url, { ...options, headers: { accept: 'application/json', ...options.headers } });
  return JSON.parse(new TextDecoder().decode(bytes)) as T;
}

export async function fetchText(url: string, options: FetchOptions): Promise<string> {
  return new TextDecoder().decode(await fetchBytes(url, options));
}

async function fetchOnce(url: string, options: FetchOptions): Promise<Uint8Array> {
  const response = await fetch(url, {
    headers: { 'user-agent': USER_AGENT, ...options.headers },
    signal: AbortSignal.timeout(options.timeoutMs),
    redirect: 'follow',
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new HttpStatusError(response.status, url);
  }
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new ToolDexError('artifact_too_large', 502, `${url} is ${declared} bytes; the cap is ${maxBytes}.`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new ToolDexError('artifact_too_large', 502, `${url} exceeds the ${maxBytes}-byte cap.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
