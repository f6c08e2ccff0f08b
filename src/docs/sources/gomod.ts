// Go module source: versions from the module proxy (/@v/list, /@latest), the module zip of a version
// (README, package and exported-identifier doc comments, go.mod). URLs open pkg.go.dev pinned to the version.
import semver from 'semver';
import { DEFAULT_LIMITS, readZip, refused, textOf, type ArchiveContents, type ArchiveLimits } from '../archive.ts';
import { fetchBytes, fetchJson, fetchSize, fetchText, isTooLarge } from '../fetch.ts';
import type { RegistrySource, SourceSettings } from './types.ts';
import { isDocFile } from './types.ts';
import { readZipByRanges } from './zip-ranges.ts';

/** The proxy's case encoding: each upper-case letter becomes "!" + its lower case. */
export const escapeModulePath = (path: string) => path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

export function goSource(settings: SourceSettings): RegistrySource {
  const base = settings.baseUrl.replace(/\/$/, '');
  return {
    async releases(module) {
      const escaped = escapeModulePath(module);
      const list = await fetchText(`${base}/${escaped}/@v/list`, settings.limits);
      if (list === undefined) return undefined;
      let versions = list.split('\n').map((v) => v.trim()).filter(Boolean);
      if (!versions.length) {
        const latest = await fetchJson<{ Version?: string }>(`${base}/${escaped}/@latest`, settings.limits);
        versions = latest?.Version ? [latest.Version] : [];
      }
      const valid = versions.filter((v) => semver.valid(v));
      const stable = valid.filter((v) => !semver.prerelease(v));
      const latest = semver.rsort([...(stable.length ? stable : valid)])[0] ?? versions[0];
      return latest ? { latest, versions, tags: {} } : undefined;
    },
    async artifact(module, version, options = {}) {
      const url = `${base}/${escapeModulePath(module)}/@v/${version}.zip`;
      const prefix = `${module}@${version}/`;
      const keep = options.keep ?? ((rel: string) => isDocFile(rel, /\.go$|^go\.mod$/) && !/(^|\/)(internal|examples?|cmd)\//.test(rel));
      const limits = { ...DEFAULT_LIMITS, keep: (p: string) => keep(p.startsWith(prefix) ? p.slice(prefix.length) : p) };
      const contents = await moduleZip(url, limits, settings, `${module}@${version}`);
      // Of the test files only those holding examples (`func ExampleX()`, shown by pkg.go.dev as the item's usage) stay.
      const files = contents.files.map((f) => ({ ...f, path: f.path.startsWith(prefix) ? f.path.slice(prefix.length) : f.path }))
        .filter((f) => options.keep || !f.path.endsWith('_test.go') || /^func Example/m.test(textOf(f)));
      const goMod = files.find((f) => f.path === 'go.mod');
      const goVersion = goMod ? /^go\s+(\S+)/m.exec(textOf(goMod))?.[1] : undefined;
      return {
        files,
        facts: {
          license: null,
          repository: /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(module) ? `https://${module.split('/').slice(0, 3).join('/')}` : null,
          docsUrl: `https://pkg.go.dev/${module}@${version}`,
          importName: module,
          entryPoints: [module],
          typesIncluded: null,
          requirements: goVersion ? { go: goVersion } : {} as Record<string, string>,
        },
        fileUrl: (path, where) => {
          const dir = path.includes('/') ? `/${path.slice(0, path.lastIndexOf('/'))}` : '';
          if (/readme/i.test(path)) return `https://pkg.go.dev/${module}@${version}${dir}#section-readme`;
          return `https://pkg.go.dev/${module}@${version}${dir}${where?.anchor ? `#${where.anchor}` : ''}`;
        },
        skipped: contents.skipped.length,
      };
    },
  };
}

/**
 * Unpacked bytes read from a zip over the cap: the indexer reads at most 12 MB of a package's sources
 * (`MAX_SOURCE_BYTES`, src/docs/documents.ts) beside its guides, so a larger read is never used.
 */
const RANGED_UNPACKED_BYTES = 32 * 1024 * 1024;

/**
 * A module zip's kept files. A zip over the artifact cap (generated SDKs with thousands of packages, modules that ship
 * test data or binaries) is read in parts instead of refused: its directory, then only the files docs need, within
 * the same byte cap (src/docs/sources/zip-ranges.ts). Where the proxy serves no ranges it is refused as before.
 */
async function moduleZip(url: string, limits: ArchiveLimits, settings: SourceSettings, what: string): Promise<ArchiveContents> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await fetchBytes(url, settings.artifactLimits);
  } catch (error) {
    if (!isTooLarge(error)) throw error;
    const size = await fetchSize(url, settings.artifactLimits);
    const bounded = { ...limits, maxUnpackedBytes: Math.min(limits.maxUnpackedBytes, RANGED_UNPACKED_BYTES) };
    const contents = size ? await readZipByRanges(url, size, bounded, settings.artifactLimits, readingOrder) : undefined;
    if (!contents) throw error;
    return contents;
  }
  if (!bytes) throw refused(`The Go module proxy has no zip of ${what}.`);
  return readZip(bytes, limits);
}

/**
 * Which files of a large module a reader needs first: READMEs and guides, then package docs (`doc.go`), then sources
 * by depth (the module's root packages before nested ones), example test files last. Paths carry the zip's
 * `module@version/` prefix, the same for all.
 */
function readingOrder(path: string): number {
  const depth = path.split('/').length;
  if (!/\.go$/.test(path)) return depth;
  if (/(^|\/)doc\.go$/.test(path)) return 100 + depth;
  return (path.endsWith('_test.go') ? 1000 : 200) + depth;
}
