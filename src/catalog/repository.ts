// SQL of the catalog: reads and upserts of the `tools` table and the catalog revision counter.
import type { Queryable } from '../store/index.ts';
import type { Ecosystem, ToolRecord } from './types.ts';

const COLUMNS = `slug, ecosystem, name, version, description, short_description, keywords, languages, frameworks,
  categories, license, homepage, repository, docs_url, popularity, downloads, updated_at, extra`;

interface ToolRow {
  slug: string; ecosystem: Ecosystem; name: string; version: string | null; description: string;
  short_description: string; keywords: string[]; languages: string[]; frameworks: string[]; categories: string[];
  license: string | null; homepage: string | null; repository: string | null; docs_url: string | null;
  popularity: number; downloads: string | number | null; updated_at: Date | string | null; extra: Record<string, unknown>;
}

function fromRow(row: ToolRow): ToolRecord {
  return {
    slug: row.slug, ecosystem: row.ecosystem, name: row.name, version: row.version, description: row.description,
    shortDescription: row.short_description, keywords: row.keywords ?? [], languages: row.languages ?? [],
    frameworks: row.frameworks ?? [], categories: row.categories ?? [], license: row.license, homepage: row.homepage,
    repository: row.repository, docsUrl: row.docs_url, popularity: Number(row.popularity),
    downloads: row.downloads === null ? null : Number(row.downloads),
    updatedAt: row.updated_at === null ? null : new Date(row.updated_at).toISOString(), extra: row.extra ?? {},
  };
}

export async function getTools(db: Queryable, slugs: string[]): Promise<ToolRecord[]> {
  if (slugs.length === 0) return [];
  const rows = await db.query<ToolRow>(`select ${COLUMNS} from tools where slug = any($1)`, [slugs]);
  return rows.map(fromRow);
}

export async function getTool(db: Queryable, slug: string): Promise<ToolRecord | undefined> {
  return (await getTools(db, [slug]))[0];
}

export async function allTools(db: Queryable): Promise<ToolRecord[]> {
  return (await db.query<ToolRow>(`select ${COLUMNS} from tools`)).map(fromRow);
}

/** Tools written since a moment of the store's clock (ingested_at), for incremental index updates. */
export async function toolsChangedSince(db: Queryable, since: Date): Promise<ToolRecord[]> {
  return (await db.query<ToolRow>(`select ${COLUMNS} from tools where ingested_at >= $1`, [since])).map(fromRow);
}

/** The store's clock: change times are compared with the database's own now(), never a host clock. */
export async function storeNow(db: Queryable): Promise<Date> {
  const rows = await db.query<{ now: Date | string }>('select now() as now');
  return new Date(rows[0]?.now ?? Date.now());
}

export async function countTools(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: string | number }>('select count(*) as n from tools');
  return Number(rows[0]?.n ?? 0);
}

/** Names closest to a mistyped slug or name (pg_trgm similarity), for "did you mean" hints. */
export async function closestSlugs(db: Queryable, text: string, limit = 5): Promise<string[]> {
  const rows = await db.query<{ slug: string }>(
    `select slug from tools where lower(name) % lower($1)
     order by similarity(lower(name), lower($1)) desc, popularity desc limit $2`, [text, limit]);
  return rows.map((row) => row.slug);
}

export async function upsertTools(db: Queryable, tools: ToolRecord[]): Promise<void> {
  if (tools.length === 0) return;
  // One statement per batch: jsonb_to_recordset keeps the parameter count at one, whatever the batch size.
  await db.query(
    `insert into tools (${COLUMNS}, ingested_at)
     select slug, ecosystem, name, version, description, short_description, keywords, languages, frameworks,
            categories, license, homepage, repository, docs_url, popularity, downloads, updated_at, extra, now()
     from jsonb_to_recordset($1::jsonb) as t(slug text, ecosystem text, name text, version text, description text,
       short_description text, keywords text[], languages text[], frameworks text[], categories text[], license text,
       homepage text, repository text, docs_url text, popularity double precision, downloads bigint,
       updated_at timestamptz, extra jsonb)
     on conflict (slug) do update set
       version = excluded.version, description = excluded.description, short_description = excluded.short_description,
       keywords = excluded.keywords, languages = excluded.languages, frameworks = excluded.frameworks,
       categories = excluded.categories, license = excluded.license, homepage = excluded.homepage,
       repository = excluded.repository, docs_url = excluded.docs_url, popularity = excluded.popularity,
       downloads = excluded.downloads, updated_at = excluded.updated_at, extra = excluded.extra, ingested_at = now()`,
    [JSON.stringify(tools.map(toRow), withoutNulChars)]);
  await bumpRevision(db);
}

/** Takes a seed list's popularity (and downloads, when it has them) for tools whose record stays as fetched. */
export async function updatePopularity(db: Queryable, tools: Array<Pick<ToolRecord, 'slug' | 'popularity' | 'downloads'>>): Promise<void> {
  if (tools.length === 0) return;
  await db.query(
    `update tools set popularity = t.popularity, downloads = coalesce(t.downloads, tools.downloads)
     from jsonb_to_recordset($1::jsonb) as t(slug text, popularity double precision, downloads bigint)
     where tools.slug = t.slug`,
    [JSON.stringify(tools.map(({ slug, popularity, downloads }) => ({ slug, popularity, downloads })))]);
  await bumpRevision(db);
}

/** PostgreSQL jsonb rejects U+0000 and unpaired surrogates, both of which published READMEs contain. */
function withoutNulChars(_key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value.replace(/\u0000/g, '').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function toRow(tool: ToolRecord) {
  return {
    slug: tool.slug, ecosystem: tool.ecosystem, name: tool.name, version: tool.version, description: tool.description,
    short_description: tool.shortDescription, keywords: tool.keywords, languages: tool.languages,
    frameworks: tool.frameworks, categories: tool.categories, license: tool.license, homepage: tool.homepage,
    repository: tool.repository, docs_url: tool.docsUrl, popularity: tool.popularity, downloads: tool.downloads,
    updated_at: tool.updatedAt, extra: tool.extra,
  };
}

export async function bumpRevision(db: Queryable): Promise<void> {
  await db.query('update catalog_meta set revision = revision + 1, changed_at = now() where id = 1');
}

export async function catalogRevision(db: Queryable): Promise<number> {
  const rows = await db.query<{ revision: string | number }>('select revision from catalog_meta where id = 1');
  return Number(rows[0]?.revision ?? 0);
}
