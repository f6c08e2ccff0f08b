// Go module source: versions from the module proxy (/@v/list, /@latest), the module zip of a version
// (README, package and exported-identifier doc comments, go.mod). URLs open pkg.go.dev pinned to the version.
import semver from 'semver';
import { DEFAULT_LIMITS, readZip, refused, textOf } from '../archive.ts';
import { fetchBytes, fetchJson, fetchText } from '../fetch.ts';
import type { RegistrySource, SourceSettings } from './types.ts';
import { isDocFile } from './types.ts';

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
      const bytes = await fetchBytes(`${base}/${escapeModulePath(module)}/@v/${version}.zip`, settings.artifactLimits);
      if (!bytes) throw refused(`The Go module proxy has no zip of ${module}@${version}.`);
      const prefix = `${module}@${version}/`;
      const keep = options.keep ?? ((rel: string) => isDocFile(rel, /\.go$|^go\.mod$/) && !/(^|\/)(internal|examples?|cmd)\//.test(rel));
      const contents = readZip(bytes, { ...DEFAULT_LIMITS, keep: (p) => keep(p.startsWith(prefix) ? p.slice(prefix.length) : p) });
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
