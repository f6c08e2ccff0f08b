// How far below the package's entry point a program reaches (round 14, the "side helper" class): the main use is
// what the entry point offers (`import x from 'pkg'`, `from pkg import X`, `use pkg::X`, the module's root Go
// package); a niche helper is often fetched from inside (`pkg/lib/sanitize`, `from pkg.utils.text import slug`,
// `use pkg::util::fmt::X`, `github.com/o/m/internal/x`). Read from the program's import statements with tree-sitter;
// the package is named by the caller (its import name), nothing is looked up.
import type { Ecosystem } from '../catalog/index.ts';
import { descendants, withSyntaxTree, type Grammar, type SyntaxNode } from './parse.ts';
import { strip } from './use-syntax.ts';

const GRAMMAR: Partial<Record<Ecosystem, Grammar>> = { npm: 'typescript', pypi: 'python', crates: 'rust', go: 'go' };

/** The import name the labelled data's slug implies (the fit has slugs, not package records): `go-github.com__a__b` → `github.com/a/b`. */
export function importNameOfSlug(slug: string): { ecosystem: Ecosystem; importName: string } | undefined {
  const m = /^(npm|pypi|crates|go)-(.+)$/.exec(slug);
  if (!m) return undefined;
  const ecosystem = m[1] as Ecosystem;
  const name = m[2]!;
  if (ecosystem === 'go') return { ecosystem, importName: name.replace(/__/g, '/') };
  if (ecosystem === 'crates') return { ecosystem, importName: name.replace(/-/g, '_') };
  // A distribution's module is most often its name with `_` for `-` (graphql-core ships `graphql`: its import's root
  // is matched by prefix below).
  if (ecosystem === 'pypi') return { ecosystem, importName: name.toLowerCase().replace(/-/g, '_') };
  return { ecosystem, importName: name };
}

/** Segments below the package's root that each import of the package names (0: the entry point itself). */
function depths(root: SyntaxNode, ecosystem: Ecosystem, importName: string): number[] {
  const out: number[] = [];
  if (ecosystem === 'npm') {
    const sources = [
      ...descendants(root, 'import_statement').map((n) => n.childForFieldName('source')?.text ?? ''),
      ...descendants(root, 'call_expression').filter((c) => /^(require|import)$/.test(c.childForFieldName('function')?.text ?? '')).map((c) => c.childForFieldName('arguments')?.namedChildren[0]?.text ?? ''),
    ].map(strip);
    for (const s of sources) if (s === importName || s.startsWith(`${importName}/`)) out.push(s === importName ? 0 : s.slice(importName.length + 1).split('/').filter(Boolean).length);
  } else if (ecosystem === 'pypi') {
    // `graphql-core` ships `graphql`, `python-dateutil` ships `dateutil`: the module root is the first import whose
    // root the distribution name starts or ends with.
    const modules = [
      ...descendants(root, 'import_from_statement').map((n) => n.childForFieldName('module_name')?.text ?? ''),
      ...descendants(root, 'import_statement').flatMap((n) => n.namedChildren.filter((c): c is SyntaxNode => c !== null).map((c) => (c.type === 'aliased_import' ? c.childForFieldName('name')?.text ?? '' : c.text))),
    ].filter((m) => m && !m.startsWith('.'));
    const own = (m: string) => { const r = m.split('.')[0]!.toLowerCase(); return r === importName || (r.length >= 3 && (importName.startsWith(`${r}_`) || importName.endsWith(`_${r}`) || importName.replace(/_/g, '') === r)); };
    for (const m of modules) if (own(m)) out.push(m.split('.').length - 1);
  } else if (ecosystem === 'crates') {
    for (const use of descendants(root, 'use_declaration')) {
      // `use pkg::a::B;`, `use pkg::a::{B, c::D};`: the path before a use list is shared; an item is the last segment.
      const text = (use.childForFieldName('argument')?.text ?? '').replace(/\s+/g, '');
      const [head, list] = text.split('{');
      const segments = head!.split('::').filter(Boolean);
      if (segments[0] !== importName) continue;
      if (list === undefined) out.push(Math.max(0, segments.length - 2));
      else for (const item of list.replace(/}+$/, '').split(',').filter(Boolean)) out.push(segments.length - 1 + item.split('::').length - 1);
    }
  } else if (ecosystem === 'go') {
    for (const spec of descendants(root, 'import_spec')) {
      const path = strip(spec.childForFieldName('path')?.text ?? '');
      if (path === importName || path.startsWith(`${importName}/`)) out.push(path === importName ? 0 : path.slice(importName.length + 1).split('/').length);
    }
  }
  return out;
}

/**
 * How deep below the entry point the program's imports of the package reach: the shallowest import's depth (a program
 * that imports the root and one helper module is using the root), capped at 2, as 0–1. NaN when the program imports
 * nothing recognisably the package's (unknown: the model reads it as the training mean).
 */
export async function subModuleDepth(ecosystem: Ecosystem, program: string, importName: string | undefined): Promise<number> {
  const grammar = GRAMMAR[ecosystem];
  if (!grammar || !importName) return Number.NaN;
  const found = await withSyntaxTree(grammar, program, (root) => depths(root, ecosystem, importName));
  return found.length ? Math.min(2, Math.min(...found)) / 2 : Number.NaN;
}
