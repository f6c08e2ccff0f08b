// SQL of the docs capability: version lists, ingestion rows (also the cross-instance lease) and passages.
// The same statements run on PGlite and PostgreSQL; passages are ranked in memory (package-index.ts, rank.ts).
import { storableJsonText, storableText, storableValue, type Queryable } from '../store/index.ts';
import { headOf } from '../text-cut.ts';
import type { PassageDraft } from './extract/types.ts';
import type { IndexedPassage } from './rank.ts';
import type { Releases } from './sources/types.ts';
import { storedIdentifiers } from './stored-identifiers.ts';

export interface ReleaseRow extends Releases { checkedAt: Date }
export interface VersionRow {
  slug: string; version: string; status: 'indexing' | 'ready' | 'failed'; docsUrl: string | null;
  facts: Record<string, unknown>; passages: number; siteStatus: string; error: string | null; indexedAt: Date | null;
  leaseActive: boolean;
  /** The extractor version that made the passages (its ecosystem's, EXTRACTOR_VERSIONS; 0 before versions were recorded). */
  extractor: number;
}

export async function getReleases(db: Queryable, slug: string): Promise<ReleaseRow | undefined> {
  const rows = await db.query<{ latest: string; versions: string[]; tags: Record<string, string>; checked_at: Date | string }>(
    'select latest, versions, tags, checked_at from docs_releases where slug = $1', [slug]);
  const row = rows[0];
  return row && { latest: row.latest, versions: row.versions, tags: row.tags, checkedAt: new Date(row.checked_at) };
}

export async function saveReleases(db: Queryable, slug: string, releases: Releases): Promise<void> {
  await db.query(
    `insert into docs_releases (slug, latest, versions, tags, checked_at) values ($1, $2, $3::jsonb, $4::jsonb, now())
     on conflict (slug) do update set latest = excluded.latest, versions = excluded.versions, tags = excluded.tags, checked_at = now()`,
    [slug, releases.latest, JSON.stringify(releases.versions), JSON.stringify(releases.tags)]);
}

const VERSION_COLUMNS = `slug, version, status, docs_url, facts, passages, site_status, error, indexed_at, extractor,
  coalesce(lease_until > now(), false) as lease_active`;

interface VersionDbRow {
  slug: string; version: string; status: VersionRow['status']; docs_url: string | null; facts: Record<string, unknown>;
  passages: number; site_status: string; error: string | null; indexed_at: Date | string | null; lease_active: boolean;
  extractor: number;
}
const toVersion = (row: VersionDbRow): VersionRow => ({
  slug: row.slug, version: row.version, status: row.status, docsUrl: row.docs_url, facts: row.facts ?? {},
  passages: Number(row.passages), siteStatus: row.site_status, error: row.error,
  indexedAt: row.indexed_at ? new Date(row.indexed_at) : null, leaseActive: row.lease_active, extractor: Number(row.extractor),
});

export async function getVersion(db: Queryable, slug: string, version: string): Promise<VersionRow | undefined> {
  const rows = await db.query<VersionDbRow>(`select ${VERSION_COLUMNS} from docs_versions where slug = $1 and version = $2`, [slug, version]);
  return rows[0] && toVersion(rows[0]);
}

/** The newest indexed version of a tool: what is served, marked stale, when the registry cannot be reached. */
export async function newestReady(db: Queryable, slug: string): Promise<VersionRow | undefined> {
  const rows = await db.query<VersionDbRow>(
    `select ${VERSION_COLUMNS} from docs_versions where slug = $1 and status = 'ready' order by indexed_at desc limit 1`, [slug]);
  return rows[0] && toVersion(rows[0]);
}

/**
 * Takes the ingestion lease of (slug, version) unless it is ready (from an extractor at least `extractor`) or another
 * instance holds a live lease. One statement, so two instances racing on PostgreSQL cannot both win. Returns the lease
 * (its end as text, to the microsecond) or undefined: a lease is only taken once the one before it has ended, so its end
 * is later than any earlier lease's on the row and names this claim alone (holdsLease, markFailed, restoreReady).
 */
export async function claimLease(db: Queryable, slug: string, version: string, leaseSeconds: number, extractor: number): Promise<string | undefined> {
  const rows = await db.query<{ lease: string }>(
    `insert into docs_versions (slug, version, status, lease_until) values ($1, $2, 'indexing', now() + make_interval(secs => $3))
     on conflict (slug, version) do update set status = 'indexing', lease_until = now() + make_interval(secs => $3), error = null
       where (docs_versions.status <> 'ready' or docs_versions.extractor < $4)
         and (docs_versions.lease_until is null or docs_versions.lease_until < now())
     returning lease_until::text as lease`, [slug, version, leaseSeconds, extractor]);
  return rows[0]?.lease;
}

/**
 * Moves the end of `lease` (still the row's) to `leaseSeconds` from now; returns the new end, the lease's name from
 * then on, or undefined when the lease is no longer the row's (ended by the write, released, or taken over). The new
 * end is later than the old, and another instance claims only after it, so it still names this claim alone.
 */
