// A project manifest sent in `files` (Cargo.toml for rust, go.mod for golang, package.json for node, at the top of the
// workspace) is honoured: its registry dependencies become the session's pins, fetched by the fetch step under the same
// trust rules as `packages` (registry names and versions only), so the build that follows can run offline. Anything that
// is not a registry dependency (git, path, workspace, another registry, a renamed crate, a replace directive, a tarball
// URL) is refused with 422 `invalid_manifest`, never fetched some other way. Parsed on the host from the request's text,
// never from the session's folder (a tenant's program may have put a link there).
import { parse as parseToml } from 'smol-toml';
import { invalidInput, ToolDexError } from '../errors.ts';
import { parseGoMod } from '../project/formats/golang.ts';
import { ManifestError } from '../project/types.ts';
import { NO_DEFAULT_FEATURES } from './runtimes/rust.ts';
import type { ParsedPackage, RuntimeAdapter } from './runtimes/types.ts';
import type { Runtime } from './schema.ts';

/** The manifest file each runtime honours, at the top of the workspace (where its build runs). */
export const MANIFEST_FILES: Partial<Record<Runtime, string>> = { rust: 'Cargo.toml', golang: 'go.mod', node: 'package.json' };

/** More dependencies than this in one manifest is refused (each is a pin the fetch step resolves). */
export const MAX_MANIFEST_DEPENDENCIES = 100;

const refuse = (file: string, index: number, message: string): never => {
  throw invalidInput('invalid_manifest', `${file}: ${message}`, { field: `files.${index}.code` });
};

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys of a Cargo dependency table that fetch from somewhere other than crates.io, or from the project itself. */
const CARGO_NOT_REGISTRY = ['git', 'branch', 'tag', 'rev', 'path', 'registry', 'registry-index', 'workspace', 'base'];
const CARGO_DEPENDENCY_TABLES = ['dependencies', 'dev-dependencies', 'dev_dependencies', 'build-dependencies', 'build_dependencies'];

/**
 * Cargo.toml: every crates.io dependency (normal, dev, build, per target) as `name@requirement[features]`, with
 * `-default` among the features when every entry of the crate that a build uses says `default-features = false` (cargo
 * enables the defaults when any entry asks for them; dev-dependencies count only for a crate named nowhere else).
 */
function cargoPins(text: string, index: number): string[] {
  const file = 'Cargo.toml';
  let manifest: Table;
  try {
    manifest = parseToml(text) as Table;
  } catch (error) {
    return refuse(file, index, `not valid TOML (${(error as Error).message.split('\n')[0]})`);
  }
  for (const section of ['patch', 'replace']) {
    if (manifest[section] !== undefined) refuse(file, index, `[${section}] is not supported: dependencies come from crates.io, as required.`);
  }
  const tables: Array<{ table: Table; dev: boolean }> = [];
  const collect = (owner: Table) => {
    for (const name of CARGO_DEPENDENCY_TABLES) if (isTable(owner[name])) tables.push({ table: owner[name], dev: name.startsWith('dev') });
  };
  collect(manifest);
  if (isTable(manifest.target)) for (const target of Object.values(manifest.target)) if (isTable(target)) collect(target);
  const crates = new Map<string, { version?: string; features: Set<string>; defaults: boolean; devDefaults: boolean; built: boolean }>();
  for (const { table, dev } of tables) {
    for (const [name, entry] of Object.entries(table)) {
      let version: string | undefined;
      let features: unknown[] = [];
      let defaults = true;
      if (typeof entry === 'string') {
        version = entry;
      } else if (isTable(entry)) {
        const foreign = CARGO_NOT_REGISTRY.find((key) => entry[key] !== undefined);
        if (foreign) refuse(file, index, `dependency "${name}" uses \`${foreign}\`: only crates.io dependencies are fetched (a name, a version, features).`);
        if (entry.package !== undefined) refuse(file, index, `dependency "${name}" is renamed (\`package = ...\`): name the crate itself.`);
        if (entry.version !== undefined && typeof entry.version !== 'string') refuse(file, index, `dependency "${name}": version must be a string.`);
        version = entry.version as string | undefined;
        if (entry.features !== undefined && !Array.isArray(entry.features)) refuse(file, index, `dependency "${name}": features must be a list.`);
        features = (entry.features as unknown[] | undefined) ?? [];
        if (!features.every((feature) => typeof feature === 'string')) refuse(file, index, `dependency "${name}": features must be names.`);
        const defaultFeatures = entry['default-features'] ?? entry.default_features;
        if (defaultFeatures !== undefined && typeof defaultFeatures !== 'boolean') refuse(file, index, `dependency "${name}": default-features must be true or false.`);
        defaults = defaultFeatures !== false;
      } else {
        refuse(file, index, `dependency "${name}" must be a version string or a table.`);
      }
      const known = crates.get(name) ?? { features: new Set<string>(), defaults: false, devDefaults: false, built: false };
      // Dev-dependencies are not built for a program: their default features count only for a crate nothing else names.
      if (dev) {
        known.devDefaults ||= defaults;
      } else {
        known.defaults ||= defaults;
        known.built = true;
      }
      known.version ??= version?.trim() === '*' ? undefined : version?.trim();
      for (const feature of features as string[]) known.features.add(feature.trim());
      crates.set(name, known);
    }
  }
  return [...crates].map(([name, crate]) => {
    const features = [...((crate.built ? crate.defaults : crate.devDefaults) ? [] : [NO_DEFAULT_FEATURES]), ...crate.features];
    return `${name}${crate.version ? `@${crate.version}` : ''}${features.length ? `[${features.join(',')}]` : ''}`;
  });
}

