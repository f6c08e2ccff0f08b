// API keys in the store: create (shown once), list, revoke, and verify on every request.
// Verification reads the database each time, so a revocation by any instance holds on the very next request.
import { ToolDexError, notFound } from '../errors.ts';
import type { Queryable } from '../store/index.ts';
import { iso, isoOrNull } from './dates.ts';
import { newId, safeEqual } from './ids.ts';
import { displayPrefix, generateApiKey, hashSecret, isWellFormedApiKey } from './key-format.ts';
import type { ApiKeyInfo, CreatedApiKey, KeyPrincipal } from './types.ts';

interface KeyRow {
  id: string; org_id: string; org: string; name: string; prefix: string; created_by: string;
  created_at: unknown; last_used_at: unknown; revoked_at: unknown;
}

const SELECT = `select k.id, k.org_id, o.name as org, k.name, k.prefix, k.created_by, k.created_at, k.last_used_at, k.revoked_at
  from api_keys k join organisations o on o.id = k.org_id`;

const toInfo = (row: KeyRow): ApiKeyInfo => ({
  id: row.id, orgId: row.org_id, org: row.org, name: row.name, prefix: row.prefix, createdBy: row.created_by,
  createdAt: iso(row.created_at), lastUsedAt: isoOrNull(row.last_used_at), revokedAt: isoOrNull(row.revoked_at),
});

export const invalidApiKey = () =>
  new ToolDexError('invalid_api_key', 403, 'The API key is malformed, unknown or revoked; create a new one under Settings → API Keys.');

export async function createKey(db: Queryable, input: { orgId: string; name: string; createdBy: string }): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const id = newId('key');
  await db.query('insert into api_keys (id, org_id, name, prefix, key_hash, created_by) values ($1, $2, $3, $4, $5, $6)',
    [id, input.orgId, input.name, displayPrefix(key), hashSecret(key), input.createdBy]);
  const [row] = await db.query<KeyRow>(`${SELECT} where k.id = $1`, [id]);
  if (!row) throw new Error('key vanished after insert');
  return { ...toInfo(row), key };
}

export async function listKeys(db: Queryable, filter: { orgId?: string } = {}): Promise<ApiKeyInfo[]> {
  const rows = filter.orgId
    ? await db.query<KeyRow>(`${SELECT} where k.org_id = $1 order by k.created_at desc, k.id`, [filter.orgId])
    : await db.query<KeyRow>(`${SELECT} order by o.name, k.created_at desc, k.id`);
  return rows.map(toInfo);
}

/** Scoped to an organisation when orgId is given: another organisation's key is "not found", never "forbidden". */
export async function getKey(db: Queryable, id: string, orgId?: string): Promise<ApiKeyInfo> {
  const [row] = await db.query<KeyRow>(`${SELECT} where k.id = $1 and ($2::text is null or k.org_id = $2)`, [id, orgId ?? null]);
  if (!row) throw notFound(`No API key ${id}${orgId ? ' in this organisation' : ''}; list keys to see their ids.`);
  return toInfo(row);
}

/** Idempotent: revoking a revoked key keeps its first revocation time. */
export async function revokeKey(db: Queryable, id: string, orgId?: string): Promise<ApiKeyInfo> {
  await getKey(db, id, orgId);
  await db.query('update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1', [id]);
  return getKey(db, id, orgId);
}

/**
 * Keys verified by this process, for the embedded store only: PGlite admits one process, so every revocation
 * goes through this process (dashboard or admin socket) and evicts the entry. On PostgreSQL other instances
 * revoke too, so there every request reads the database.
 */
export class VerifiedKeys {
  private byHash = new Map<string, KeyPrincipal & { until: number }>();
  constructor(private readonly ttlMs = 5 * 60_000, private readonly max = 10_000) {}

  get(hash: string): KeyPrincipal | undefined {
    const entry = this.byHash.get(hash);
    if (!entry || entry.until <= Date.now()) return undefined;
    return { keyId: entry.keyId, orgId: entry.orgId };
  }

  set(hash: string, principal: KeyPrincipal): void {
    if (this.byHash.size >= this.max) this.byHash.clear();
    this.byHash.set(hash, { ...principal, until: Date.now() + this.ttlMs });
  }

  forget(keyId: string): void {
    for (const [hash, entry] of this.byHash) if (entry.keyId === keyId) this.byHash.delete(hash);
  }
}

export async function verifyKey(db: Queryable, key: string, cache?: VerifiedKeys): Promise<KeyPrincipal> {
  if (!isWellFormedApiKey(key)) throw invalidApiKey();
  const hash = hashSecret(key);
  const cached = cache?.get(hash);
  if (cached) return cached;
  const [row] = await db.query<{ id: string; org_id: string; key_hash: string }>(
    'select id, org_id, key_hash from api_keys where key_hash = $1 and revoked_at is null', [hash]);
  // The index finds the row by hash; the explicit constant-time comparison keeps the final check free of early exits.
  if (!row || !safeEqual(row.key_hash, hash)) throw invalidApiKey();
  cache?.set(hash, { keyId: row.id, orgId: row.org_id });
  return { keyId: row.id, orgId: row.org_id };
}