export async function renewLease(db: Queryable, slug: string, version: string, lease: string, leaseSeconds: number): Promise<string | undefined> {
  const rows = await db.query<{ lease: string }>(
    `update docs_versions set lease_until = now() + make_interval(secs => $4)
     where slug = $1 and version = $2 and lease_until = $3::timestamptz returning lease_until::text as lease`, [slug, version, lease, leaseSeconds]);
  return rows[0]?.lease;
}

/** Whether the ingestion lease of (slug, version) could be taken (claimLease), for callers that need no lease token. */
export async function claimIngestion(db: Queryable, slug: string, version: string, leaseSeconds: number, extractor: number): Promise<boolean> {
  return (await claimLease(db, slug, version, leaseSeconds, extractor)) !== undefined;
}

/**
 * Inside a transaction: whether `lease` is still the version's, locking its row until the transaction ends. An ingestion
 * that outlived its lease may have been taken over by another instance; while the row is locked nobody can claim it,
 * so a write that finds its lease still there (expired or not) is the only one.
 */
export async function holdsLease(tx: Queryable, slug: string, version: string, lease: string): Promise<boolean> {
  const rows = await tx.query<{ version: string }>(
    'select version from docs_versions where slug = $1 and version = $2 and lease_until = $3::timestamptz for update', [slug, version, lease]);
  return rows.length === 1;
}

/** `and the row still holds $n`, when a lease is given: a statement of an ingestion that lost its lease changes nothing. */
const underLease = (param: number) => `and ($${param}::timestamptz is null or lease_until = $${param}::timestamptz)`;

/** Back to ready with the passages it had (a new indexing of a ready version failed): lease released. */
export async function restoreReady(db: Queryable, slug: string, version: string, lease?: string): Promise<void> {
  await db.query(`update docs_versions set status = 'ready', lease_until = null, lease_owner = null where slug = $1 and version = $2 ${underLease(3)}`,
    [slug, version, lease ?? null]);
}

/**
 * Failed, with the extractor version that tried (when given), so a refusal is remembered only until the extractor
 * changes: a newer one may read what an older one refused (an archive over a cap it now reads in part).
 */
export async function markFailed(db: Queryable, slug: string, version: string, error: string, extractor?: number, lease?: string): Promise<void> {
  await db.query(`update docs_versions set status = 'failed', lease_until = null, error = $3, extractor = coalesce($4, extractor)
    where slug = $1 and version = $2 ${underLease(5)}`, [slug, version, storableText(headOf(error, 500)), extractor ?? null, lease ?? null]); // the message may quote package text
}

export { MAX_OWN_IDENTIFIERS, MAX_TEXT_IDENTIFIERS } from './stored-identifiers.ts';

/** A passage's insert row; `identifiers` when the extraction thread found them already (storedIdentifiers). */
function toInsertRow(passage: PassageDraft, ord: number, identifiers = storedIdentifiers(passage)) {
  return {
    ord, url: passage.url, title: passage.title ?? null, headings: passage.headings, content: passage.content,
    source: passage.source, identifiers, symbol: passage.symbol ?? null, importance: passage.importance ?? 0.5,
    internal: passage.internal ?? false, deprecated: passage.deprecated ?? false,
  };
}

/**
 * A number as a `real` column gives it back: the float32 nearest to it, written as the shortest decimal that is that
 * float32 again (PostgreSQL's output for `real`), so 0.35 stays 0.35 and 0.123456789 becomes 0.12345679.
 */
export function asReal(value: number): number {
  const single = Math.fround(value);
  if (!Number.isFinite(single)) return single;
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(single.toPrecision(digits));
    if (Math.fround(shortest) === single) return shortest;
  }
  return Number(single.toPrecision(9));
}

/** Passages as the store will hold them, and the rows that insert them (`stored[i]` is `rows[i]`'s passage). */
export interface PreparedPassages {
  stored: IndexedPassage[];
  rows: Array<ReturnType<typeof toInsertRow>>;
}

/**
 * `passages` made what reading them back (package-index.ts) would give — the text made storable, importance a `real` —
 * without the store, so a version just extracted is searched before its passages are written (writePassages). Their
 * ids are the store's: 0 until writePassages gives each passage object the id it was inserted with (nothing ranks or
 * answers by id; a package's vectors are kept by passage order). `identifiers[i]`, when given, is passage i's
 * storedIdentifiers, found on the extraction thread.
 */
export function preparePassages(passages: PassageDraft[], startOrd = 0, identifiers?: string[][]): PreparedPassages {
  const rows = passages.map((p, i) => toInsertRow(p, startOrd + i, identifiers?.[i]));
  const stored: IndexedPassage[] = [];
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const batch = rows.slice(i, i + INSERT_BATCH);
    // The store replaces NUL and lone surrogates (src/store/sanitise.ts): the rows as stored, read from one look at the text.
    const json = JSON.stringify(batch);
    const asStored = storableJsonText(json) === json ? <T>(row: T) => row : storableValue;
    for (const { ord: _ord, ...row } of batch) stored.push({ ...asStored(row), id: 0, importance: asReal(row.importance) });
  }
  return { stored, rows };
}

