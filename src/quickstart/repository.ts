// SQL of the quickstart capability: one verification row per (slug, version) that is also the cross-instance claim.
// The same statements run on PGlite and PostgreSQL; a claim is one statement, so two instances cannot both win.
import { storableText, type Queryable } from '../store/index.ts';
import type { VerificationResult, VerifiedStatus } from './types.ts';
import { VERIFIER_VERSION } from './verify.ts';

export interface VerificationRow {
  slug: string; version: string; ecosystem: string; name: string; status: VerifiedStatus; attempts: number;
  nextAttemptAt: Date; leaseActive: boolean; result: VerificationResult | null; error: string | null;
  requestedAt: Date; finishedAt: Date | null;
  /** The verifier that made the verdict (VERIFIER_VERSION); 0 for rows made before it was recorded. */
  verifier: number;
}

/** A verdict made by this verifier (or a newer one, during a rolling deploy); a pending row is neither. */
export const isCurrentVerdict = (row: VerificationRow) => row.status !== 'pending' && row.verifier >= VERIFIER_VERSION;

interface DbRow {
  slug: string; version: string; ecosystem: string; name: string; status: VerifiedStatus; attempts: number;
  next_attempt_at: Date | string; lease_active: boolean; result: VerificationResult | null; error: string | null;
  requested_at: Date | string; finished_at: Date | string | null; verifier: number;
}

const COLUMNS = `slug, version, ecosystem, name, status, attempts, next_attempt_at, coalesce(lease_until > now(), false) as lease_active,
  result, error, requested_at, finished_at, verifier`;

const toRow = (row: DbRow): VerificationRow => ({
  slug: row.slug, version: row.version, ecosystem: row.ecosystem, name: row.name, status: row.status, attempts: Number(row.attempts),
  nextAttemptAt: new Date(row.next_attempt_at), leaseActive: row.lease_active, result: row.result, error: row.error,
  requestedAt: new Date(row.requested_at), finishedAt: row.finished_at ? new Date(row.finished_at) : null, verifier: Number(row.verifier),
});

export async function getVerification(db: Queryable, slug: string, version: string): Promise<VerificationRow | undefined> {
  const rows = await db.query<DbRow>(`select ${COLUMNS} from quickstart_verifications where slug = $1 and version = $2`, [slug, version]);
  return rows[0] && toRow(rows[0]);
}

/**
 * Records that (slug, version) should be verified. An existing row is left as it is, unless an older verifier made
 * its verdict: then it is pending again (its result kept until the new verdict, as resetVerification does), in the
 * same statement, so two instances cannot both reset it after one has verified it anew.
 */
export async function requestVerification(db: Queryable, key: { slug: string; version: string; ecosystem: string; name: string }): Promise<VerificationRow> {
  await db.query(
    `insert into quickstart_verifications (slug, version, ecosystem, name) values ($1, $2, $3, $4)
     on conflict (slug, version) do update set status = 'pending', attempts = 0, next_attempt_at = now(), error = null, finished_at = null
     where quickstart_verifications.status <> 'pending' and quickstart_verifications.verifier < $5
       and (quickstart_verifications.lease_until is null or quickstart_verifications.lease_until < now())`,
    [key.slug, key.version, key.ecosystem, key.name, VERIFIER_VERSION]);
  return (await getVerification(db, key.slug, key.version))!;
}

/**
 * Takes the verification of (slug, version) for `leaseSeconds` when it is pending, due, and nobody holds a live lease.
 * `force` also takes a finished row back (re-verification on demand).
 */
export async function claimVerification(db: Queryable, slug: string, version: string, owner: string, leaseSeconds: number): Promise<boolean> {
  const rows = await db.query<{ slug: string }>(
    `update quickstart_verifications set lease_until = now() + make_interval(secs => $4), lease_owner = $3
     where slug = $1 and version = $2 and status = 'pending' and next_attempt_at <= now()
       and (lease_until is null or lease_until < now())
     returning slug`, [slug, version, owner, leaseSeconds]);
  return rows.length === 1;
}

