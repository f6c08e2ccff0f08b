// PyPI source: versions from the JSON API; the sdist (README, docs/) or a wheel (sources, METADATA) of the version.
// File URLs open the file in PyPI's inspector, pinned to the exact distribution.
import { DEFAULT_LIMITS, readTar, readZip, refused, type ArchiveContents } from '../archive.ts';
import { fetchBytes, fetchJson } from '../fetch.ts';
import type { RegistrySource, SourceSettings } from './types.ts';
import { isDocFile, stripTopFolder } from './types.ts';

interface ReleaseFile { packagetype: string; url: string; size: number; filename: string; yanked?: boolean }
interface PypiProject {
  info: {
    version: string; summary?: string; description?: string; description_content_type?: string; license?: string;
    license_expression?: string; home_page?: string; project_urls?: Record<string, string> | null; requires_python?: string;
  };
  releases?: Record<string, ReleaseFile[]>;
  urls?: ReleaseFile[];
}

/** The sdist when it is small enough (it carries docs/), else a pure-Python wheel, else any wheel. */
export function pickDistribution(files: ReleaseFile[]): ReleaseFile | undefined {
  const sdist = files.find((f) => f.packagetype === 'sdist' && f.size < 15 * 1024 * 1024);
  const wheels = files.filter((f) => f.packagetype === 'bdist_wheel').sort((a, b) => a.size - b.size);
  return sdist ?? wheels.find((f) => f.filename.includes('none-any')) ?? wheels[0];
}

/**
 * What docs search reads of a release: the sdist (it carries docs/ and the sources as written) and a wheel (generated
 * modules, `.pyi` stubs, what is installed), the sdist first; either alone when the other is missing or too large.
 */
export function pickDistributions(files: ReleaseFile[]): ReleaseFile[] {
  const sdist = files.find((f) => f.packagetype === 'sdist' && f.size < 15 * 1024 * 1024);
  const wheels = files.filter((f) => f.packagetype === 'bdist_wheel' && f.size < 15 * 1024 * 1024).sort((a, b) => a.size - b.size);
  const wheel = wheels.find((f) => f.filename.includes('none-any')) ?? wheels[0];
  const picked = [sdist, wheel].filter((f): f is ReleaseFile => Boolean(f));
  return picked.length ? picked : [pickDistribution(files)].filter((f): f is ReleaseFile => Boolean(f));
}

/**
 * Every path of the files read so far and each of its tails (`lib/sqlalchemy/orm/session.py` → `sqlalchemy/orm/session.py`,
 * `orm/session.py`, …): a wheel's `sqlalchemy/orm/session.py` is the sdist's module under its layout folder (`src/`,
 * `lib/`, `python/`), whatever that folder is called.
 */
function pathsAndTails(paths: string[]): Set<string> {
  const known = new Set<string>();
  for (const path of paths) for (let at = 0; at >= 0; at = path.indexOf('/', at) + 1 || -1) known.add(path.slice(at));
  return known;
}

function projectUrl(urls: Record<string, string>, pattern: RegExp): string | undefined {
  return Object.entries(urls).find(([label]) => pattern.test(label))?.[1];
}

