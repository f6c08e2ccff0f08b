// npm source: versions from the packument, the version's tarball (README, docs/*.md, .d.ts), manifest facts.
// File URLs point at unpkg, pinned to the version.
import { DEFAULT_LIMITS, readTar, refused, textOf } from '../archive.ts';
import { fetchBytes, fetchJson } from '../fetch.ts';
import type { Artifact, PackageFacts, RegistrySource, SourceSettings } from './types.ts';
import { isDocFile, stripTopFolder } from './types.ts';

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
    async artifact(name, version) {
      const manifest = await fetchJson<Manifest>(`${base}/${encodeName(name)}/${encodeURIComponent(version)}`, settings.limits);
      const tarball = manifest?.dist?.tarball;
      if (!manifest || !tarball) throw refused(`The npm registry lists no tarball for ${name}@${version}.`);
      const bytes = await fetchBytes(tarball, settings.artifactLimits);
      if (!bytes) throw refused(`The tarball of ${name}@${version} is missing from the registry.`);
      const contents = await readTar(bytes, { ...DEFAULT_LIMITS, keep: (p) => isDocFile(stripTopFolder(p), /\.d\.(ts|mts|cts)$|^package\.json$/) });
      const files = contents.files.map((f) => ({ ...f, path: stripTopFolder(f.path) }));
      const pkgFile = files.find((f) => f.path === 'package.json');
      const pkg: Manifest = pkgFile ? safeJson(textOf(pkgFile)) ?? manifest : manifest;
      const artifact: Artifact = {
        files,
        facts: npmFacts(pkg, files.map((f) => f.path)),
        fileUrl: (path, where) => `https://unpkg.com/${name}@${version}/${path}${where?.line ? `#L${where.line}` : ''}`,
        skipped: contents.skipped.length,
      };
      return artifact;
    },
  };
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
