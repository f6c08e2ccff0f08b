// Every network read of the docs capability: a timeout on each fetch, a byte cap on each body,
// and upstream failures turned into 503 upstream_unavailable (with Retry-After) instead of hangs.
import { ToolDexError } from '../errors.ts';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  headers?: Record<string, string>;
}

export const RETRY_AFTER_SECONDS = 30;
const USER_AGENT = 'tooldex-docs/0.1 (+https://github.com/tooldex)';

export const upstreamUnavailable = (what: string, cause: string) =>
  new ToolDexError('upstream_unavailable', 503, `${what} is unavailable (${cause}); try again shortly.`,
    { retryAfterSeconds: RETRY_AFTER_SECONDS });

export const tooLarge = (url: string, maxBytes: number) =>
  new ToolDexError('artifact_refused', 502, `${url} is larger than the ${Math.round(maxBytes / 1024)} KB cap; it is not indexed.`);

/** GET url; undefined on 404/410 (the caller knows what "missing" means), bytes on 2xx, throws otherwise. */
export async function fetchBytes(url: string, limits: FetchLimits): Promise<Uint8Array | undefined> {
  let response: Response;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const init = { signal, redirect: 'follow' as const, headers: { 'user-agent': USER_AGENT, ...limits.headers } };
  try {
    response = await fetch(url, init).catch((error: unknown) => {
      // A kept-alive connection the server closed while it sat idle fails the next request before any answer; the
      // GET is safe to send once more on a new connection instead of calling the registry unavailable.
      if (signal.aborted || !isStaleConnection(error)) throw error;
      return fetch(url, init);
    });
  } catch (error) {
    throw upstreamUnavailable(new URL(url).host, describeFailure(error));
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw upstreamUnavailable(new URL(url).host, `HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, limits.maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body ?? []) {
      total += chunk.byteLength;
      if (total > limits.maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw tooLarge(url, limits.maxBytes);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ToolDexError) throw error;
    throw upstreamUnavailable(new URL(url).host, describeFailure(error));
  }
  return Buffer.concat(chunks);
}

export async function fetchJson<T>(url: string, limits: FetchLimits): Promise<T | undefined> {
  const bytes = await fetchBytes(url, { ...limits, headers: { accept: 'application/json', ...limits.headers } });
  if (!bytes) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as T;
  } catch {
    throw upstreamUnavailable(new URL(url).host, 'the answer was not JSON');
  }
}

export async function fetchText(url: string, limits: FetchLimits): Promise<string | undefined> {
  const bytes = await fetchBytes(url, limits);
  return bytes ? Buffer.from(bytes).toString('utf8') : undefined;
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return cause ?? error.message;
  }
  return String(error);
}

const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function isStaleConnection(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code !== undefined && STALE_CONNECTION_CODES.has(code);
}