export function pypiSource(settings: SourceSettings): RegistrySource {
  const base = settings.baseUrl.replace(/\/$/, '');
  return {
    async releases(name) {
      const project = await fetchJson<PypiProject>(`${base}/pypi/${encodeURIComponent(name)}/json`, settings.limits);
      if (!project) return undefined;
      const versions = Object.entries(project.releases ?? {})
        .filter(([, files]) => files.length > 0 && files.some((f) => !f.yanked)).map(([v]) => v);
      return { latest: project.info.version, versions: versions.length ? versions : [project.info.version], tags: {} };
    },
    async artifact(name, version, options = {}) {
      // Some PyPI mirrors serve only the project document; its `releases` still lists every version's files.
      let project = await fetchJson<PypiProject>(`${base}/pypi/${encodeURIComponent(name)}/${encodeURIComponent(version)}/json`, settings.limits);
      let sameVersionInfo = true;
      if (!project) {
        const whole = await fetchJson<PypiProject>(`${base}/pypi/${encodeURIComponent(name)}/json`, settings.limits);
        const files = whole?.releases?.[version];
        if (!whole || !files) throw refused(`PyPI has no release ${name} ${version}.`);
        sameVersionInfo = whole.info.version === version;
        const requiresPython = (files as Array<ReleaseFile & { requires_python?: string }>).find((f) => f.requires_python)?.requires_python;
        project = { ...whole, urls: files, info: sameVersionInfo ? whole.info : { ...whole.info, version, description: undefined, requires_python: requiresPython } };
      }
      // File URLs may be relative to the JSON document (mirrors); resolve them against it.
      const jsonUrl = `${base}/pypi/${encodeURIComponent(name)}/json`;
      const picked = pickDistributions((project.urls ?? []).map((f) => ({ ...f, url: new URL(f.url, jsonUrl).toString() })));
      // Files a project writes (its changelog, its docs) are in the sdist; the wheel is read for them only without one.
      const sdist = picked.find((d) => d.packagetype === 'sdist');
      const dists = options.keep ? (sdist ? [sdist] : picked.slice(0, 1)) : picked;
      const docsKeep = (p: string) => isDocFile(stripTopFolder(p), /\.pyi?$|^(pkg-info|metadata|top_level\.txt|py\.typed|pyproject\.toml)$/) || /top_level\.txt$|py\.typed$/.test(p);
      // A wheel's paths are its root's already; an sdist's lose their `name-1.0/` folder. A file an earlier
      // distribution gave (the wheel's copy of the sdist's modules: kubernetes 1,934 of its wheel's 1,936) is not
      // inflated at all: the earlier copy wins, and unzipping is synchronous work of the first question's event loop.
      const limitsFor = (isWheel: boolean, known: Set<string>) => {
        const wanted = options.keep ? (p: string) => options.keep!(isWheel ? p : stripTopFolder(p)) : docsKeep;
        return { ...DEFAULT_LIMITS, keep: (p: string) => !known.has(isWheel ? p : stripTopFolder(p)) && wanted(p) };
      };
      const files: Array<ArchiveContents['files'][number]> = [];
      const origin = new Map<string, { dist: ReleaseFile; top?: string }>();
      let skipped = 0;
      // The sdist and the wheel download side by side (a round trip and a transfer less on a first question); they are
      // still read in order, so the sdist's copy of a file wins as before.
      const downloads = dists.map((d) => fetchBytes(d.url, settings.artifactLimits));
      for (const download of downloads) download.catch(() => undefined); // awaited in order below; a later one's failure is not unhandled meanwhile
      for (const [i, dist] of dists.entries()) {
        const bytes = await downloads[i]!;
        if (!bytes) continue;
        const isWheel = dist.packagetype === 'bdist_wheel';
        // The wheel adds what the sdist lacks (generated modules, stubs, its dist-info); the sdist's copy stays.
        const limits = limitsFor(isWheel, pathsAndTails(files.map((f) => f.path)));
        const contents: ArchiveContents = dist.filename.endsWith('.zip') || isWheel ? readZip(bytes, limits) : await readTar(bytes, limits);
        const top = isWheel ? undefined : contents.files[0]?.path.split('/')[0];
        skipped += contents.skipped.length;
        for (const f of contents.files) {
          const path = isWheel ? f.path : stripTopFolder(f.path);
          files.push({ ...f, path });
          origin.set(path, { dist, top });
        }
      }
      const dist = dists[0];
      const info = project.info;
      const urls = info.project_urls ?? {};
      const topLevel = ownMetadata(files, 'top_level.txt');
      const initDirs = files.map((f) => /^(?:src\/)?([A-Za-z_]\w*)\/__init__\.py$/.exec(f.path)?.[1]).filter((d): d is string => Boolean(d));
      const importName = importNameOf(name, topLevel ? Buffer.from(topLevel.bytes).toString('utf8') : undefined, initDirs, namespaced(name, files.map((f) => f.path)));
      const inspectorOf = (d: ReleaseFile) => `https://inspector.pypi.io/project/${name}/${version}${new URL(d.url).pathname.replace(/^\/packages\/packages\//, '/packages/')}`;
      return {
        files,
        facts: {
          description: info.summary,
          license: info.license_expression || (info.license && info.license.length < 80 ? info.license : null) || null,
          homepage: info.home_page || projectUrl(urls, /^home/i) || null,
          repository: projectUrl(urls, /source|repository|code|github/i) ?? null,
          docsUrl: projectUrl(urls, /doc/i) ?? null,
          importName,
          entryPoints: [importName],
          typesIncluded: files.some((f) => f.path.endsWith('py.typed')) || null,
          requirements: info.requires_python ? { python: info.requires_python } : {} as Record<string, string>,
        },
        fileUrl: (path, where) => {
          const from = origin.get(path) ?? (dist ? { dist, top: dist.packagetype === 'bdist_wheel' ? undefined : origin.values().next().value?.top } : undefined);
          return from ? `${inspectorOf(from.dist)}/${from.top ? `${from.top}/` : ''}${path}${where?.line ? `#line.${where.line}` : ''}` : `https://pypi.org/project/${name}/${version}/`;
        },
        readme: info.description ? { text: info.description, markdown: /markdown/.test(info.description_content_type ?? '') } : metadataReadme(files),
        skipped,
      };
    },
  };
}

