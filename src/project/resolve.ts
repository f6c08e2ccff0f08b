// From parsed dependency files to the answer an agent acts on: each dependency's tooldex slug, exact version,
// whether tooldex has that version's docs indexed, and the newest version tooldex knows of.
import { toSlug } from '../catalog/slug.ts';
import type { Ecosystem } from '../catalog/types.ts';
import type { Queryable } from '../store/types.ts';
import type { LockedDependency } from './types.ts';

export interface ResolvedFile { file: string; format: string; ecosystem: Ecosystem }

export interface ResolvedDependency {
  slug: string;
  ecosystem: Ecosystem;
  name: string;
  /** Exact version the project uses; null where only a range is known (a manifest without its lockfile). */
  version: string | null;
  requested?: string;
  dev?: boolean;
  /** Whether the tooldex catalog lists the package (docs and context also answer for packages it does not list). */
  inCatalog: boolean;
  /** Whether that exact version's docs are indexed already (a docs question then answers at once). */
  docsIndexed: boolean;
  /** Newest version tooldex knows: the registry's answer when docs last checked it, else the catalog's. */
  latest: string | null;
}

interface Facts { inCatalog: Set<string>; latest: Map<string, string>; indexed: Set<string> }

/** Catalog and docs facts for many slugs in three queries (a lockfile may list thousands). */
async function factsFor(db: Queryable, slugs: string[]): Promise<Facts> {
  const unique = [...new Set(slugs)];
  const [tools, releases, versions] = await Promise.all([
    db.query<{ slug: string; version: string | null }>('select slug, version from tools where slug = any($1)', [unique]),
    db.query<{ slug: string; latest: string }>('select slug, latest from docs_releases where slug = any($1)', [unique]),
    db.query<{ slug: string; version: string }>(`select slug, version from docs_versions where status = 'ready' and slug = any($1)`, [unique]),
  ]);
  const latest = new Map<string, string>();
  for (const tool of tools) if (tool.version) latest.set(tool.slug, tool.version);
  for (const release of releases) latest.set(release.slug, release.latest);
  return { inCatalog: new Set(tools.map((t) => t.slug)), latest, indexed: new Set(versions.map((v) => `${v.slug}@${v.version}`)) };
}

export async function describeDependencies(db: Queryable, dependencies: LockedDependency[]): Promise<ResolvedDependency[]> {
  const slugged = dependencies.map((dependency) => ({ dependency, slug: toSlug(dependency.ecosystem, dependency.name) }));
  const facts = await factsFor(db, slugged.map((s) => s.slug));
  return slugged.map(({ dependency, slug }) => ({
    slug,
    ecosystem: dependency.ecosystem,
    name: dependency.name,
    version: dependency.version,
    ...(dependency.requested !== undefined ? { requested: dependency.requested } : {}),
    ...(dependency.dev ? { dev: true } : {}),
    inCatalog: facts.inCatalog.has(slug),
    docsIndexed: dependency.version !== null && facts.indexed.has(`${slug}@${dependency.version}`),
    latest: facts.latest.get(slug) ?? null,
  }));
}
