// crates.io source: versions from the sparse index (index.crates.io), the .crate file from static.crates.io
// (README, `//!` and `///` docs, Cargo.toml facts). File URLs open docs.rs's source view, pinned to the version.
import semver from 'semver';
import { parse as parseToml } from 'smol-toml';
import { DEFAULT_LIMITS, readTar, refused, textOf } from '../archive.ts';
import { fetchBytes, fetchText } from '../fetch.ts';
import type { RegistrySource, SourceSettings } from './types.ts';
import { isDocFile, stripTopFolder } from './types.ts';

/** The sparse index's path of a crate: 1/a, 2/ab, 3/a/abc, ab/cd/abcd…. */
export function indexPath(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length <= 2) return `${lower.length}/${lower}`;
  if (lower.length === 3) return `3/${lower[0]}/${lower}`;
  return `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
}

interface CargoToml {
  package?: { description?: string; license?: string; homepage?: string; repository?: string; documentation?: string; 'rust-version'?: string; edition?: string };
  lib?: { name?: string };
}

export function cratesSource(settings: SourceSettings): RegistrySource {
  const index = (settings.indexUrl ?? 'https://index.crates.io').replace(/\/$/, '');
  const download = (settings.downloadUrl ?? 'https://static.crates.io/crates').replace(/\/$/, '');
  return {
    async releases(name) {
      const text = await fetchText(`${index}/${indexPath(name)}`, settings.limits);
      if (!text) return undefined;
      const entries = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { vers: string; yanked?: boolean; name: string });
      const versions = entries.filter((e) => !e.yanked).map((e) => e.vers);
      const stable = versions.filter((v) => semver.valid(v) && !semver.prerelease(v));
      const latest = semver.rsort([...(stable.length ? stable : versions.filter((v) => semver.valid(v)))])[0] ?? versions[versions.length - 1];
      if (!latest) return undefined;
      return { latest, versions, tags: {} };
    },
    async artifact(name, version, options = {}) {
      const bytes = await fetchBytes(`${download}/${name}/${name}-${version}.crate`, settings.artifactLimits);
      if (!bytes) throw refused(`static.crates.io has no ${name}-${version}.crate.`);
      // examples/ stays: crate docs pull examples in with `include_str!`; it is not indexed on its own.
      const keep = options.keep ?? ((p: string) => isDocFile(p, /\.rs$|^cargo\.toml$/) && !/(^|\/)benches\//.test(p));
      const contents = await readTar(bytes, { ...DEFAULT_LIMITS, keep: (p) => keep(stripTopFolder(p)) });
      const files = contents.files.map((f) => ({ ...f, path: stripTopFolder(f.path) }));
      const cargoFile = files.find((f) => f.path === 'Cargo.toml');
      let cargo: CargoToml = {};
      try { cargo = cargoFile ? parseToml(textOf(cargoFile)) as CargoToml : {}; } catch { cargo = {}; }
      const pkg = cargo.package ?? {};
      const requirements: Record<string, string> = {};
      if (pkg['rust-version']) requirements.rust = pkg['rust-version'];
      if (pkg.edition) requirements.edition = pkg.edition;
      const importName = cargo.lib?.name ?? name.replace(/-/g, '_');
      return {
        files,
        facts: {
          description: pkg.description?.trim(),
          license: pkg.license ?? null,
          homepage: pkg.homepage ?? null,
          repository: pkg.repository ?? null,
          docsUrl: pkg.documentation ?? `https://docs.rs/${name}/${version}`,
          importName,
          entryPoints: files.some((f) => f.path === 'src/lib.rs') ? [importName] : [],
          typesIncluded: null,
          requirements,
        },
        fileUrl: (path, where) => `https://docs.rs/crate/${name}/${version}/source/${path}${where?.line ? `#${where.line}` : ''}`,
        skipped: contents.skipped.length,
      };
    },
  };
}