/** The distribution's own metadata file, not a vendored project's (setuptools/_vendor/autocommand-*.dist-info/top_level.txt). */
export function ownMetadata<T extends { path: string }>(files: T[], name: string): T | undefined {
  return files.filter((f) => f.path === name || f.path.endsWith(`/${name}`)).sort((a, b) => a.path.split('/').length - b.path.split('/').length)[0];
}

/**
 * The module a reader imports: `top_level.txt` lists every top-level module, private ones too (PyYAML's `_yaml`
 * before `yaml`; setuptools' `_distutils_hack`, `pkg_resources`, `setuptools`), so the one named like the
 * distribution, else its first public one; else the shallowest package directory; else the distribution's name.
 */
/**
 * The public top-level packages a distribution ships (`attr` and `attrs` for attrs), from its `__init__.py` files at
 * the top of the archive or of a `src/`/`lib/` layout: test, doc and example folders and private names are not API.
 */
export function topLevelPackages(paths: string[]): string[] {
  const found = paths.map((p) => /^(?:src\/|lib\/)?([A-Za-z]\w*)\/__init__\.pyi?$/.exec(p)?.[1]).filter((d): d is string => Boolean(d));
  return [...new Set(found)].filter((d) => !/^(tests?|testing|docs?|examples?|benchmarks?|scripts)$/i.test(d));
}

/**
 * Packages inside an implicit namespace package (PEP 420: a folder with no `__init__.py`, such as `opentelemetry/` or
 * `poetry/`), dotted (`opentelemetry.exporter.otlp.proto.common`, `poetry.core`): the outermost package under each such
 * folder, not its subpackages. A distribution of this kind has no package at the top, so `initDirs` finds nothing.
 */
