// Reads a project's dependency files: picks each file's parser by its name, then joins a manifest (which names the
// direct dependencies) with a lockfile of the same ecosystem (which knows the exact versions).
import semver from 'semver';
import type { Ecosystem } from '../catalog/types.ts';
import { parseCargoLock, parseCargoToml } from './formats/crates.ts';
import { parseGoMod, parseGoSum } from './formats/golang.ts';
import { dedupe, parseBunLock, parsePackageJson, parsePackageLock, parsePnpmLock, parseYarnLock } from './formats/npm.ts';
import { parsePipfile, parsePipfileLock, parsePoetryLock, parsePyproject, parseRequirementsTxt, parseUvLock } from './formats/pypi.ts';
import { parseGemfileLock } from './formats/rubygems.ts';
import { ManifestError, type LockedDependency, type ParsedFile } from './types.ts';

type Parser = (file: string, text: string) => ParsedFile;

/** File names tooldex reads, by exact base name or pattern. */
const PARSERS: [RegExp, Parser][] = [
  [/^(?:package-lock|npm-shrinkwrap)\.json$/, parsePackageLock],
  [/^pnpm-lock\.ya?ml$/, parsePnpmLock],
  [/^yarn\.lock$/, parseYarnLock],
  [/^bun\.lock$/, parseBunLock],
  [/^package\.json$/, parsePackageJson],
  [/^poetry\.lock$/, parsePoetryLock],
  [/^uv\.lock$/, parseUvLock],
  [/^Pipfile\.lock$/, parsePipfileLock],
  [/^Pipfile$/, parsePipfile],
  [/^requirements[\w.-]*\.(?:txt|in)$|\.requirements\.txt$/, parseRequirementsTxt],
  [/^pyproject\.toml$/, parsePyproject],
  [/^Cargo\.lock$/, parseCargoLock],
  [/^Cargo\.toml$/, parseCargoToml],
  [/^go\.mod$/, parseGoMod],
  [/^go\.sum$/, parseGoSum],
  [/^Gemfile\.lock$/, parseGemfileLock],
];

export const SUPPORTED_FILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'package.json',
  'poetry.lock', 'uv.lock', 'Pipfile.lock', 'Pipfile', 'requirements*.txt', 'pyproject.toml', 'Cargo.lock', 'Cargo.toml', 'go.mod', 'go.sum', 'Gemfile.lock'];

export const baseName = (file: string) => file.replace(/\\/g, '/').split('/').pop() ?? file;

export function isSupportedFile(file: string): boolean {
  return PARSERS.some(([pattern]) => pattern.test(baseName(file)));
}

export function parseFile(file: string, text: string): ParsedFile {
  const parser = PARSERS.find(([pattern]) => pattern.test(baseName(file)))?.[1];
  if (!parser) throw new ManifestError(file, `not a file tooldex reads; supported: ${SUPPORTED_FILES.join(', ')}`);
  return parser(file, text.replace(/^\uFEFF/, ''));
}

export interface ProjectDependencies {
  files: { file: string; format: string; ecosystem: Ecosystem }[];
  direct: LockedDependency[];
  transitive: LockedDependency[];
  /** Ecosystems whose files do not say which dependencies are direct (yarn.lock v1 alone, poetry.lock alone…). */
  directUnknown: Ecosystem[];
}

const normalized = (ecosystem: Ecosystem, name: string) =>
  ecosystem === 'pypi' ? name.toLowerCase().replace(/[-_.]+/g, '-') : ecosystem === 'crates' ? name.replace(/-/g, '_') : name;

/** The locked version that a manifest's requirement resolved to: the one the range admits, else the only one. */
function lockedVersion(dependency: LockedDependency, locked: LockedDependency[]): string | null {
  const key = normalized(dependency.ecosystem, dependency.name);
  const versions = locked.filter((l) => normalized(l.ecosystem, l.name) === key && l.version).map((l) => l.version!);
  if (versions.length === 0) return dependency.version;
  if (dependency.version && versions.includes(dependency.version)) return dependency.version;
  if (dependency.ecosystem === 'npm' && dependency.requested && versions.length > 1) {
    const best = semver.maxSatisfying(versions.filter((v) => semver.valid(v)), dependency.requested);
    if (best) return best;
  }
  return versions.length === 1 ? versions[0]! : [...versions].sort((a, b) => (semver.valid(a) && semver.valid(b) ? semver.rcompare(a, b) : b.localeCompare(a)))[0]!;
}

export function combine(parsed: ParsedFile[]): ProjectDependencies {
  const direct: LockedDependency[] = [];
  const transitive: LockedDependency[] = [];
  const directUnknown: Ecosystem[] = [];
  for (const ecosystem of [...new Set(parsed.map((p) => p.ecosystem))]) {
    const files = parsed.filter((p) => p.ecosystem === ecosystem);
    const locked = dedupe(files.flatMap((p) => p.locked ?? []));
    // A lockfile's own root entry knows versions; a manifest names what the project asked for. Either says "direct".
    const named = files.flatMap((p) => p.direct ?? []);
    const seen = new Set<string>();
    const ours: LockedDependency[] = [];
    for (const dependency of named) {
      const version = lockedVersion(dependency, locked);
      const key = `${normalized(ecosystem, dependency.name)}@${version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      ours.push({ ...dependency, version });
    }
    if (ours.length === 0 && locked.length > 0) directUnknown.push(ecosystem);
    direct.push(...ours);
    const directKeys = new Set(ours.map((d) => `${normalized(ecosystem, d.name)}@${d.version}`));
    transitive.push(...locked.filter((l) => !directKeys.has(`${normalized(ecosystem, l.name)}@${l.version}`)));
  }
  return { files: parsed.map(({ file, format, ecosystem }) => ({ file, format, ecosystem })), direct, transitive, directUnknown };
}
