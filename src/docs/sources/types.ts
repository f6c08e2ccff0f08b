// The shape every registry source of the docs capability shares: which versions exist, and the
// published artifact of one version (its doc-bearing files, manifest facts and file URLs for people).
import type { ArchiveFile } from '../archive.ts';
import type { FetchLimits } from '../fetch.ts';

export interface Releases {
  latest: string;
  /** Published versions, any order. */
  versions: string[];
  /** Named tags (npm dist-tags: latest, next, …). */
  tags: Record<string, string>;
}

/** Facts from the version's manifest, for GET /tools/context. */
export interface PackageFacts {
  description?: string;
  license?: string | null;
  homepage?: string | null;
  repository?: string | null;
  docsUrl?: string | null;
  /** Import name when it differs from the registry name (Python module, Rust crate ident, Go import path). */
  importName?: string;
  entryPoints: string[];
  typesIncluded: boolean | null;
  requirements: Record<string, string>;
  /** npm: the DefinitelyTyped package its API was read from when it ships no declarations (`@types/lodash@4.17.20`). */
  definitelyTyped?: string;
  /** npm: "module" or "commonjs". */
  moduleType?: string;
}

export interface Artifact {
  /** Paths relative to the package root. */
  files: ArchiveFile[];
  facts: PackageFacts;
  /** Where a person opens a file of this version (pinned), at a line or anchor. */
  fileUrl(path: string, where?: { line?: number; anchor?: string }): string;
  /** Long description from the registry when the artifact has no README (PyPI). */
  readme?: { text: string; markdown: boolean };
  skipped: number;
}

export interface SourceSettings {
  limits: FetchLimits;
  artifactLimits: FetchLimits;
  baseUrl: string;
  /** Extra bases some registries need (crates: index + download). */
  indexUrl?: string;
  downloadUrl?: string;
}

/**
 * `keep`: read these files instead of the docs' choice (a path relative to the artifact's root, its top folder
 * dropped): another capability's view of the same download (release notes), without the docs' extras (npm's
 * `@types` look-up, PyPI's wheel beside the sdist, Go's test-file and folder filters).
 */
export interface ArtifactOptions { keep?: (path: string) => boolean }

export interface RegistrySource {
  releases(name: string): Promise<Releases | undefined>;
  artifact(name: string, version: string, options?: ArtifactOptions): Promise<Artifact>;
}

/** A documentation tree: files under it are written for the package's users. */
const DOCS_FOLDER = /(^|\/)(docs?|documentation|guides?|manual)\//;

/** Doc-bearing files, kept from any archive; everything else is skipped unread. */
export function isDocFile(path: string, codeExtensions: RegExp): boolean {
  const lower = path.toLowerCase();
  if (/(^|\/)(node_modules|\.git|tests?|__tests__|testdata|vendor|benchmarks?|fixtures?|\.github)\//.test(lower)) return false;
  // Release notes answer "what changed in 0.6", not "how do I": a whole changelog folder stays out (SQLAlchemy's has 60 files).
  if (/(^|\/)(changelog|changes|release[-_]?notes|whatsnew|history)\//.test(lower)) return false;
  const base = lower.split('/').pop() ?? '';
  // A repository's own files (SECURITY.md is how to report a vulnerability) stay out; a security page of the
  // documentation (`docs/howto/security.rst`: how to deploy the package safely) is a guide like any other.
  const meta = /^(changelog|changes|history|license|licence|code_of_conduct|contributing|security|authors|notice)/.exec(base);
  if (meta && !(meta[1] === 'security' && DOCS_FOLDER.test(lower))) return false;
  if (/^readme(\.(md|markdown|rst|txt|mdx))?$/.test(base)) return true;
  if (/\.(md|mdx|markdown|rst)$/.test(base)) return true;
  // Sphinx sources written as `.txt` (lxml's `doc/*.txt`); documents.ts keeps those with a section title.
  if (/(^|\/)docs?\/(.+\/)?[^/]+\.txt$/.test(lower)) return true;
  return codeExtensions.test(base);
}

/** Drops the archive's top folder (`package/`, `name-1.0/`, `module@v1/`). */
export function stripTopFolder(path: string): string {
  const slash = path.indexOf('/');
  return slash >= 0 ? path.slice(slash + 1) : path;
}