const INSERT_BATCH = 1000;
/**
 * Rows per insert statement. PGlite runs a statement on the event loop from start to end: at 1,000 rows kubernetes'
 * write held it for seconds, and the question asked right after the first one waited for it (later p50 0.8 → 6.6 s).
 */
const WRITE_BATCH = 100;

/** Inserts prepared passages, in batches (one statement each), and gives each passage object its id. */
export async function writePassages(db: Queryable, slug: string, version: string, prepared: PreparedPassages): Promise<void> {
  const first = prepared.rows[0]?.ord ?? 0;
  for (let i = 0; i < prepared.rows.length; i += WRITE_BATCH) {
    const ids = await db.query<{ id: number | string; ord: number }>(
      `insert into docs_passages (slug, version, ord, url, title, headings, content, source, identifiers, symbol, importance, internal, deprecated)
       select $1, $2, p.ord, p.url, p.title, p.headings, p.content, p.source, p.identifiers, p.symbol, p.importance, p.internal, p.deprecated
       from jsonb_to_recordset($3::jsonb) as p(ord int, url text, title text, headings text[], content text, source text,
         identifiers text[], symbol text, importance real, internal boolean, deprecated boolean)
       returning id, ord`,
      [slug, version, JSON.stringify(prepared.rows.slice(i, i + WRITE_BATCH))]);
    for (const row of ids) prepared.stored[Number(row.ord) - first]!.id = Number(row.id);
    // PGlite answers a statement without returning to the event loop (its promises settle as microtasks), so a
    // version's statements ran as one block: kubernetes' write held the loop 7–13 s at load 22–31 (round 19). One
    // turn of the loop between statements lets timers and sockets in: a block is one statement long.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Inserts passages after `startOrd`. Returns them as the store now holds them, in order — what reading them back
 * (package-index.ts) would give — so a version just indexed is searched without reading its passages back.
 */
export async function insertPassages(db: Queryable, slug: string, version: string, passages: PassageDraft[], startOrd = 0): Promise<IndexedPassage[]> {
  const prepared = preparePassages(passages, startOrd);
  await writePassages(db, slug, version, prepared);
  return prepared.stored;
}

/** The version's passages replaced by `prepared` (inside the caller's transaction, so no half version is ever read). */
export async function replacePassages(db: Queryable, slug: string, version: string, prepared: PreparedPassages): Promise<void> {
  await db.query('delete from docs_passages where slug = $1 and version = $2', [slug, version]);
  await writePassages(db, slug, version, prepared);
}

export async function markReady(db: Queryable, slug: string, version: string,
  fields: { docsUrl: string | null; facts: object; siteStatus: string; extractor: number; indexedAt?: Date }): Promise<void> {
  // indexedAt: the moment the answers given before this write said (part of the package index's stamp).
  await db.query(
    `update docs_versions set status = 'ready', lease_until = null, error = null, indexed_at = coalesce($7::timestamptz, now()),
       docs_url = $3, facts = $4::jsonb,
       site_status = $5, extractor = $6, passages = (select count(*) from docs_passages where slug = $1 and version = $2)
     where slug = $1 and version = $2`,
    [slug, version, fields.docsUrl && storableText(fields.docsUrl), JSON.stringify(fields.facts), fields.siteStatus, fields.extractor,
      fields.indexedAt?.toISOString() ?? null]);
}

export async function markSite(db: Queryable, slug: string, version: string, siteStatus: string): Promise<void> {
  await db.query(
    `update docs_versions set site_status = $3, passages = (select count(*) from docs_passages where slug = $1 and version = $2)
     where slug = $1 and version = $2`, [slug, version, siteStatus]);
}

export async function passageCount(db: Queryable, slug: string, version: string): Promise<number> {
  const rows = await db.query<{ n: number | string }>('select count(*) as n from docs_passages where slug = $1 and version = $2', [slug, version]);
  return Number(rows[0]?.n ?? 0);
}

export interface StoredPassage { id: number; title: string | null; headings: string[]; content: string; url: string; source: string; symbol: string | null }

export async function allPassages(db: Queryable, slug: string, version: string): Promise<StoredPassage[]> {
  const rows = await db.query<Omit<StoredPassage, 'id'> & { id: number | string }>(
    'select id, title, headings, content, url, source, symbol from docs_passages where slug = $1 and version = $2 order by ord', [slug, version]);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The most popular tools of the catalog (read-only use of the catalog's table) for pre-indexing their docs. */
export async function topToolSlugs(db: Queryable, n: number): Promise<string[]> {
  const rows = await db.query<{ slug: string }>('select slug from tools order by popularity desc, slug limit $1', [n]);
  return rows.map((row) => row.slug);
}
