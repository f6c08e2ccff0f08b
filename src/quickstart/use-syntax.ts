// The syntax-tree vocabulary the package-use check shares (package-use.ts, use-imports.ts, use-flow.ts, use-tiers.ts):
// the grammar a program is read with, which nodes are calls and identifiers, a call's callee and arguments, and the
// names a node refers to. Pure helpers over tree-sitter nodes (parse.ts).
import type { Ecosystem } from '../catalog/index.ts';
import { descendants, type Grammar, type SyntaxNode } from './parse.ts';

const GRAMMAR: Partial<Record<Ecosystem, Grammar>> = { npm: 'typescript', pypi: 'python', crates: 'rust', go: 'go' };

/** The grammar a program is read with: npm JSX programs (`.tsx`/`.jsx`, as they run) need the tsx grammar, whose
 * `<Tag>` is an element where the typescript grammar reads a type assertion and loses the rest of the file. */
export function grammarFor(ecosystem: Ecosystem, path: string | undefined): Grammar | undefined {
  if (ecosystem === 'npm' && path && /\.[jt]sx$/i.test(path)) return 'tsx';
  return GRAMMAR[ecosystem];
}

/**
 * Call nodes in the four grammars (a Rust macro call counts: `println!` is how Rust prints). Go's generic call with
 * explicit type arguments (`cache.New[string, int](opts)`) is, to the grammar, a type conversion: the two cannot be
 * told apart without types, and either way the value comes from what is named, so it counts as a call.
 */
export const CALLS = ['call_expression', 'call', 'new_expression', 'macro_invocation', 'type_conversion_expression'];
export const IDENTIFIERS = ['identifier', 'type_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern', 'shorthand_field_identifier'];

/** A string literal's text without its quotes and prefixes (`r"…"`, `b'…'`, a template's backticks). */
export const strip = (s: string) => s.replace(/^[rbfu]*["'`]+|["'`]+$/gi, '');

/**
 * Identifiers a node refers to (not field or property names: `x.year` refers to x only). A Go package named in a type
 * (`pkg.Cache[string]`, the callee of a generic call) is a `package_identifier` under a `qualified_type`; elsewhere
 * that node type is the file's own package clause or an import's alias, which refer to nothing.
 */
export function refs(node: SyntaxNode): string[] {
  return descendants(node, [...IDENTIFIERS, 'package_identifier'])
    .filter((id) => id.type !== 'package_identifier' || id.parent?.type === 'qualified_type')
    .filter((id) => !(id.parent?.type === 'attribute' && id.parent.childForFieldName('attribute')?.id === id.id)).map((id) => id.text);
}

/** What a call calls (a function, a constructor, a macro's name). */
export function calleeOf(call: SyntaxNode): SyntaxNode | null {
  if (call.type === 'type_conversion_expression') return call.childForFieldName('type');
  return call.childForFieldName('function') ?? call.childForFieldName('constructor') ?? call.childForFieldName('macro');
}

/** A call's argument list (a Rust macro's token tree), as one node, or none. */
export function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  // A Go generic call read as a conversion has one argument, its operand.
  const args = call.childForFieldName('arguments') ?? call.childForFieldName('operand') ?? call.namedChildren.find((c) => c?.type === 'token_tree') ?? null;
  return args ? [args] : [];
}
