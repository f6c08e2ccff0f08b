// RubyGems source: versions from /api/v1/versions, the .gem of a version (a tar holding data.tar.gz):
// README and docs. File URLs open rubydoc.info pinned to the version.
import { DEFAULT_LIMITS, readTar, refused } from '../archive.ts';
import { fetchBytes, fetchJson } from '../fetch.ts';
import type { RegistrySource, SourceSettings } from './types.ts';
import { isDocFile } from './types.ts';

interface GemVersion { number: string; prerelease?: boolean; ruby_version?: string; licenses?: string[]; summary?: string }

export function rubygemsSource(settings: SourceSettings): RegistrySource {
  const base = settings.baseUrl.replace(/\/$/, '');
  return {
    async releases(name) {
      const list = await fetchJson<GemVersion[]>(`${base}/api/v1/versions/${encodeURIComponent(name)}.json`, settings.limits);
      if (!list?.length) return undefined;
      const stable = list.filter((v) => !v.prerelease);
      return { latest: (stable[0] ?? list[0])!.number, versions: list.map((v) => v.number), tags: {} };
    },
    async artifact(name, version) {
      const bytes = await fetchBytes(`${base}/gems/${encodeURIComponent(name)}-${encodeURIComponent(version)}.gem`, settings.artifactLimits);
      if (!bytes) throw refused(`RubyGems has no ${name}-${version}.gem.`);
      const outer = await readTar(bytes, { ...DEFAULT_LIMITS, keep: (p) => p === 'data.tar.gz' });
      const data = outer.files[0];
      if (!data) throw refused(`${name}-${version}.gem holds no data.tar.gz.`);
      const contents = await readTar(data.bytes, { ...DEFAULT_LIMITS, keep: (p) => isDocFile(p, /^$/) });
      const meta = (await fetchJson<GemVersion[]>(`${base}/api/v1/versions/${encodeURIComponent(name)}.json`, settings.limits).catch(() => undefined))
        ?.find((v) => v.number === version);
      return {
        files: contents.files,
        facts: {
          description: meta?.summary,
          license: meta?.licenses?.[0] ?? null,
          importName: name,
          entryPoints: [name],
          typesIncluded: null,
          requirements: meta?.ruby_version ? { ruby: meta.ruby_version } : {} as Record<string, string>,
        },
        fileUrl: (path, where) => `https://www.rubydoc.info/gems/${name}/${version}/file/${path}${where?.line ? `#L${where.line}` : ''}`,
        skipped: outer.skipped.length + contents.skipped.length,
      };
    },
  };
}
