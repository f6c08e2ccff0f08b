// The project capability (issue 23): reads a project's lockfiles and manifests into its direct dependencies at exact
// versions, keeps them for a while under the caller's owner, and turns "docs of zod in project P" into "zod@3.23.8".
import { randomBytes } from 'node:crypto';
import type { Catalog } from '../catalog/index.ts';
import { parseSlugReference } from '../catalog/slug.ts';
import type { Config } from '../config.ts';
import { invalidInput, ToolDexError } from '../errors.ts';
import type { Store } from '../store/types.ts';
import { combine, parseFile } from './parse.ts';
import { pinToProject } from './pin.ts';
import { loadProject, saveProject } from './repository.ts';
import { describeDependencies, type ResolvedDependency, type ResolvedFile } from './resolve.ts';
import { ManifestError } from './types.ts';

/** What one resolve may read in all: a large monorepo's package-lock.json is 2–4 MB. */
export const PROJECT_FILES_LIMIT_BYTES = 5 * 1024 * 1024;
export const PROJECT_FILES_MAX = 20;

export interface ProjectFileInput { name: string; content: string }

export interface ResolveResult {
  /** Pass it as `project` to docs, context and test calls until `expiresAt`. */
  project: string;
  expiresAt: string;
  files: ResolvedFile[];
  dependencies: ResolvedDependency[];
  /** Every other package the lockfiles pin; only with `transitive: true`. */
  transitive?: ResolvedDependency[];
  counts: { direct: number; transitive: number };
  /** What the files could not say (yarn.lock v1 alone does not know which dependencies are direct, …). */
  notes: string[];
}

export interface Projects {
  resolve(files: ProjectFileInput[], owner: string, options?: { transitive?: boolean }): Promise<ResolveResult>;
  /**
   * A tool reference at the project's version: `zod` in a project locking zod 3.23.8 becomes `npm-zod@3.23.8`.
   * A reference that names its own version, or a tool the project does not depend on, is returned unchanged.
   */
  atProjectVersion(tool: string, project: string, owner: string): Promise<string>;
  /** A test call's packages with those named without a version pinned to the project's versions. */
  pinPackages(runtime: string, packages: string[], project: string, owner: string): Promise<string[]>;
}

export function createProjects(deps: { store: Store; config: Config; catalog: Pick<Catalog, 'resolve'> }): Projects {
  const ttlSeconds = deps.config.TOOLDEX_PROJECT_TTL_HOURS * 3600;
  const ownProject = async (projectId: string, owner: string) => {
    const project = await loadProject(deps.store, projectId, owner);
    if (!project) {
      throw new ToolDexError('project_not_found', 404,
        `No project ${projectId} for this caller: it expired (projects are kept ${deps.config.TOOLDEX_PROJECT_TTL_HOURS} h) or was resolved by another owner. Resolve the project again (POST /tools/resolve).`);
    }
    return project;
  };
  return {
    async resolve(files, owner, options = {}) {
      if (files.length === 0 || files.length > PROJECT_FILES_MAX) {
        throw invalidInput('invalid_request', `Send between 1 and ${PROJECT_FILES_MAX} files.`, { field: 'files' });
      }
      const bytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.content), 0);
      if (bytes > PROJECT_FILES_LIMIT_BYTES) {
        throw new ToolDexError('payload_too_large', 413,
          `The files hold ${bytes.toLocaleString('en')} bytes; a resolve reads at most ${PROJECT_FILES_LIMIT_BYTES.toLocaleString('en')} bytes (5 MiB).`,
          { limitBytes: PROJECT_FILES_LIMIT_BYTES });
      }
      const parsed = files.map((f) => {
        try {
          return parseFile(f.name, f.content);
        } catch (error) {
          if (!(error instanceof ManifestError)) throw error;
          const where = error.line ? ` (line ${error.line})` : '';
          throw invalidInput('unreadable_project_file', `${f.name}${where}: ${error.message}`, { file: f.name, ...(error.line ? { line: error.line } : {}) });
        }
      });
      const project = combine(parsed);
      const [direct, transitive] = await Promise.all([
        describeDependencies(deps.store, project.direct),
        options.transitive ? describeDependencies(deps.store, project.transitive) : Promise.resolve(undefined),
      ]);
      const notes = project.directUnknown.map((ecosystem) =>
        `The ${ecosystem} files sent do not say which dependencies are direct (send the manifest too, e.g. package.json with yarn.lock, pyproject.toml with poetry.lock); their packages are listed as transitive.`);
      if (direct.some((d) => d.version === null)) notes.push('Dependencies with version null are ranges from a manifest without its lockfile; docs and context answer those at the newest version.');
      const saved = await saveProject(deps.store, { id: `prj_${randomBytes(12).toString('base64url')}`, owner, files: project.files, dependencies: direct }, ttlSeconds);
      return {
        project: saved.id, expiresAt: saved.expiresAt, files: project.files, dependencies: direct,
        ...(transitive ? { transitive } : {}),
        counts: { direct: direct.length, transitive: project.transitive.length },
        notes,
      };
    },

    async pinPackages(runtime, packages, projectId, owner) {
      return pinToProject(runtime, packages, (await ownProject(projectId, owner)).dependencies);
    },

    async atProjectVersion(tool, projectId, owner) {
      const project = await ownProject(projectId, owner);
      const reference = parseSlugReference(tool);
      if (reference.version) return tool; // an explicit version wins over the project's
      const record = await deps.catalog.resolve(reference.tool).catch(() => undefined);
      const slug = record?.slug;
      const dependency = project.dependencies.find((d) => d.slug === slug || (!slug && d.name.toLowerCase() === reference.tool.toLowerCase()));
      return dependency?.version ? `${dependency.slug}@${dependency.version}` : tool;
    },
  };
}
