// The HTTP client of the CLI: calls the REST API of a tooldex server and returns parsed JSON results.
// Server errors come back as ToolDexError with the server's code; an unreachable server is `server_unreachable`.
import { ToolDexError } from '../errors.ts';

export interface ClientOptions {
  url: string;
  apiKey?: string;
}

type Query = Record<string, string | number | undefined>;

export class ServerError extends ToolDexError {}

export class ToolDexClient {
  readonly base: URL;
  private readonly apiKey: string | undefined;

  constructor(options: ClientOptions) {
    try {
      this.base = new URL(options.url);
    } catch {
      throw new ToolDexError('invalid_url', 400, `"${options.url}" is not a URL; pass --url http://host:port or set TOOLDEX_URL.`);
    }
    this.apiKey = options.apiKey;
  }

  get<T>(path: string, query: Query = {}, timeoutMs = 120_000): Promise<T> {
    return this.request<T>('GET', path, query, undefined, timeoutMs);
  }

  post<T>(path: string, body: unknown, query: Query = {}, timeoutMs = 900_000): Promise<T> {
    return this.request<T>('POST', path, query, body, timeoutMs);
  }

  private async request<T>(method: string, path: string, query: Query, body: unknown, timeoutMs: number): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), this.base.href.endsWith('/') ? this.base : `${this.base.href}/`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw this.unreachable(error, timeoutMs);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ServerError('bad_response', 502,
        `${this.base.origin} answered ${response.status} with something that is not tooldex JSON; is --url/TOOLDEX_URL a tooldex server?`);
    }
    if (!response.ok) throw toServerError(parsed, response.status);
    return parsed as T;
  }

  private unreachable(error: unknown, timeoutMs: number): ToolDexError {
    const err = error as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError') {
      return new ServerError('timeout', 504, `${this.base.origin} did not answer within ${Math.round(timeoutMs / 1000)} s; retry, or check the server log.`);
    }
    const why = err.cause?.code ?? (err.cause as Error | undefined)?.message ?? err.message;
    return new ServerError('server_unreachable', 503,
      `cannot reach ${this.base.origin} (${why}); start a server with "tooldex serve" or point --url/TOOLDEX_URL at one.`);
  }
}

function toServerError(body: unknown, status: number): ServerError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : 'http_error';
  let message = typeof error?.message === 'string' ? error.message : `the server answered HTTP ${status}.`;
  if (code === 'missing_api_key' || code === 'invalid_api_key') message += ' Pass --api-key or set TOOLDEX_API_KEY.';
  return new ServerError(code, status, message);
}
