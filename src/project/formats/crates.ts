// Rust: Cargo.lock (v1–v4) and Cargo.toml, read as TOML.
import { ManifestError, type LockedDependency, type ParsedFile } from '../types.ts';
import { isTable, parseTomlFile, tableEntries, tables, type Toml } from './toml.ts';

const crate = (name: string, version: string | null, extra: Partial<LockedDependency> = {}): LockedDependency =>
  ({ ecosystem: 'crates', name, version, ...extra });

/** A crates.io package: Cargo.lock gives registry packages a `source` starting `registry+` or `sparse+`. */
const fromRegistry = (source: unknown) => typeof source === 'string' && /^(?:registry|sparse)\+/.test(source);

export function parseCargoLock(file: string, text: string): ParsedFile {
  const lock = parseTomlFile(file, text);
  if (!Array.isArray(lock.package)) throw new ManifestError(file, 'no [[package]] tables: not a Cargo.lock', 1);
  const packages = tables(lock.package);
  const locked = packages.flatMap((entry) =>
    typeof entry.name === 'string' && typeof entry.version === 'string' && fromRegistry(entry.source) ? [crate(entry.name, entry.version)] : []);
  // The workspace's own crates have no source; their `dependencies` ("name" or "name version") are the direct ones.
  const direct: LockedDependency[] = [];
  const seen = new Set<string>();
  for (const root of packages.filter((entry) => entry.source === undefined)) {
    for (const reference of Array.isArray(root.dependencies) ? root.dependencies : []) {
      if (typeof reference !== 'string') continue;
      const [name = '', version] = reference.split(' ');
      const candidates = locked.filter((dependency) => dependency.name === name && (!version || dependency.version === version));
      // A workspace member depending on another member is not a registry dependency.
      if (candidates.length === 0 || seen.has(`${name}@${candidates[0]!.version}`)) continue;
      seen.add(`${name}@${candidates[0]!.version}`);
      direct.push(candidates[0]!);
    }
  }
  return { file, format: `Cargo.lock v${String(lock.version ?? 1)}`, ecosystem: 'crates', ...(direct.length ? { direct } : {}), locked };
}

/** Cargo.toml's dependency tables: plain, dev, build, per target and the workspace's shared table. */
function dependencyTables(manifest: Toml): [unknown, boolean][] {
  const found: [unknown, boolean][] = [];
  const collect = (scope: Toml) => {
    found.push([scope.dependencies, false], [scope['build-dependencies'], false], [scope['dev-dependencies'], true], [scope['dev_dependencies'], true]);
  };
  collect(manifest);
  for (const [, target] of tableEntries(manifest.target)) if (isTable(target)) collect(target);
  if (isTable(manifest.workspace)) found.push([manifest.workspace.dependencies, false]);
  return found;
}

export function parseCargoToml(file: string, text: string): ParsedFile {
  const manifest = parseTomlFile(file, text);
  const direct: LockedDependency[] = [];
  for (const [table, dev] of dependencyTables(manifest)) {
    for (const [key, value] of tableEntries(table)) {
      // `foo = "1"`, or a table; `package = "real-name"` renames; path/git dependencies are not on crates.io.
      if (isTable(value) && (value.path !== undefined || value.git !== undefined || value.workspace === true)) continue;
      const requested = typeof value === 'string' ? value : isTable(value) && typeof value.version === 'string' ? value.version : undefined;
      if (requested === undefined) continue;
      const name = isTable(value) && typeof value.package === 'string' ? value.package : key;
      const exact = /^=\s*(\d+\.\d+\.\d+\S*)$/.exec(requested.trim());
      direct.push(crate(name, exact ? exact[1]! : null, { requested, ...(dev ? { dev } : {}) }));
    }
  }
  return { file, format: 'Cargo.toml', ecosystem: 'crates', direct };
}
