// PyPI lockfiles and manifests: poetry.lock, uv.lock, Pipfile.lock, Pipfile, requirements.txt (`==` pins),
// pyproject.toml (PEP 621, Poetry, PEP 735 dependency groups). Requirement strings are PEP 508.
import type { LockedDependency, ParsedFile } from '../types.ts';
import { ManifestError } from '../types.ts';
import { parseJsonFile } from './npm.ts';
import { isTable, parseTomlFile, tableEntries, tables } from './toml.ts';

const pypi = (name: string, version: string | null, extra: Partial<LockedDependency> = {}): LockedDependency =>
  ({ ecosystem: 'pypi', name, version, ...extra });

/** PEP 508's name, then optional extras, then the version specifier up to a marker (`;`) or a URL (`@`). */
const REQUIREMENT = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(\(?[<>=!~][^;@]*?\)?)?\s*(?:;.*)?$/;

export interface Requirement { name: string; specifier: string; pinned: string | null }

/** One PEP 508 requirement string, or undefined for a direct URL reference (`name @ https://…`) or garbage. */
export function parseRequirement(text: string): Requirement | undefined {
  const match = REQUIREMENT.exec(text);
  if (!match) return undefined;
  const specifier = (match[2] ?? '').replace(/^\(|\)$/g, '').replace(/\s+/g, '');
  // Exactly one `==` clause without a wildcard is a pin (`==2.32.3`, `===2.32.3`).
  const pin = /^===?([^,*]+)$/.exec(specifier);
  return { name: match[1]!, specifier, pinned: pin ? pin[1]! : null };
}

