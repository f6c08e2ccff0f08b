// Stored projects: one row per resolve, owner-scoped, expiring. Expired rows are removed on the next save, so the
// table stays as small as the projects callers are still using.
import type { Queryable } from '../store/types.ts';
import type { ResolvedDependency, ResolvedFile } from './resolve.ts';

export interface StoredProject {
  id: string;
  owner: string;
  createdAt: string;
  expiresAt: string;
  files: ResolvedFile[];
  dependencies: ResolvedDependency[];
}

interface ProjectRow { id: string; owner: string; created_at: Date | string; expires_at: Date | string; files: ResolvedFile[]; dependencies: ResolvedDependency[] }

const iso = (value: Date | string) => new Date(value).toISOString();

export async function saveProject(db: Queryable, project: Omit<StoredProject, 'createdAt' | 'expiresAt'>, ttlSeconds: number): Promise<StoredProject> {
  await db.query('delete from projects where expires_at < now()');
  const [row] = await db.query<ProjectRow>(
    `insert into projects (id, owner, expires_at, files, dependencies)
     values ($1, $2, now() + make_interval(secs => $3), $4::jsonb, $5::jsonb)
     returning id, owner, created_at, expires_at, files, dependencies`,
    [project.id, project.owner, ttlSeconds, JSON.stringify(project.files), JSON.stringify(project.dependencies)]);
  return fromRow(row!);
}

/** The project if it exists, belongs to this owner and has not expired; otherwise undefined (never another's). */
export async function loadProject(db: Queryable, id: string, owner: string): Promise<StoredProject | undefined> {
  const [row] = await db.query<ProjectRow>(
    'select id, owner, created_at, expires_at, files, dependencies from projects where id = $1 and owner = $2 and expires_at > now()', [id, owner]);
  return row ? fromRow(row) : undefined;
}

function fromRow(row: ProjectRow): StoredProject {
  return { id: row.id, owner: row.owner, createdAt: iso(row.created_at), expiresAt: iso(row.expires_at), files: row.files, dependencies: row.dependencies };
}
