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

const overCap = new WeakSet<Error>();
export const tooLarge = (url: string, maxBytes: number) => {
  const error = new ToolDexError('artifact_refused', 502, `${url} is larger than the ${Math.round(maxBytes / 1024)} KB cap; it is not indexed.`);
  overCap.add(error);
  return error;
};
/** The refusal of a body over the byte cap (a caller may read such an artifact in bounded parts instead). */
export const isTooLarge = (error: unknown): boolean => error instanceof Error && overCap.has(error);

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

/**
 * Bytes `start`…`end - 1` of url (an HTTP Range request), or undefined where the server does not answer with exactly
 * that range (no 206: it ignores ranges). Capped and timed out like fetchBytes.
 */
export async function fetchRange(url: string, start: number, end: number, limits: FetchLimits): Promise<Uint8Array | undefined> {
  if (end - start > limits.maxBytes) throw tooLarge(url, limits.maxBytes);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow', headers: { 'user-agent': USER_AGENT, ...limits.headers, range: `bytes=${start}-${end - 1}` } });
  } catch (error) {
    throw upstreamUnavailable(new URL(url).host, describeFailure(error));
  }
  if (response.status !== 206) {
    await response.body?.cancel().catch(() => undefined);
    if (response.ok || response.status === 416) return undefined;
    throw upstreamUnavailable(new URL(url).host, `HTTP ${response.status}`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body ?? []) {
      total += chunk.byteLength;
      // A server that sends more than was asked is not trusted with the rest.
      if (total > end - start) {
        await response.body?.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw upstreamUnavailable(new URL(url).host, describeFailure(error));
  }
  return total === end - start ? Buffer.concat(chunks) : undefined;
}

/** The size of url's body as a HEAD request reports it; undefined when it does not say. */
export async function fetchSize(url: string, limits: FetchLimits): Promise<number | undefined> {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(limits.timeoutMs), redirect: 'follow', headers: { 'user-agent': USER_AGENT, ...limits.headers } });
    const size = Number(response.headers.get('content-length') ?? NaN);
    return response.ok && Number.isSafeInteger(size) && size > 0 ? size : undefined;
  } catch (error) {
    throw upstreamUnavailable(new URL(url).host, describeFailure(error));
  }
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
