// npm source: versions from the packument, the version's tarball (README, docs/*.md, .d.ts), manifest facts.
// File URLs point at unpkg, pinned to the version.
import semver from 'semver';
import { DEFAULT_LIMITS, readTar, refused, textOf, type ArchiveFile } from '../archive.ts';
import { fetchBytes, fetchJson } from '../fetch.ts';
import type { Artifact, PackageFacts, RegistrySource, SourceSettings } from './types.ts';
import { isDocFile, stripTopFolder } from './types.ts';

/** A declaration file in a `vendor/` folder of the package itself (not under node_modules, tests or fixtures). */
export const vendoredDeclaration = (path: string) => /\.d\.(ts|mts|cts)$/.test(path) && /(^|\/)vendor\//.test(path)
  && !/(^|\/)(node_modules|tests?|__tests__|fixtures?)\//.test(path);

interface Packument { 'dist-tags'?: Record<string, string>; versions?: Record<string, unknown> }
interface Manifest {
  description?: string; license?: string | { type?: string }; homepage?: string;
  repository?: string | { url?: string }; main?: string; module?: string; types?: string; typings?: string;
  exports?: unknown; bin?: string | Record<string, string>; engines?: Record<string, string>; type?: string;
  dist?: { tarball?: string };
}

const encodeName = (name: string) => name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);

export function npmSource(settings: SourceSettings): RegistrySource {
  const base = settings.baseUrl.replace(/\/$/, '');
  return {
    async releases(name) {
      const doc = await fetchJson<Packument>(`${base}/${encodeName(name)}`, {
        ...settings.limits, headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' },
      });
      if (!doc?.versions) return undefined;
      const tags = doc['dist-tags'] ?? {};
      const versions = Object.keys(doc.versions);
      return { latest: tags.latest ?? versions[versions.length - 1] ?? '', versions, tags };
    },
    async artifact(name, version, options = {}) {
      const manifest = await fetchJson<Manifest>(`${base}/${encodeName(name)}/${encodeURIComponent(version)}`, settings.limits);
      const tarball = manifest?.dist?.tarball;
      if (!manifest || !tarball) throw refused(`The npm registry lists no tarball for ${name}@${version}.`);
      const bytes = await fetchBytes(tarball, settings.artifactLimits);
      if (!bytes) throw refused(`The tarball of ${name}@${version} is missing from the registry.`);
      // JavaScript is kept too: a package without declarations documents its API in JSDoc there (lodash).
      // A package's own `vendor/` declarations are kept as well: an entry that re-exports a vendored module's types
      // (`export {ModifierName} from './vendor/ansi-styles/index.js'`) has its API there; the extractor reads only
      // what the entries reach, so an unused vendored copy adds nothing.
      const keep = options.keep ?? ((p: string) => (isDocFile(p, /\.d\.(ts|mts|cts)$|^package\.json$|\.(c|m)?js$/) && !/\.min\.(c|m)?js$/.test(p))
        || vendoredDeclaration(p));
      const contents = await readTar(bytes, { ...DEFAULT_LIMITS, keep: (p) => keep(stripTopFolder(p)) });
      const files = contents.files.map((f) => ({ ...f, path: stripTopFolder(f.path) }));
      const pkgFile = files.find((f) => f.path === 'package.json');
      const pkg: Manifest = pkgFile ? safeJson(textOf(pkgFile)) ?? manifest : manifest;
      const facts = npmFacts(pkg, files.map((f) => f.path));
      const ownTypes = files.some((f) => DECLARATION.test(f.path));
      // With its own declarations, those are the API; the JavaScript stays, as the JSDoc that explains declarations
      // shipped without comments (documents.ts reads it only when some declaration is bare).
      const types = ownTypes || options.keep ? undefined : await definitelyTyped(base, settings, name, version).catch(() => undefined);
      if (types) {
        files.push(...types.files);
        facts.definitelyTyped = `${types.name}@${types.version}`;
      }
      const artifact: Artifact = {
        files,
        facts,
        fileUrl: (path, where) => {
          const line = where?.line ? `#L${where.line}` : '';
          if (types && path.startsWith(`${types.name}/`)) return `https://unpkg.com/${types.name}@${types.version}/${path.slice(types.name.length + 1)}${line}`;
          return `https://unpkg.com/${name}@${version}/${path}${line}`;
        },
        skipped: contents.skipped.length,
      };
      return artifact;
    },
  };
}

const DECLARATION = /\.d\.(ts|mts|cts)$/;