export function parseRequirementsTxt(file: string, text: string): ParsedFile {
  const direct: LockedDependency[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    // A trailing backslash continues the line (hashes are written that way); `#` starts a comment.
    let line = lines[i]!;
    const start = i;
    while (line.endsWith('\\') && i + 1 < lines.length) line = line.slice(0, -1) + ' ' + lines[++i]!;
    line = line.replace(/(^|\s)#.*$/, '').trim();
    // Options (-r other.txt, -e ., --index-url, --hash=…) and paths/URLs name no registry requirement.
    if (!line || line.startsWith('-') || /^(?:\.|\/|[a-z+]+:\/\/)/i.test(line)) continue;
    const requirement = parseRequirement(line.replace(/\s--hash=\S+/g, ''));
    if (!requirement) {
      if (/\s@\s/.test(line)) continue; // `name @ https://…`: a direct URL reference, not a registry release
      throw new ManifestError(file, `not a requirement: ${line.slice(0, 120)}`, start + 1);
    }
    direct.push(pypi(requirement.name, requirement.pinned, requirement.specifier ? { requested: requirement.specifier } : {}));
  }
  return { file, format: 'requirements.txt', ecosystem: 'pypi', direct };
}

export function parsePoetryLock(file: string, text: string): ParsedFile {
  const lock = parseTomlFile(file, text);
  const locked = tables(lock.package).flatMap((entry) =>
    typeof entry.name === 'string' && typeof entry.version === 'string' && !isLocalSource(entry.source)
      ? [pypi(entry.name, entry.version, entry.category === 'dev' ? { dev: true } : {})] : []);
  if (!Array.isArray(lock.package)) throw new ManifestError(file, 'no [[package]] tables: not a poetry.lock', 1);
  const meta = isTable(lock.metadata) ? lock.metadata : {};
  return { file, format: `poetry.lock${meta['lock-version'] ? ` v${String(meta['lock-version'])}` : ''}`, ecosystem: 'pypi', locked };
}

/** A path or git source is the project's own code or a checkout, not a PyPI release. */
const isLocalSource = (source: unknown) => isTable(source) && (source.type === 'directory' || source.type === 'file' || source.type === 'git'
  || 'editable' in source || 'virtual' in source || 'path' in source || 'directory' in source || 'git' in source);

export function parseUvLock(file: string, text: string): ParsedFile {
  const lock = parseTomlFile(file, text);
  if (!Array.isArray(lock.package)) throw new ManifestError(file, 'no [[package]] tables: not a uv.lock', 1);
  const packages = tables(lock.package);
  const locked = packages.flatMap((entry) =>
    typeof entry.name === 'string' && typeof entry.version === 'string' && !isLocalSource(entry.source) ? [pypi(entry.name, entry.version)] : []);
  // The project itself is the package whose source is the folder (`editable = "."` or `virtual = "."`).
  const root = packages.find((entry) => isTable(entry.source) && (entry.source.editable === '.' || entry.source.virtual === '.'));
  const versionOf = (name: string) => locked.find((dependency) => normalize(dependency.name) === normalize(name))?.version ?? null;
  const direct: LockedDependency[] = [];
  const add = (list: unknown, dev: boolean) => {
    for (const entry of tables(list)) {
      if (typeof entry.name === 'string') direct.push(pypi(entry.name, versionOf(entry.name), dev ? { dev } : {}));
    }
  };
  if (root) {
    add(root.dependencies, false);
    for (const [, list] of tableEntries(root['optional-dependencies'])) add(list, false);
    for (const [, list] of tableEntries(root['dev-dependencies'])) add(list, true);
  }
  return { file, format: `uv.lock v${String(lock.version ?? '?')}`, ecosystem: 'pypi', ...(root ? { direct: dedupeByName(direct) } : {}), locked };
}

export function parsePipfileLock(file: string, text: string): ParsedFile {
  const lock = parseJsonFile(file, text);
  const locked: LockedDependency[] = [];
  for (const [section, dev] of [['default', false], ['develop', true]] as const) {
    for (const [name, entry] of tableEntries(lock[section])) {
      if (!isTable(entry) || typeof entry.version !== 'string') continue; // path, git and editable entries have no version
      locked.push(pypi(name, entry.version.replace(/^===?/, ''), dev ? { dev } : {}));
    }
  }
  if (!isTable(lock.default) && !isTable(lock.develop)) throw new ManifestError(file, 'no "default" or "develop" section: not a Pipfile.lock', 1);
  return { file, format: 'Pipfile.lock', ecosystem: 'pypi', locked };
}

export function parsePipfile(file: string, text: string): ParsedFile {
  const pipfile = parseTomlFile(file, text);
  const direct: LockedDependency[] = [];
  for (const [section, dev] of [['packages', false], ['dev-packages', true]] as const) {
    for (const [name, value] of tableEntries(pipfile[section])) {
      const specifier = typeof value === 'string' ? value : isTable(value) && typeof value.version === 'string' ? value.version : undefined;
      if (specifier === undefined) continue; // git, path or editable: not a registry release
      const pin = /^===?([^,*]+)$/.exec(specifier.replace(/\s+/g, ''));
      direct.push(pypi(name, pin ? pin[1]! : null, { ...(specifier !== '*' ? { requested: specifier } : {}), ...(dev ? { dev } : {}) }));
    }
  }
  return { file, format: 'Pipfile', ecosystem: 'pypi', direct };
}

export function parsePyproject(file: string, text: string): ParsedFile {
  const pyproject = parseTomlFile(file, text);
  const direct: LockedDependency[] = [];
  const addRequirements = (list: unknown, dev: boolean) => {
    if (!Array.isArray(list)) return;
    for (const item of list) {
      if (typeof item !== 'string') continue; // PEP 735 `{include-group = "…"}` entries refer to another group
      const requirement = parseRequirement(item);
      if (requirement) direct.push(pypi(requirement.name, requirement.pinned, { ...(requirement.specifier ? { requested: requirement.specifier } : {}), ...(dev ? { dev } : {}) }));
    }
  };
  const project = isTable(pyproject.project) ? pyproject.project : {};
  addRequirements(project.dependencies, false);
  for (const [, list] of tableEntries(project['optional-dependencies'])) addRequirements(list, false);
  for (const [, list] of tableEntries(pyproject['dependency-groups'])) addRequirements(list, true);
  const tool = isTable(pyproject.tool) ? pyproject.tool : {};
  const poetry = isTable(tool.poetry) ? tool.poetry : {};
  const addPoetry = (table: unknown, dev: boolean) => {
    for (const [name, value] of tableEntries(table)) {
      if (name.toLowerCase() === 'python') continue; // the interpreter's range, not a package
      const specifier = typeof value === 'string' ? value : isTable(value) && typeof value.version === 'string' ? value.version : undefined;
      if (specifier === undefined) continue;
      const pin = /^(?:==)?(\d+(?:\.\d+)*(?:[a-z]+\d*)?)$/i.exec(specifier.trim());
      direct.push(pypi(name, pin ? pin[1]! : null, { requested: specifier, ...(dev ? { dev } : {}) }));
    }
  };
  addPoetry(poetry.dependencies, false);
  addPoetry(poetry['dev-dependencies'], true);
  for (const [, group] of tableEntries(poetry.group)) if (isTable(group)) addPoetry(group.dependencies, true);
  return { file, format: 'pyproject.toml', ecosystem: 'pypi', direct: dedupeByName(direct) };
}

const normalize = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

function dedupeByName(list: LockedDependency[]): LockedDependency[] {
  const seen = new Map<string, LockedDependency>();
  for (const dependency of list) {
    const key = normalize(dependency.name);
    const known = seen.get(key);
    if (!known || (known.dev && !dependency.dev)) seen.set(key, dependency);
  }
  return [...seen.values()];
}

