// What the program makers need to know about one package version, read from its own files: the Rust crate's
// dependencies and features (Cargo.toml), the Go module's packages (package clauses), the Python pin.
import { parse as parseToml } from 'smol-toml';
import type { ToolRecord } from '../catalog/index.ts';
import type { Config } from '../config.ts';
import { textOf } from '../docs/archive.ts';
import { ownMetadata, topLevelPackages } from '../docs/sources/pypi.ts';
import type { ExampleFiles } from './artifact.ts';
import type { HostFacts } from './host-facts.ts';
import { descendants, parseCode } from './parse.ts';
import { goPin } from './go-pin.ts';
import { pythonPin } from './python-pin.ts';
import { enabledByDefault, featureGatedNames } from './rust-gates.ts';
import type { PackageInfo } from './types.ts';

type TomlDep = string | { version?: string; features?: string[]; package?: string; path?: string; git?: string; optional?: boolean };

function rustDeps(cargo: Record<string, unknown>): NonNullable<PackageInfo['rustDeps']> {
  const out: NonNullable<PackageInfo['rustDeps']> = {};
  for (const table of ['dependencies', 'dev-dependencies']) {
    for (const [key, raw] of Object.entries((cargo[table] ?? {}) as Record<string, TomlDep>)) {
      const dep = typeof raw === 'string' ? { version: raw } : raw;
      if (!dep.version || out[key]) continue; // path/git dependencies cannot be installed from the registry
      out[key] = { version: dep.version, features: dep.features ?? [], ...(dep.package ? { package: dep.package } : {}) };
    }
  }
  return out;
}

/**
 * The names a Python package's `__init__.py` binds at its top level (definitions, assignments, imports, `__all__`):
 * what `from pkg import name` can give. Undefined when unknown (no `__init__.py` in the artifact, or a module
 * `__getattr__` that makes names on demand).
 */
export async function pythonExports(files: ExampleFiles, importName: string): Promise<string[] | undefined> {
  const root = importName.split('.')[0]!;
  // `pkg/`, `src/pkg/`, `lib/pkg/` (PyYAML): the shallowest package directory of that name.
  const init = files.files.filter((f) => f.path === `${root}/__init__.py` || f.path.endsWith(`/${root}/__init__.py`)).sort((a, b) => a.path.length - b.path.length)[0];
  if (!init) return undefined;
  const tree = await parseCode('python', textOf(init));
  const names = new Set<string>();
  for (const statement of tree.namedChildren) {
    if (!statement) continue;
    const node = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (!node) continue;
    if (node.type === 'function_definition' || node.type === 'class_definition') {
      const name = node.childForFieldName('name')?.text;
      if (name === '__getattr__') return undefined;
      if (name) names.add(name);
    } else if (node.type === 'import_from_statement' || node.type === 'import_statement') {
      for (const child of node.childrenForFieldName('name')) {
        const name = child?.type === 'aliased_import' ? child.childForFieldName('alias')?.text : child?.text.split('.').pop();
        if (name) names.add(name);
      }
    } else if (node.type === 'expression_statement') {
      const assignment = node.namedChildren[0];
      const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : undefined;
      if (left) for (const id of [left, ...descendants(left, 'identifier')]) if (id.type === 'identifier') names.add(id.text);
      if (left?.text === '__all__') for (const str of descendants(assignment!, 'string_content')) names.add(str.text);
    }
  }
  return [...names];
}

/**
 * Every top-level module a Python distribution ships: its own top_level.txt lists them (private ones too, which a
 * program may import as well), else its top-level packages. A program may import any of them (attrs: `attr` and
 * `attrs`), not only the import name.
 */
export function pythonModules(files: ExampleFiles): string[] {
  const topLevel = ownMetadata(files.files, 'top_level.txt');
  const listed = topLevel ? textOf(topLevel).split('\n').map((l) => l.trim()).filter((l) => /^[A-Za-z_]\w*$/.test(l)) : [];
  return [...new Set([files.importName.split('.')[0]!, ...(listed.length ? listed : topLevelPackages(files.files.map((f) => f.path)))])];
}

export async function packageInfo(config: Config, tool: ToolRecord, version: string, files: ExampleFiles, host: HostFacts): Promise<PackageInfo> {
  const info: PackageInfo = { ecosystem: tool.ecosystem, name: tool.name, slug: tool.slug, version, importName: files.importName, moduleType: files.moduleType };
  if (tool.ecosystem === 'crates') {
    const manifest = files.files.find((f) => f.path === 'Cargo.toml');
    try {
      const cargo = manifest ? parseToml(textOf(manifest)) as Record<string, unknown> : {};
      info.rustDeps = rustDeps(cargo);
      info.rustFeatures = Object.keys((cargo.features ?? {}) as object);
      info.rustFeatureMap = (cargo.features ?? {}) as Record<string, string[]>;
      for (const [key, dep] of Object.entries((cargo.dependencies ?? {}) as Record<string, TomlDep>)) {
        if (typeof dep === 'object' && dep.optional) info.rustFeatures.push(key); // an optional dependency is a feature too
      }
      // Only a crate with features can gate a name behind one.
      if (info.rustFeatures.length) info.rustGatedNames = await featureGatedNames(files.files.map((f) => ({ path: f.path, text: textOf(f) })), info.rustFeatures, enabledByDefault(info.rustFeatureMap));
    } catch { /* an unreadable manifest: companions from the defaults only */ }
  }
  if (tool.ecosystem === 'go') {
    const packages: Record<string, string> = {};
    const exports: Record<string, Set<string>> = {};
    for (const file of files.files) {
      if (!file.path.endsWith('.go') || file.path.endsWith('_test.go') || /(^|\/)(internal|examples?|_examples?|cmd)\//.test(file.path)) continue;
      const text = textOf(file);
      const name = /^package\s+(\w+)/m.exec(text)?.[1];
      if (!name || name === 'main' || name === 'documentation') continue;
      const root = await parseCode('go', text);
      const names = (exports[name] ??= new Set());
      for (const node of descendants(root, ['function_declaration', 'type_spec', 'const_spec', 'var_spec'])) {
        if (node.parent?.type !== 'source_file' && node.type === 'function_declaration') continue;
        for (const id of node.childrenForFieldName('name')) if (id && /^[A-Z]/.test(id.text)) names.add(id.text);
      }
      const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
      const importPath = dir ? `${tool.name}/${dir}` : tool.name;
      // The shallowest directory wins a name (the module root over a nested package of the same name).
      if (!packages[name] || packages[name]!.length > importPath.length) packages[name] = importPath;
    }
    info.goPackages = packages;
    info.goExports = Object.fromEntries(Object.entries(exports).map(([pkg, names]) => [pkg, [...names]]));
    const goMod = files.files.find((f) => f.path === 'go.mod');
    info.goPin = await goPin(config, tool.name, version, goMod ? textOf(goMod) : undefined, host.runtimes.golang);
  }
  if (tool.ecosystem === 'pypi') {
    info.pythonPin = await pythonPin(config, tool.name, version, host.pythonVersion);
    info.pyExports = await pythonExports(files, info.importName);
    info.pyModules = pythonModules(files);
  }
  return info;
}