/** Extends a held lease (long rust builds); false when another instance took it over. */
export async function renewLease(db: Queryable, slug: string, version: string, owner: string, leaseSeconds: number): Promise<boolean> {
  const rows = await db.query<{ slug: string }>(
    `update quickstart_verifications set lease_until = now() + make_interval(secs => $4)
     where slug = $1 and version = $2 and lease_owner = $3 and status = 'pending' returning slug`, [slug, version, owner, leaseSeconds]);
  return rows.length === 1;
}

export async function finishVerification(db: Queryable, slug: string, version: string, owner: string, status: Exclude<VerifiedStatus, 'pending'>, result: VerificationResult): Promise<void> {
  await db.query(
    `update quickstart_verifications set status = $4, result = $5::jsonb, error = null, lease_until = null, finished_at = now(),
       attempts = attempts + 1, verifier = $6
     where slug = $1 and version = $2 and (lease_owner = $3 or lease_owner is null)`,
    [slug, version, owner, status, JSON.stringify(result), VERIFIER_VERSION]);
}

/**
 * While a verification runs: the program a pending context may offer, unverified (verify.ts's preview). Kept in the
 * result column of the pending row, which finishVerification overwrites with the verdict.
 */
export async function savePreview(db: Queryable, slug: string, version: string, owner: string, preview: VerificationResult): Promise<void> {
  await db.query(
    `update quickstart_verifications set result = $4::jsonb where slug = $1 and version = $2 and lease_owner = $3 and status = 'pending'`,
    [slug, version, owner, JSON.stringify(preview)]);
}

/** A transient fault (registry or sandbox down): try again after `delaySeconds`; the row stays pending. */
export async function retryLater(db: Queryable, slug: string, version: string, owner: string, error: string, delaySeconds: number): Promise<void> {
  await db.query(
    `update quickstart_verifications set attempts = attempts + 1, error = $4, lease_until = null,
       next_attempt_at = now() + make_interval(secs => $5)
     where slug = $1 and version = $2 and lease_owner = $3`, [slug, version, owner, storableText(error.slice(0, 500)), delaySeconds]); // may quote program output
}

/** Puts a finished row back to pending (re-verification asked for explicitly). */
export async function resetVerification(db: Queryable, slug: string, version: string): Promise<void> {
  await db.query(
    `update quickstart_verifications set status = 'pending', attempts = 0, next_attempt_at = now(), error = null, finished_at = null
     where slug = $1 and version = $2 and (lease_until is null or lease_until < now())`, [slug, version]);
}

/** Pending rows whose time has come and that nobody holds: what a sweeper picks up (also after a crash). */
export async function dueVerifications(db: Queryable, limit: number): Promise<Array<{ slug: string; version: string }>> {
  return db.query<{ slug: string; version: string }>(
    `select slug, version from quickstart_verifications
     where status = 'pending' and next_attempt_at <= now() and (lease_until is null or lease_until < now())
     order by next_attempt_at limit $1`, [limit]);
}

/**
 * Latest indexed versions of tools that were verified before but not on that version (a new release was indexed):
 * read-only use of the docs capability's tables.
 */
export async function newlyIndexedVersions(db: Queryable, limit: number): Promise<Array<{ slug: string; version: string; ecosystem: string; name: string }>> {
  return db.query<{ slug: string; version: string; ecosystem: string; name: string }>(
    `select distinct on (r.slug) r.slug, r.latest as version, q.ecosystem, q.name
     from docs_releases r
     join docs_versions v on v.slug = r.slug and v.version = r.latest and v.status = 'ready'
     join quickstart_verifications q on q.slug = r.slug
     where not exists (select 1 from quickstart_verifications n where n.slug = r.slug and n.version = r.latest)
     order by r.slug, q.requested_at desc limit $1`, [limit]);
}
