// SQL of the docs capability: version lists, ingestion rows (also the cross-instance lease) and passages.
// The same statements run on PGlite and PostgreSQL; passages are ranked with the built-in full-text search.
import type { Queryable, SqlParam } from '../store/index.ts';
import type { PassageDraft } from './extract/types.ts';
import type { Releases } from './sources/types.ts';
import { expandCodeTokens, identifiersIn } from './tokens.ts';

export interface ReleaseRow extends Releases { checkedAt: Date }
export interface VersionRow {
  slug: string; version: string; status: 'indexing' | 'ready' | 'failed'; docsUrl: string | null;
  facts: Record<string, unknown>; passages: number; siteStatus: string; error: string | null; indexedAt: Date | null;
  leaseActive: boolean;
}
export interface PassageRow {
  id: number; url: string; title: string | null; headings: string[]; content: string; source: string;
  identifiers: string[]; fts: number; covered: number; headingHits: number; exact: boolean;
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

const VERSION_COLUMNS = `slug, version, status, docs_url, facts, passages, site_status, error, indexed_at,
  coalesce(lease_until > now(), false) as lease_active`;

interface VersionDbRow {
  slug: string; version: string; status: VersionRow['status']; docs_url: string | null; facts: Record<string, unknown>;
  passages: number; site_status: string; error: string | null; indexed_at: Date | string | null; lease_active: boolean;
}
const toVersion = (row: VersionDbRow): VersionRow => ({
  slug: row.slug, version: row.version, status: row.status, docsUrl: row.docs_url, facts: row.facts ?? {},
  passages: Number(row.passages), siteStatus: row.site_status, error: row.error,
  indexedAt: row.indexed_at ? new Date(row.indexed_at) : null, leaseActive: row.lease_active,
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
 * Takes the ingestion lease of (slug, version) unless it is ready or another instance holds a live lease.
 * One statement, so two instances racing on PostgreSQL cannot both win.
 */
export async function claimIngestion(db: Queryable, slug: string, version: string, leaseSeconds: number): Promise<boolean> {
  const rows = await db.query<{ version: string }>(
    `insert into docs_versions (slug, version, status, lease_until) values ($1, $2, 'indexing', now() + make_interval(secs => $3))
     on conflict (slug, version) do update set status = 'indexing', lease_until = now() + make_interval(secs => $3), error = null
       where docs_versions.status <> 'ready' and (docs_versions.lease_until is null or docs_versions.lease_until < now())
     returning version`, [slug, version, leaseSeconds]);
  return rows.length === 1;
}

export async function markFailed(db: Queryable, slug: string, version: string, error: string): Promise<void> {
  await db.query(`update docs_versions set status = 'failed', lease_until = null, error = $3 where slug = $1 and version = $2`,
    [slug, version, error.slice(0, 500)]);
}

function toInsertRow(passage: PassageDraft, ord: number) {
  const trail = passage.headings.slice(0, -1).join(' \n ');
  const identifiers = [...new Set([...(passage.identifiers ?? []), ...identifiersIn(`${passage.title ?? ''}\n${passage.content}`)])].slice(0, 40);
  return {
    ord, url: passage.url, title: passage.title ?? null, headings: passage.headings, content: passage.content,
    source: passage.source, identifiers,
    title_x: expandCodeTokens(passage.title ?? ''), trail_x: expandCodeTokens(trail),
    ids_x: identifiers.join(' '), content_x: expandCodeTokens(passage.content),
  };
}

/** Inserts passages after `startOrd`; the tsvector weighs the title A, the heading trail B, identifiers C, the text D. */
export async function insertPassages(db: Queryable, slug: string, version: string, passages: PassageDraft[], startOrd = 0): Promise<void> {
  for (let i = 0; i < passages.length; i += 500) {
    const batch = passages.slice(i, i + 500).map((p, j) => toInsertRow(p, startOrd + i + j));
    await db.query(
      `insert into docs_passages (slug, version, ord, url, title, headings, content, source, identifiers, search)
       select $1, $2, p.ord, p.url, p.title, p.headings, p.content, p.source, p.identifiers,
         setweight(to_tsvector('english', coalesce(p.title_x, '')), 'A') || setweight(to_tsvector('english', p.trail_x), 'B')
         || setweight(to_tsvector('english', p.ids_x), 'C') || setweight(to_tsvector('english', p.content_x), 'D')
       from jsonb_to_recordset($3::jsonb) as p(ord int, url text, title text, headings text[], content text, source text,
         identifiers text[], title_x text, trail_x text, ids_x text, content_x text)`,
      [slug, version, JSON.stringify(batch)]);
  }
}

export async function replacePassages(db: Queryable, slug: string, version: string, passages: PassageDraft[]): Promise<void> {
  await db.query('delete from docs_passages where slug = $1 and version = $2', [slug, version]);
  await insertPassages(db, slug, version, passages);
  await refreshLexemeStats(db, slug, version);
}

/** Recounts how many passages of (slug, version) hold each lexeme; ts_stat reads the tsvectors themselves. */
export async function refreshLexemeStats(db: Queryable, slug: string, version: string): Promise<void> {
  await db.query('delete from docs_lexemes where slug = $1 and version = $2', [slug, version]);
  await db.query(
    `insert into docs_lexemes (slug, version, lexeme, df)
     select $1, $2, word, ndoc from ts_stat(format('select search from docs_passages where slug = %L and version = %L', $1::text, $2::text))`,
    [slug, version]);
}

export async function markReady(db: Queryable, slug: string, version: string, fields: { docsUrl: string | null; facts: object; siteStatus: string }): Promise<void> {
  await db.query(
    `update docs_versions set status = 'ready', lease_until = null, error = null, indexed_at = now(), docs_url = $3, facts = $4::jsonb,
       site_status = $5, passages = (select count(*) from docs_passages where slug = $1 and version = $2)
     where slug = $1 and version = $2`,
    [slug, version, fields.docsUrl, JSON.stringify(fields.facts), fields.siteStatus]);
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

export interface Lexeme { lexeme: string; df: number }

/** Stemmed lexemes of the question (same English configuration as the index) that occur in this version, with their df. */
export async function lexemesOf(db: Queryable, slug: string, version: string, terms: string[]): Promise<Lexeme[]> {
  if (!terms.length) return [];
  const rows = await db.query<{ lexeme: string; df: number }>(
    `select lexeme, df from docs_lexemes
     where slug = $1 and version = $2 and lexeme = any(tsvector_to_array(to_tsvector('english', $3)))`, [slug, version, terms.join(' ')]);
  return rows.filter((row) => /^[\p{L}\p{N}_]+$/u.test(row.lexeme)).map((row) => ({ lexeme: row.lexeme, df: Number(row.df) }));
}

/**
 * Candidates for a question: passages of (slug, version) matching any lexeme, with how many distinct lexemes each
 * covers (anywhere and in headings) and whether it names an identifier from the question; the caller re-ranks.
 */
export async function searchPassages(db: Queryable, slug: string, version: string, lexemes: Array<{ lexeme: string; weight: number }>, identifiers: string[], limit = 80): Promise<PassageRow[]> {
  if (!lexemes.length) return [];
  const params: SqlParam[] = [slug, version, lexemes.map((l) => l.lexeme).join(' | '), identifiers, limit];
  const coverage: string[] = [];
  const headings: string[] = [];
  for (const { lexeme, weight } of lexemes) {
    params.push(lexeme, weight);
    const [term, w] = [`$${params.length - 1}`, `$${params.length}::float8`];
    coverage.push(`(case when search @@ to_tsquery('simple', ${term}) then ${w} else 0 end)`);
    headings.push(`(case when search @@ to_tsquery('simple', ${term} || ':AB') then ${w} else 0 end)`);
  }
  const rows = await db.query<{
    id: number | string; url: string; title: string | null; headings: string[]; content: string; source: string;
    identifiers: string[]; fts: number; covered: number; heading_hits: number; exact: boolean;
  }>(
    `select id, url, title, headings, content, source, identifiers, ts_rank(search, q, 1) as fts,
       ${coverage.join(' + ')} as covered, ${headings.join(' + ')} as heading_hits, identifiers && $4::text[] as exact
     from docs_passages, to_tsquery('simple', $3) as q
     where slug = $1 and version = $2 and search @@ q
     order by covered desc, fts desc limit $5`, params);
  return rows.map((row) => ({
    id: Number(row.id), url: row.url, title: row.title, headings: row.headings, content: row.content, source: row.source,
    identifiers: row.identifiers, fts: Number(row.fts), covered: Number(row.covered), headingHits: Number(row.heading_hits), exact: row.exact,
  }));
}

export async function allPassages(db: Queryable, slug: string, version: string): Promise<Array<{ id: number; title: string | null; headings: string[]; content: string; url: string }>> {
  const rows = await db.query<{ id: number | string; title: string | null; headings: string[]; content: string; url: string }>(
    'select id, title, headings, content, url from docs_passages where slug = $1 and version = $2 order by ord', [slug, version]);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The most popular tools of the catalog (read-only use of the catalog's table) for pre-indexing their docs. */
export async function topToolSlugs(db: Queryable, n: number): Promise<string[]> {
  const rows = await db.query<{ slug: string }>('select slug from tools order by popularity desc, slug limit $1', [n]);
  return rows.map((row) => row.slug);
}
