// npm lockfiles and manifests: package-lock.json (v2/v3), pnpm-lock.yaml, yarn.lock (v1 and berry), bun.lock,
// package.json. Each is read with a real parser (JSON, the yaml package, yarn's own parser, a JSONC parser).
import { parseSyml } from '@yarnpkg/parsers';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { ManifestError, type LockedDependency, type ParsedFile } from '../types.ts';
import { jsonErrorLine, lineAtOffset } from './lines.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const entries = (value: unknown): [string, unknown][] => (isObject(value) ? Object.entries(value) : []);

/** The dependency fields of a package.json-shaped object, with whether each is development-only. */
const DEPENDENCY_FIELDS = [
  ['dependencies', false], ['optionalDependencies', false], ['peerDependencies', false], ['devDependencies', true],
] as const;

export function parseJsonFile(file: string, text: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(file, `not valid JSON: ${(error as Error).message}`, jsonErrorLine(text, error));
  }
  if (!isObject(value)) throw new ManifestError(file, 'expected a JSON object at the top level', 1);
  return value;
}

const npm = (name: string, version: string | null, extra: Partial<LockedDependency> = {}): LockedDependency =>
  ({ ecosystem: 'npm', name, version, ...extra });

/** A requirement that is itself one exact version (`3.23.8`, `=3.23.8`), as package.json may pin. */
export function exactNpmVersion(range: string): string | null {
  const match = /^=?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/.exec(range.trim());
  return match ? match[1]! : null;
}

/** Requirements that do not come from the registry (workspaces, folders, git, tarball URLs): not catalog packages. */
const notFromRegistry = (range: string) => /^(?:workspace:|link:|file:|portal:|patch:|git\+|git:|github:|https?:|\.{0,2}\/)/.test(range);

export function parsePackageJson(file: string, text: string): ParsedFile {
  const manifest = parseJsonFile(file, text);
  const direct: LockedDependency[] = [];
  for (const [field, dev] of DEPENDENCY_FIELDS) {
    for (const [name, range] of entries(manifest[field])) {
      if (typeof range !== 'string' || notFromRegistry(range)) continue;
      // `npm:other@^1` aliases install another package under this name: the package is the one after `npm:`.
      const alias = /^npm:((?:@[^/]+\/)?[^@]+)@(.+)$/.exec(range);
      const [realName, requested] = alias ? [alias[1]!, alias[2]!] : [name, range];
      direct.push(npm(realName, exactNpmVersion(requested), { requested, ...(dev ? { dev } : {}) }));
    }
  }
  return { file, format: 'package.json', ecosystem: 'npm', direct };
}

export function parsePackageLock(file: string, text: string): ParsedFile {
  const lock = parseJsonFile(file, text);
  const lockfileVersion = lock.lockfileVersion;
  if (lockfileVersion !== 2 && lockfileVersion !== 3) {
    throw new ManifestError(file, `lockfileVersion ${String(lockfileVersion)} is not supported: npm 7 and later write v2 or v3 (run npm install once to upgrade the file)`, 1);
  }
  const packages = isObject(lock.packages) ? lock.packages : {};
  const locked: LockedDependency[] = [];
  for (const [key, entry] of Object.entries(packages)) {
    const at = key.lastIndexOf('node_modules/');
    if (at < 0 || !isObject(entry) || entry.link || typeof entry.version !== 'string') continue;
    const name = typeof entry.name === 'string' ? entry.name : key.slice(at + 'node_modules/'.length);
    locked.push(npm(name, entry.version, entry.dev ? { dev: true } : {}));
  }
  const root = isObject(packages['']) ? packages[''] : {};
  const direct: LockedDependency[] = [];
  for (const [field, dev] of DEPENDENCY_FIELDS) {
    for (const [name, range] of entries(root[field])) {
      if (typeof range !== 'string' || notFromRegistry(range)) continue;
      const installed = packages[`node_modules/${name}`];
      if (isObject(installed) && installed.link) continue; // a workspace member, not a registry package
      const realName = isObject(installed) && typeof installed.name === 'string' ? installed.name : name;
      const version = isObject(installed) && typeof installed.version === 'string' ? installed.version : null;
      direct.push(npm(realName, version, { requested: range, ...(dev ? { dev } : {}) }));
    }
  }
  return { file, format: `package-lock.json v${lockfileVersion}`, ecosystem: 'npm', direct, locked: dedupe(locked) };
}

