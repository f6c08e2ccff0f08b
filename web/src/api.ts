// The dashboard's client of /dashboard/api: JSON in and out, the session cookie rides along, and every
// state-changing call carries the session's CSRF token. Errors keep the server's code and field.

export interface User { id: string; email: string; createdAt: string }
export interface Org { id: string; name: string; role?: string; createdAt: string }
export interface Me { user: User; csrfToken: string; orgs: Org[] }
export interface ApiKey {
  id: string; orgId: string; org: string; name: string; prefix: string;
  createdAt: string; createdBy: string; lastUsedAt: string | null; revokedAt: string | null;
}
export interface CreatedKey extends ApiKey { key: string }
export interface UsageDay { day: string; requests: number; testRuns: number }
export interface Member { userId: string; email: string; role: string; joinedAt: string }
export interface InviteLink { id: string; email: string; org: string; link: string; expiresAt: string }

export interface ServerInfo { auth: 'off' | 'required'; testRunsPerMinute: number }

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly field?: string) {
    super(message);
  }
}

let csrfToken = '';

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/dashboard/api${path}`, {
    method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error ?? {};
    throw new ApiError(response.status, error.code ?? 'error', error.message ?? `Request failed (${response.status})`, error.field);
  }
  if (typeof data.csrfToken === 'string') csrfToken = data.csrfToken;
  return data as T;
}

export const api = {
  server: () => call<ServerInfo>('GET', '/server'),
  me: () => call<Me>('GET', '/me'),
  signUp: (email: string, password: string) => call<Me>('POST', '/signup', { email, password }),
  signIn: (email: string, password: string) => call<Me>('POST', '/login', { email, password }),
  signOut: () => call<void>('POST', '/logout', {}),
  createOrg: (name: string) => call<Org>('POST', '/orgs', { name }),
  keys: (orgId: string) => call<{ keys: ApiKey[] }>('GET', `/orgs/${orgId}/keys`),
  createKey: (orgId: string, name: string) => call<CreatedKey>('POST', `/orgs/${orgId}/keys`, { name }),
  revokeKey: (orgId: string, keyId: string) => call<ApiKey>('POST', `/orgs/${orgId}/keys/${keyId}/revoke`, {}),
  usage: (orgId: string, keyId: string, days = 14) => call<{ key: ApiKey; days: UsageDay[] }>('GET', `/orgs/${orgId}/keys/${keyId}/usage?days=${days}`),
  members: (orgId: string) => call<{ members: Member[] }>('GET', `/orgs/${orgId}/members`),
  invite: (orgId: string, email: string) => call<InviteLink>('POST', `/orgs/${orgId}/invites`, { email }),
  acceptInvite: (token: string) => call<Org>('POST', '/invites/accept', { token }),
};
