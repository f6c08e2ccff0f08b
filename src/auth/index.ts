// The auth capability: organisations, users, cookie sessions, invites, API keys, per-key usage and the shared
// rate-limit counters. Knows nothing of HTTP, MCP or terminals; surfaces call these functions.
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';
import { createSession, endSession, findSession, signIn, signUp } from './accounts.ts';
import { acceptInvite, createInvite } from './invites.ts';
import { createKey, getKey, listKeys, revokeKey, verifyKey, VerifiedKeys } from './keys.ts';
import { createOrg, ensureOrg, findOrgByName, membersOf, orgsOf, requireMember } from './orgs.ts';
import { createRateLimitCounters, type RateLimitHit } from './ratelimit.ts';
import type {
  ApiKeyInfo, CreatedApiKey, Invite, KeyPrincipal, Member, NewSession, Organisation, SessionInfo, UsageDay, User,
} from './types.ts';
import { UsageRecorder, usagePerDay } from './usage.ts';
import { notFound } from '../errors.ts';

export type * from './types.ts';
export { isWellFormedApiKey, KEY_PREFIX } from './key-format.ts';
export { safeEqual } from './ids.ts';

export const USAGE_DAYS_MAX = 90;

export interface Auth {
  /** TOOLDEX_AUTH=required: /tools/* and /mcp need a valid key. */
  readonly required: boolean;
  verifyKey(key: string): Promise<KeyPrincipal>;
  recordUsage(keyId: string, kind: 'request' | 'test'): void;
  keys: {
    create(input: { orgId: string; name: string; createdBy: string }): Promise<CreatedApiKey>;
    /** Operators: creates the organisation when it does not exist. */
    createForOrgName(input: { org: string; name: string; createdBy: string }): Promise<CreatedApiKey>;
    list(filter?: { orgId?: string; org?: string }): Promise<ApiKeyInfo[]>;
    revoke(id: string, orgId?: string): Promise<ApiKeyInfo>;
    usage(id: string, orgId: string, days: number): Promise<{ key: ApiKeyInfo; days: UsageDay[] }>;
  };
  accounts: {
    signUp(email: string, password: string): Promise<User>;
    signIn(email: string, password: string, clientAddress: string): Promise<User>;
    startSession(userId: string): Promise<NewSession>;
    session(token: string): Promise<SessionInfo | undefined>;
    endSession(token: string): Promise<void>;
  };
  orgs: {
    create(name: string, ownerId: string): Promise<Organisation>;
    of(userId: string): Promise<Organisation[]>;
    requireMember(orgId: string, userId: string): Promise<Organisation>;
    members(orgId: string): Promise<Member[]>;
  };
  invites: {
    create(orgId: string, email: string, invitedBy: string): Promise<Invite>;
    accept(token: string, user: User): Promise<Organisation>;
  };
  rateLimit: { hit(bucket: string, windowMs: number): Promise<RateLimitHit> };
  /** Start-up: waits (bounded) until the rate-limit counters are shared, when they live in Redis. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** How long start-up waits for Redis before counting per instance (it keeps reconnecting afterwards). */
const REDIS_CONNECT_WAIT_MS = 5000;

export interface AuthOptions {
  /** Counters in the database (default on PostgreSQL, where instances may be several) or in process memory. */
  databaseCounters?: boolean;
  /** Remember verified keys in this process (default on the embedded store, where only this process revokes). */
  cacheVerifiedKeys?: boolean;
}

export function createAuth(store: Store, config: Pick<Config, 'TOOLDEX_AUTH' | 'REDIS_URL'>, logger: Logger, options: AuthOptions = {}): Auth {
  const embedded = store.kind === 'pglite';
  const usage = new UsageRecorder(store, logger);
  const counters = createRateLimitCounters(store, logger, { inDatabase: options.databaseCounters ?? !embedded, redisUrl: config.REDIS_URL });
  const verified = options.cacheVerifiedKeys ?? embedded ? new VerifiedKeys() : undefined;
  // Expired sessions and sign-in throttling windows are dead weight; any instance may sweep them.
  const sweeper = setInterval(() => {
    store.query('delete from auth_sessions where expires_at < now()')
      .then(() => store.query('delete from login_failures where reset_at < now()'))
      .catch((err) => logger.warn({ err }, 'sweeping expired sessions failed'));
  }, 10 * 60_000);
  sweeper.unref();
  return {
    required: config.TOOLDEX_AUTH === 'required',
    verifyKey: (key) => verifyKey(store, key, verified),
    recordUsage: (keyId, kind) => usage.record(keyId, kind),
    keys: {
      create: (input) => createKey(store, input),
      async createForOrgName({ org, name, createdBy }) {
        const found = await ensureOrg(store, org);
        return createKey(store, { orgId: found.id, name, createdBy });
      },
      async list(filter = {}) {
        if (filter.org !== undefined) {
          const org = await findOrgByName(store, filter.org);
          if (!org) throw notFound(`No organisation named "${filter.org}".`);
          return listKeys(store, { orgId: org.id });
        }
        return listKeys(store, { orgId: filter.orgId });
      },
      async revoke(id, orgId) {
        const revoked = await revokeKey(store, id, orgId);
        verified?.forget(id);
        return revoked;
      },
      async usage(id, orgId, days) {
        await getKey(store, id, orgId); // not found (404) before any work for a foreign key
        await usage.flush(); // the panel shows requests up to now, not up to the last batch
        return { key: await getKey(store, id, orgId), days: await usagePerDay(store, id, days) };
      },
    },
    accounts: {
      signUp: (email, password) => signUp(store, email, password),
      signIn: (email, password, address) => signIn(store, email, password, address),
      startSession: (userId) => createSession(store, userId),
      session: (token) => findSession(store, token),
      endSession: (token) => endSession(store, token),
    },
    orgs: {
      create: (name, ownerId) => createOrg(store, name, ownerId),
      of: (userId) => orgsOf(store, userId),
      requireMember: (orgId, userId) => requireMember(store, orgId, userId),
      members: (orgId) => membersOf(store, orgId),
    },
    invites: {
      create: (orgId, email, invitedBy) => createInvite(store, orgId, email, invitedBy),
      accept: (token, user) => acceptInvite(store, token, user),
    },
    rateLimit: { hit: (bucket, windowMs) => counters.hit(bucket, windowMs) },
    ready: async () => counters.connected?.(REDIS_CONNECT_WAIT_MS),
    async close() {
      clearInterval(sweeper);
      await counters.close();
      await usage.close();
    },
  };
}
