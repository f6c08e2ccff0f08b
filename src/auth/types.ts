// Plain data the auth capability returns; timestamps are ISO strings so every surface encodes them alike.

export interface User {
  id: string;
  email: string;
  createdAt: string;
}

export interface Organisation {
  id: string;
  name: string;
  createdAt: string;
  role?: string;
}

export interface Member {
  userId: string;
  email: string;
  role: string;
  joinedAt: string;
}

export interface ApiKeyInfo {
  id: string;
  orgId: string;
  org: string;
  name: string;
  prefix: string;
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Returned once, at creation: the only time the full key exists outside the client. */
export interface CreatedApiKey extends ApiKeyInfo {
  key: string;
}

export interface KeyPrincipal {
  keyId: string;
  orgId: string;
}

export interface UsageDay {
  day: string;
  requests: number;
  testRuns: number;
}

export interface Invite {
  id: string;
  orgId: string;
  email: string;
  token: string;
  expiresAt: string;
}

export interface SessionInfo {
  user: User;
  csrfToken: string;
  expiresAt: string;
}

export interface NewSession extends SessionInfo {
  token: string;
}