/** go.mod: every required module at its version (the whole list, `// indirect` too: it is the module graph asked for). */
function goPins(text: string, index: number): string[] {
  const file = 'go.mod';
  try {
    const parsed = parseGoMod(file, text);
    // parseGoMod reads replacements into the graph; a sandbox takes modules from the proxy as required, never a folder or a fork.
    const required = parsed.locked ?? [];
    if (required.some((dependency) => dependency.requested?.endsWith('(replaced)')) || /^\s*replace\b/m.test(text)) {
      refuse(file, index, 'replace directives are not supported: modules come from the module proxy, as required.');
    }
    return required.map((dependency) => `${dependency.name}@${dependency.version}`);
  } catch (error) {
    if (error instanceof ManifestError) return refuse(file, index, `${error.message}${error.line ? ` (line ${error.line})` : ''}`);
    throw error;
  }
}

/** Ranges that are not the npm registry's (folders, links, git, tarball URLs, workspaces, aliases to another name). */
const NPM_NOT_REGISTRY = /^(?:workspace:|link:|file:|portal:|patch:|npm:|git\+|git:|github:|gitlab:|bitbucket:|https?:|\.{0,2}\/|~\/)|^[^@\s/]+\/[^\s]+$/;

/** package.json: `dependencies`, `devDependencies` and `optionalDependencies` as `name@range`. */
function npmPins(text: string, index: number): string[] {
  const file = 'package.json';
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return refuse(file, index, `not valid JSON (${(error as Error).message})`);
  }
  if (!isTable(manifest)) return refuse(file, index, 'not a JSON object.');
  const pins = new Map<string, string>();
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const deps = manifest[field];
    if (deps === undefined) continue;
    if (!isTable(deps)) refuse(file, index, `${field} must be an object of name: range.`);
    for (const [name, range] of Object.entries(deps as Table)) {
      if (typeof range !== 'string') refuse(file, index, `${field}.${name} must be a version range string.`);
      const trimmed = (range as string).trim();
      if (NPM_NOT_REGISTRY.test(trimmed)) {
        refuse(file, index, `${field}.${name} is "${trimmed.slice(0, 80)}": only npm registry versions are fetched (git, file, link, workspace, alias and URL sources are not).`);
      }
      if (!pins.has(name)) pins.set(name, trimmed === '' || trimmed === '*' || trimmed === 'latest' ? name : `${name}@${trimmed}`);
    }
  }
  return [...pins.values()];
}

/**
 * The pins a manifest in this call's files asks for, checked by the runtime's package rules (422 `invalid_manifest`
 * naming the file and the dependency); none when the runtime honours no manifest or none was sent.
 */
export function manifestPackages(runtime: Runtime, adapter: RuntimeAdapter, files: Array<{ path: string; code: string }>): ParsedPackage[] {
  const name = MANIFEST_FILES[runtime];
  if (!name) return [];
  const index = files.findIndex((file) => file.path === name || file.path === `./${name}`);
  const manifest = files[index];
  if (!manifest) return [];
  const specs = runtime === 'rust' ? cargoPins(manifest.code, index) : runtime === 'golang' ? goPins(manifest.code, index) : npmPins(manifest.code, index);
  if (specs.length > MAX_MANIFEST_DEPENDENCIES) refuse(name, index, `${specs.length} dependencies; at most ${MAX_MANIFEST_DEPENDENCIES} are fetched for one manifest.`);
  return specs.map((spec) => {
    try {
      return adapter.parsePackage(spec);
    } catch (error) {
      if (error instanceof ToolDexError) return refuse(name, index, `dependency "${spec.slice(0, 100)}" is not a plain registry dependency: ${error.message}`);
      throw error;
    }
  });
}