export function namespacedPackages(paths: string[]): string[] {
  const packages = new Set(paths.map((p) => /^(?:src\/)?((?:[A-Za-z_]\w*\/)+)__init__\.pyi?$/.exec(p)?.[1]?.slice(0, -1)).filter((d): d is string => Boolean(d)));
  const outermost = [...packages].filter((d) => {
    const parts = d.split('/');
    return parts.length > 1 && parts.slice(1).every((_, i) => !packages.has(parts.slice(0, i + 1).join('/')));
  });
  return outermost.filter((d) => !/(^|\/)(tests?|testing|docs?|examples?|benchmarks?|scripts)(\/|$)/i.test(d)).map((d) => d.replace(/\//g, '.'));
}

/**
 * The folder of Python modules named like the distribution, dotted, when it is itself a namespace portion (no
 * `__init__.py`): opentelemetry-instrumentation ships `opentelemetry/instrumentation/*.py` beside subpackages, a folder
 * the other `opentelemetry-instrumentation-*` distributions share, so namespacedPackages finds only its subpackages.
 */
/** namespacedPackages, and the distribution's own namespace folder where it is one (folderNamedLike). */
function namespaced(name: string, paths: string[]): string[] {
  const own = folderNamedLike(name, paths);
  const packages = namespacedPackages(paths);
  return own && !packages.includes(own) ? [...packages, own] : packages;
}

export function folderNamedLike(name: string, paths: string[]): string | undefined {
  const norm = (n: string) => n.toLowerCase().replace(/[-_.]+/g, '_');
  const wanted = norm(name);
  for (const p of paths) {
    const folder = /^(?:src\/)?((?:[A-Za-z_]\w*\/)+)[^/]+\.pyi?$/.exec(p)?.[1]?.slice(0, -1);
    if (!folder?.includes('/')) continue;
    const parts = folder.split('/');
    for (let end = 2; end <= parts.length; end++) {
      const dotted = parts.slice(0, end).join('.');
      if (norm(dotted) === wanted) return dotted;
    }
  }
  return undefined;
}

export function importNameOf(name: string, topLevelTxt: string | undefined, initDirs: string[], namespaced: string[] = []): string {
  const listed = (topLevelTxt ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  const norm = (n: string) => n.toLowerCase().replace(/[-_.]+/g, '_');
  // A namespace package named like the distribution (opentelemetry-util-http → `opentelemetry.util.http`): top_level.txt
  // would list only the shared folder (`opentelemetry`), which imports but holds none of the distribution's API.
  const inNamespace = namespaced.find((d) => norm(d) === norm(name));
  if (!listed.some((n) => norm(n) === norm(name)) && inNamespace) return inNamespace;
  // Without top_level.txt (flit, maturin and hatch wheels have none): the package directory named like the distribution,
  // else the shortest public one (cryptography's sdist also has `src/_cffi_src/`, a build helper).
  const dirs = [...initDirs].filter((d) => !/^(tests?|testing|docs?|examples?|benchmarks?|scripts)$/i.test(d)).sort((a, b) => a.length - b.length);
  const fromDirs = dirs.find((d) => norm(d) === norm(name)) ?? dirs.find((d) => !d.startsWith('_')) ?? dirs[0];
  // Nothing listed and no package at the top: the one package inside a namespace folder (grpc-google-iam-v1 → `google.iam.v1`).
  const onlyNamespaced = namespaced.length === 1 ? namespaced[0] : undefined;
  return listed.find((n) => norm(n) === norm(name)) ?? listed.find((n) => !n.startsWith('_')) ?? listed[0] ?? fromDirs ?? onlyNamespaced ?? name.replace(/-/g, '_').toLowerCase();
}

/** The long description inside PKG-INFO / METADATA (the body after the headers), for versions the API has no info for. */
function metadataReadme(files: Array<{ path: string; bytes: Uint8Array }>): { text: string; markdown: boolean } | undefined {
  const file = files.find((f) => /(^|\/)(PKG-INFO|METADATA)$/.test(f.path));
  if (!file) return undefined;
  const text = Buffer.from(file.bytes).toString('utf8').replace(/\r\n?/g, '\n');
  const split = text.indexOf('\n\n');
  const body = split >= 0 ? text.slice(split + 2).trim() : '';
  return body ? { text: body, markdown: /Description-Content-Type:\s*text\/markdown/i.test(text.slice(0, split)) } : undefined;
}
