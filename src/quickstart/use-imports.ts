// Finding a program's imports of the package, per language (npm import/require, Python import/from-import, Rust
// use/extern crate/paths, Go import specs): the names they bind, whether the package is imported at all, and whether
// an import binds nothing or everything (a side-effect import, a wildcard, a Go blank or dot import), when names
// cannot be followed. One job of the package-use check (package-use.ts).
import type { Ecosystem } from '../catalog/index.ts';
import { descendants, type SyntaxNode } from './parse.ts';
import { calleeOf, refs, strip } from './use-syntax.ts';

export interface PackageRef {
  ecosystem: Ecosystem;
  /** npm package name, Python distribution name, crate name, Go module path. */
  name: string;
  /** Python module, Rust crate ident, Go import path, npm name. */
  importName: string;
  /** Go: package name → import path of the module's packages (the root's name may differ from its path's last part). */
  goPackages?: Record<string, string>;
  /** Python: every top-level module the distribution ships (attrs ships `attr` and `attrs`); importName's root if absent. */
  pyModules?: string[];
}

/** The package's imports: names they bind, and whether any binds nothing or everything (then names cannot be followed). */
export function importsOf(root: SyntaxNode, ref: PackageRef): { bindings: Set<string>; imported: boolean; opaque?: string } {
  const bindings = new Set<string>();
  let imported = false;
  let opaque: string | undefined;
  // A package inside a namespace folder (PEP 420: importName `opentelemetry.util.http`) is that package, not the folder,
  // which other distributions share (`from opentelemetry.instrumentation.asgi import …` uses another one); a module
  // above it imports it by name (`from opentelemetry.util import http`).
  const namespace = ref.ecosystem === 'pypi' && ref.importName.includes('.') ? ref.importName.split('.')[0]! : undefined;
  const pyRoots = namespace ? [ref.importName, ...(ref.pyModules ?? []).filter((m) => m !== namespace)] : [ref.importName.split('.')[0]!, ...(ref.pyModules ?? [])];
  const own = (source: string) => {
    switch (ref.ecosystem) {
      case 'npm': return source === ref.name || source.startsWith(`${ref.name}/`);
      case 'pypi': return pyRoots.some((rootName) => source === rootName || source.startsWith(`${rootName}.`)) || (!!namespace && source !== namespace && ref.importName.startsWith(`${source}.`));
      case 'go': return source === ref.importName || source.startsWith(`${ref.importName}/`);
      default: return false;
    }
  };
  if (ref.ecosystem === 'npm') {
    for (const node of descendants(root, 'import_statement')) {
      const source = strip(node.childForFieldName('source')?.text ?? '');
      if (!own(source)) continue;
      imported = true;
      const clause = node.namedChildren.find((c) => c?.type === 'import_clause');
      if (!clause) { opaque = 'a side-effect import'; continue; }
      for (const id of descendants(clause, 'identifier')) {
        // `{ a as b }` binds b; `{ a }` binds a.
        const spec = id.parent?.type === 'import_specifier' ? id.parent : undefined;
        if (spec && spec.childForFieldName('alias') && spec.childForFieldName('name')?.id === id.id) continue;
        bindings.add(id.text);
      }
    }
    for (const call of descendants(root, 'call_expression')) {
      const fn = call.childForFieldName('function');
      if (!fn || !/^(require|import)$/.test(fn.text)) continue;
      const arg = call.childForFieldName('arguments')?.namedChildren[0];
      if (!arg || !own(strip(arg.text))) continue;
      imported = true;
      // `const x = require('p')`, `const { a, b: c } = require('p')`, `const m = await import('p')`.
      let up: SyntaxNode | null = call.parent;
      while (up && up.type !== 'variable_declarator' && up.type !== 'expression_statement' && up.type !== 'program') up = up.parent;
      const name = up?.type === 'variable_declarator' ? up.childForFieldName('name') : undefined;
      if (!name) { opaque ??= 'a side-effect require'; continue; }
      for (const id of descendants(name, ['identifier', 'shorthand_property_identifier_pattern'])) bindings.add(id.text);
    }
  } else if (ref.ecosystem === 'pypi') {
    for (const node of descendants(root, ['import_statement', 'import_from_statement'])) {
      if (node.type === 'import_statement') {
        for (const item of node.namedChildren) {
          if (!item) continue;
          const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
          if (!dotted || !own(dotted.text)) continue;
          imported = true;
          // `import a.b` binds a; `import a.b as c` binds c.
          bindings.add(item.type === 'aliased_import' ? item.childForFieldName('alias')!.text : dotted.text.split('.')[0]!);
        }
        continue;
      }
      const module = node.childForFieldName('module_name');
      if (!module || !own(module.text)) continue;
      imported = true;
      if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) { opaque = 'a wildcard import'; continue; }
      for (const item of node.childrenForFieldName('name')) {
        if (!item) continue;
        bindings.add(item.type === 'aliased_import' ? item.childForFieldName('alias')!.text : item.text);
      }
    }
    // A doctest run in its module's namespace (`globals().update(vars(_module))`, as verification writes it): the
    // module's names are used unqualified, like a wildcard import's.
    if (descendants(root, 'call').some((c) => calleeOf(c)?.text === 'globals().update' && refs(c).some((n) => bindings.has(n)))) opaque = "the module's namespace (a doctest)";
  } else if (ref.ecosystem === 'crates') {
    const crate = ref.importName;
    // A path that starts with the crate's name needs no `use` in Rust 2018+: the crate's name is always bound.
    bindings.add(crate);
    for (const node of descendants(root, 'extern_crate_declaration')) {
      if (node.childForFieldName('name')?.text !== crate) continue;
      imported = true;
      const alias = node.childForFieldName('alias');
      if (alias) bindings.add(alias.text);
    }
    for (const node of descendants(root, 'use_declaration')) {
      const arg = node.childForFieldName('argument');
      if (!arg) continue;
      const head = arg.text.replace(/^::/, '').split(/::|\s|\{/)[0];
      if (!head || !bindings.has(head)) continue;
      imported = true;
      if (descendants(arg, 'use_wildcard').length) opaque = 'a glob import';
      // What a use binds: each leaf's last name, or its alias.
      for (const id of descendants(arg, ['identifier', 'type_identifier'])) {
        const parent = id.parent;
        if (parent?.type === 'use_as_clause') { if (parent.childForFieldName('alias')?.id === id.id) bindings.add(id.text); continue; }
        if (parent?.type === 'use_wildcard') continue;
        // Only a path's last segment is bound (`use p::clock::Reference` binds Reference, not clock).
        let seg: SyntaxNode = id;
        let leaf = true;
        while (seg.parent && /^(scoped_identifier|scoped_use_list|use_as_clause)$/.test(seg.parent.type)) {
          if (seg.parent.childForFieldName('path')?.id === seg.id) { leaf = false; break; }
          seg = seg.parent;
        }
        if (leaf) bindings.add(id.text);
      }
    }
    if (!imported && descendants(root, ['scoped_identifier', 'scoped_type_identifier']).some((n) => n.text.split('::')[0] === crate)) imported = true;
    if (!imported && descendants(root, 'macro_invocation').some((m) => descendants(m, 'identifier').some((i) => i.text === crate))) imported = true;
  } else if (ref.ecosystem === 'go') {
    for (const spec of descendants(root, 'import_spec')) {
      const path = strip(spec.childForFieldName('path')?.text ?? '');
      if (!own(path)) continue;
      imported = true;
      const alias = spec.childForFieldName('name');
      if (alias?.type === 'blank_identifier') { opaque = 'a blank import (a registration)'; continue; }
      if (alias?.type === 'dot') { opaque = 'a dot import'; continue; }
      if (alias) { bindings.add(alias.text); continue; }
      for (const [pkg, p] of Object.entries(ref.goPackages ?? {})) if (p === path) bindings.add(pkg);
      // A package's name is usually its path's last part, without a major-version suffix or a go- prefix.
      const parts = path.split('/').filter((p) => !/^v\d+$/.test(p));
      const last = (parts[parts.length - 1] ?? path).replace(/\.v\d+$/, '');
      bindings.add(last);
      bindings.add(last.replace(/^go-?/, '').replace(/[-.]?go$/, '').replace(/[^\w]/g, ''));
    }
  }
  return { bindings, imported, opaque };
}