/** pnpm writes `18.2.0(react@18.2.0)` (v6+) or `18.2.0_react@18.2.0` (v5) for peer-resolved versions. */
const pnpmVersion = (version: string) => version.replace(/\(.*$/, '').replace(/_.*$/, '');

/** `name@1.2.3` (v9), `/name@1.2.3` (v6), `/name/1.2.3` (v5), each possibly scoped and peer-suffixed. */
function pnpmPackageKey(key: string): { name: string; version: string } | undefined {
  const bare = key.replace(/^\//, '').replace(/\(.*$/, '');
  const at = bare.lastIndexOf('@');
  if (at > 0) return { name: bare.slice(0, at), version: pnpmVersion(bare.slice(at + 1)) };
  const slash = bare.lastIndexOf('/');
  return slash > 0 ? { name: bare.slice(0, slash), version: pnpmVersion(bare.slice(slash + 1)) } : undefined;
}

export function parsePnpmLock(file: string, text: string): ParsedFile {
  let lock: unknown;
  try {
    lock = parseYaml(text);
  } catch (error) {
    const line = error instanceof YAMLParseError ? error.linePos?.[0].line : undefined;
    throw new ManifestError(file, `not valid YAML: ${(error as Error).message.split('\n')[0]}`, line);
  }
  if (!isObject(lock) || lock.lockfileVersion === undefined) throw new ManifestError(file, 'no lockfileVersion: not a pnpm lockfile', 1);
  // pnpm 7+ lists the root project under importers['.'] in workspaces and at the top level otherwise.
  const importer = isObject(lock.importers) && isObject(lock.importers['.']) ? lock.importers['.'] : lock;
  const specifiers = isObject(importer.specifiers) ? importer.specifiers : {};
  const direct: LockedDependency[] = [];
  for (const [field, dev] of DEPENDENCY_FIELDS) {
    for (const [name, value] of entries(importer[field])) {
      // v6+: { specifier, version }; v5: a bare version with the specifier in `specifiers`.
      const version = isObject(value) ? value.version : value;
      const requested = isObject(value) ? value.specifier : specifiers[name];
      if (typeof version !== 'string' || notFromRegistry(version)) continue;
      direct.push(npm(name, pnpmVersion(version), { ...(typeof requested === 'string' ? { requested } : {}), ...(dev ? { dev } : {}) }));
    }
  }
  const locked: LockedDependency[] = [];
  for (const [key, entry] of entries(lock.packages)) {
    const parsed = pnpmPackageKey(key);
    if (parsed) locked.push(npm(parsed.name, parsed.version, isObject(entry) && entry.dev === true ? { dev: true } : {}));
  }
  return { file, format: `pnpm-lock.yaml v${String(lock.lockfileVersion)}`, ecosystem: 'npm', direct, locked: dedupe(locked) };
}

/** A yarn descriptor `name@range` or `name@npm:range` → its name (scoped names start with `@`). */
function descriptorName(descriptor: string): { name: string; range: string } {
  const at = descriptor.indexOf('@', 1);
  return at < 0 ? { name: descriptor, range: '' } : { name: descriptor.slice(0, at), range: descriptor.slice(at + 1).replace(/^npm:/, '') };
}

export function parseYarnLock(file: string, text: string): ParsedFile {
  let lock: Json;
  try {
    lock = parseSyml(text) as Json;
  } catch (error) {
    const message = (error as Error).message;
    const line = /line (\d+)/i.exec(message);
    throw new ManifestError(file, `not a readable yarn.lock: ${message.split('\n')[0]}`, line ? Number(line[1]) : undefined);
  }
  const berry = isObject(lock.__metadata);
  const locked: LockedDependency[] = [];
  const direct: LockedDependency[] = [];
  for (const [key, entry] of Object.entries(lock)) {
    if (key === '__metadata' || !isObject(entry) || typeof entry.version !== 'string') continue;
    const descriptors = key.split(',').map((d) => d.trim()).filter(Boolean);
    const { name } = descriptorName(descriptors[0]!);
    if (descriptors.some((d) => d.includes('@workspace:'))) {
      // Berry lists the project itself as `app@workspace:.`: its dependencies are the direct ones.
      if (descriptors.some((d) => d.endsWith('@workspace:.'))) {
        for (const [field, dev] of [['dependencies', false], ['devDependencies', true], ['peerDependencies', false]] as const) {
          for (const [dep, range] of entries(entry[field])) {
            if (typeof range === 'string' && !notFromRegistry(range.replace(/^npm:/, ''))) direct.push(npm(dep, null, { requested: range.replace(/^npm:/, ''), ...(dev ? { dev } : {}) }));
          }
        }
      }
      continue;
    }
    if (descriptors.every((d) => notFromRegistry(descriptorName(d).range))) continue;
    locked.push(npm(name, entry.version, { requested: descriptors.map((d) => descriptorName(d).range).join(' || ') }));
  }
  return {
    file, format: berry ? `yarn.lock (berry v${String((lock.__metadata as Json).version ?? '?')})` : 'yarn.lock v1', ecosystem: 'npm',
    ...(direct.length ? { direct } : {}), locked: dedupe(locked),
  };
}

export function parseBunLock(file: string, text: string): ParsedFile {
  const errors: ParseError[] = [];
  const lock = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length) {
    const first = errors[0]!;
    throw new ManifestError(file, `not valid JSON: ${printParseErrorCode(first.error)}`, lineAtOffset(text, first.offset));
  }
  if (!isObject(lock) || !isObject(lock.workspaces)) throw new ManifestError(file, 'no workspaces: not a text bun.lock (bun.lockb, the binary format, is not read)', 1);
  const packages = isObject(lock.packages) ? lock.packages : {};
  // Each package entry is [`name@version`, registry, info, integrity]; keys nest as `parent/child` for duplicates.
  const versionOf = (key: string): { name: string; version: string } | undefined => {
    const entry = packages[key];
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') return undefined;
    const at = entry[0].lastIndexOf('@');
    return at > 0 ? { name: entry[0].slice(0, at), version: entry[0].slice(at + 1) } : undefined;
  };
  const root = isObject(lock.workspaces['']) ? lock.workspaces[''] : {};
  const direct: LockedDependency[] = [];
  for (const [field, dev] of DEPENDENCY_FIELDS) {
    for (const [name, range] of entries(root[field])) {
      if (typeof range !== 'string' || notFromRegistry(range)) continue;
      const installed = versionOf(name);
      if (installed && notFromRegistry(installed.version)) continue;
      direct.push(npm(installed?.name ?? name, installed?.version ?? null, { requested: range, ...(dev ? { dev } : {}) }));
    }
  }
  const locked: LockedDependency[] = [];
  for (const key of Object.keys(packages)) {
    const installed = versionOf(key);
    if (installed && !notFromRegistry(installed.version) && !installed.version.startsWith('workspace:')) locked.push(npm(installed.name, installed.version));
  }
  return { file, format: `bun.lock v${String(lock.lockfileVersion ?? '?')}`, ecosystem: 'npm', direct, locked: dedupe(locked) };
}

export function dedupe(list: LockedDependency[]): LockedDependency[] {
  const seen = new Map<string, LockedDependency>();
  for (const dependency of list) {
    const key = `${dependency.name}@${dependency.version}`;
    const known = seen.get(key);
    // A package that is also a production dependency somewhere is not development-only.
    if (!known) seen.set(key, dependency);
    else if (known.dev && !dependency.dev) seen.set(key, { ...known, dev: undefined });
  }
  return [...seen.values()];
}
