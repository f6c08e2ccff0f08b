// The explorer's client of the tools API: the public /tools/* endpoints when the server runs without API keys;
// with TOOLDEX_AUTH=required, the dashboard-session paths (/dashboard/api/tools/*), running tests as the signed-in
// user's organisation. Errors keep the server's code, message and retry hint.

export interface Tool {
  slug: string; name: string; ecosystem: string; version: string | null; popularity: number; install: string;
  description: string; shortDescription: string; docsUrl: string | null; registryUrl: string;
}

export interface Verified {
  status: 'ran' | 'pending' | 'failed' | 'unverifiable';
  version?: string; runtime?: string; ranAt?: string; stdout?: string; durationMs?: number; reason?: string; note?: string;
}

export interface ToolContext {
  slug: string; name: string; ecosystem: string; version: string; latestVersion: string; description: string; license: string | null;
  links: { docs: string | null; repository: string | null; homepage: string | null; registry: string };
  install: Array<{ manager: string; command: string }>;
  imports: string[];
  quickstart: { code: string; language: string; source: string; verified?: Verified } | null;
  testRequest: Record<string, unknown> | null;
  stale?: boolean;
}

/** `symbol` is the public API path it documents; `internal` and `deprecated` say it is not public API, or is retired. */
export interface Passage { url: string; title?: string; content: string; headings?: string[]; symbol?: string; internal?: boolean; deprecated?: boolean; flags?: string[] }
export interface DocsAnswer { slug: string; version: string; query: string; docsUrl: string | null; results: Passage[] }

export interface TestRun {
  ok: boolean; status: string; stdout: string; stderr: string; exitCode: number | null; sessionId: string;
  phases: { provisionMs: number; installMs: number; runMs: number };
  error?: { code: string; message: string };
}

export interface ProjectFile { name: string; content: string }
export interface Dependency { slug: string; ecosystem: string; name: string; version: string | null; requested?: string; dev?: boolean; inCatalog: boolean; docsIndexed: boolean; latest: string | null }
export interface Resolved {
  project: string; expiresAt: string; files: Array<{ file: string; format: string; ecosystem: string }>;
  dependencies: Dependency[]; counts: { direct: number; transitive: number }; notes: string[];
}

export interface ServerInfo { auth: 'off' | 'required'; testRunsPerMinute: number }
export interface Org { id: string; name: string }
export interface Session { email: string; csrfToken: string; orgs: Org[] }

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfterSeconds?: number, readonly details: Record<string, unknown> = {}) {
    super(message);
  }
}

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown, csrfToken?: string): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(url, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'server_unreachable', 'The tooldex server did not answer; check that it is running.');
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const { status, code, message, retryAfterSeconds, ...details } = data.error ?? {};
    // Every 429 and 503 carries Retry-After; the body repeats it only for some codes.
    const retryHeader = Number(response.headers.get('retry-after'));
    const retryAfter = retryAfterSeconds ?? (Number.isFinite(retryHeader) && retryHeader > 0 ? retryHeader : undefined);
    throw new ApiError(status ?? response.status, code ?? 'error', message ?? `Request failed (${response.status})`, retryAfter, details);
  }
  return data as T;
}

const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  return search.toString();
};

/** How this page reaches the tools: anonymously, or through a dashboard session and one of its organisations. */
export interface Access {
  server: ServerInfo;
  /** Set when the server requires keys and the visitor is signed in to the dashboard. */
  session?: Session;
  org?: Org;
}

export async function discoverAccess(): Promise<Access> {
  const server = await call<ServerInfo>('GET', '/dashboard/api/server');
  if (server.auth === 'off') return { server };
  try {
    const me = await call<{ user: { email: string }; csrfToken: string; orgs: Org[] }>('GET', '/dashboard/api/me');
    return { server, session: { email: me.user.email, csrfToken: me.csrfToken, orgs: me.orgs }, org: me.orgs[0] };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { server };
    throw error;
  }
}

export function toolsApi(access: Access) {
  const viaSession = access.server.auth === 'required';
  const base = viaSession ? '/dashboard/api/tools' : '/tools';
  const signedOut = () => new ApiError(401, 'not_signed_in', 'This server requires an API key: sign in to the dashboard to explore it with your organisation.');
  const guard = () => {
    if (viaSession && !access.session) throw signedOut();
  };
  return {
    async search(q: string, limit = 10): Promise<{ results: Tool[] }> {
      guard();
      return call('GET', `${base}/search?${query({ q, limit })}`);
    },
    async context(ref: string): Promise<ToolContext> {
      guard();
      return call('GET', `${base}/context/${encodeURIComponent(ref)}`);
    },
    async docs(ref: string, q: string, limit = 5): Promise<DocsAnswer> {
      guard();
      return call('GET', `${base}/docs/${encodeURIComponent(ref)}?${query({ q, limit })}`);
    },
    async resolve(files: ProjectFile[]): Promise<Resolved> {
      guard();
      if (!viaSession) return call('POST', '/tools/resolve', { files });
      if (!access.org) throw new ApiError(403, 'no_organisation', 'Create an organisation in the dashboard first: projects belong to one.');
      return call('POST', `/dashboard/api/orgs/${access.org.id}/tools/resolve`, { files }, access.session?.csrfToken);
    },
    async test(request: Record<string, unknown>): Promise<TestRun> {
      guard();
      if (!viaSession) return call('POST', '/tools/test', request);
      if (!access.org) throw new ApiError(403, 'no_organisation', 'Create an organisation in the dashboard first: test runs belong to one.');
      return call('POST', `/dashboard/api/orgs/${access.org.id}/tools/test`, request, access.session?.csrfToken);
    },
  };
}

export type ToolsApi = ReturnType<typeof toolsApi>;