/** DefinitelyTyped's package name for an npm package (`@types/lodash`, `@types/babel__core` for `@babel/core`). */
export const typesPackageName = (name: string) => `@types/${name.replace(/^@/, '').replace('/', '__')}`;

/**
 * The @types version written for `version`: DefinitelyTyped versions its packages by the major.minor of the library
 * they describe, so the newest with the same major.minor, else the newest of the same major (never another major).
 */
export function typesVersionFor(version: string, available: string[]): string | undefined {
  const wanted = semver.coerce(version);
  if (!wanted) return undefined;
  const stable = available.filter((v) => semver.valid(v) && !semver.prerelease(v));
  const sameMajor = stable.filter((v) => semver.major(v) === wanted.major);
  const sameMinor = sameMajor.filter((v) => semver.minor(v) === wanted.minor);
  return semver.rsort([...(sameMinor.length ? sameMinor : sameMajor)])[0];
}

/**
 * The declarations DefinitelyTyped publishes for a package that ships none, under `@types/<name>/` in the artifact
 * (so passages say where they come from). Undefined when there is no such package or version.
 */
async function definitelyTyped(base: string, settings: SourceSettings, name: string, version: string): Promise<{ name: string; version: string; files: ArchiveFile[] } | undefined> {
  const typesName = typesPackageName(name);
  const packument = await fetchJson<{ versions?: Record<string, { dist?: { tarball?: string } }> }>(`${base}/${encodeName(typesName)}`, settings.limits);
  const chosen = packument?.versions ? typesVersionFor(version, Object.keys(packument.versions)) : undefined;
  const tarball = chosen ? packument!.versions![chosen]!.dist?.tarball : undefined;
  const bytes = tarball ? await fetchBytes(tarball, settings.artifactLimits) : undefined;
  if (!bytes) return undefined;
  const contents = await readTar(bytes, { ...DEFAULT_LIMITS, keep: (p) => /\.d\.(ts|mts|cts)$|^[^/]+\/package\.json$/.test(p) });
  return { name: typesName, version: chosen!, files: contents.files.map((f) => ({ ...f, path: `${typesName}/${stripTopFolder(f.path)}` })) };
}

function safeJson<T>(text: string): T | undefined {
  try { return JSON.parse(text) as T; } catch { return undefined; }
}

export function npmFacts(pkg: Manifest, paths: string[]): PackageFacts {
  const entryPoints = new Set<string>();
  const collect = (value: unknown, key = '.') => {
    if (typeof value === 'string') { if (key === '.' || key.startsWith('./')) entryPoints.add(key); return; }
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) collect(v, k.startsWith('.') ? k : key);
    }
  };
  if (pkg.exports) collect(pkg.exports);
  if (!entryPoints.size && (pkg.main || pkg.module)) entryPoints.add('.');
  const bins = typeof pkg.bin === 'string' ? ['bin'] : Object.keys(pkg.bin ?? {});
  for (const bin of bins) entryPoints.add(`bin:${bin}`);
  const hasTypes = Boolean(pkg.types || pkg.typings) || JSON.stringify(pkg.exports ?? {}).includes('"types"')
    || paths.some((p) => /^(index|dist\/index|lib\/index)\.d\.(ts|mts|cts)$/.test(p));
  const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  return {
    description: pkg.description,
    license: typeof pkg.license === 'string' ? pkg.license : pkg.license?.type ?? null,
    homepage: pkg.homepage ?? null,
    repository: repository ? repositoryUrl(repository) : null,
    entryPoints: [...entryPoints].slice(0, 30),
    typesIncluded: hasTypes,
    requirements: Object.fromEntries(Object.entries(pkg.engines ?? {}).filter(([, v]) => typeof v === 'string')),
    moduleType: pkg.type === 'module' ? 'module' : 'commonjs',
  };
}

/** npm's repository spellings (`user/repo`, `github:user/repo`, `git+ssh://git@github.com/u/r.git`) as a web URL. */
export function repositoryUrl(spec: string): string {
  const shorthand = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/.exec(spec);
  if (shorthand) return `https://${shorthand[1] === 'gitlab' ? 'gitlab.com' : shorthand[1] === 'bitbucket' ? 'bitbucket.org' : 'github.com'}/${shorthand[2]}`;
  return spec.replace(/^git\+/, '').replace(/^(git|ssh):\/\/(git@)?/, 'https://').replace(/^git@([^:]+):/, 'https://$1/').replace(/\.git$/, '');
}
