// What the docs' own examples give the package, for the programs tooldex writes from the API when no example runs.
// A written program called with "example" shows little (strcase's `ToCamel("example")`, python-slugify's
// `slugify("example")`, rated trivial on every fresh set); the docs usually show the input the package is for, even
// where their example does not run as a program: a literal passed to the function (`slugify("This is a test ---")`),
// or bound to the name the function's parameter has (strcase's README: `s := "AnyKind of_string"`, then a table of
// `ToSnake(s)`…). And the functions the docs call are the ones to write a program around (blackfriday's README calls
// `Run(input)`, not the `New()` a constructor-first order picks). Read from real parses (tree-sitter), any language.
import type { Ecosystem } from '../catalog/index.ts';
import { analysable, grammarOf } from './combine.ts';
import { descendants, withSyntaxTree, type Grammar, type SyntaxNode } from './parse.ts';
import type { Candidate } from './types.ts';
import { shapedText } from './programs/text-shapes.ts';

export interface DocsValues {
  /** Text the docs bind to a name (`s := "AnyKind of_string"`), first binding wins. */
  bound: Map<string, string>;
  /** Text the docs pass first to a function, by the call as written without spaces (`strcase.ToSnake`, `slugify`). */
  passed: Map<string, string>;
  /** The functions the docs' examples call: last name → what qualifies it in the call ('' when called bare). */
  called: Map<string, Set<string>>;
}

export const NO_DOCS_VALUES: DocsValues = { bound: new Map(), passed: new Map(), called: new Map() };

/** Longest text taken from the docs as an argument: a document longer than this is not a function's sample input. */
const MAX_TEXT = 400;

const STRING_TYPES = new Set(['string', 'interpreted_string_literal', 'raw_string_literal', 'string_literal', 'template_string']);
const CALL_TYPES: Partial<Record<Grammar, string[]>> = {
  python: ['call'], javascript: ['call_expression'], typescript: ['call_expression'], tsx: ['call_expression'], go: ['call_expression'], rust: ['call_expression'],
};

/**
 * The text of a plain string literal, or undefined: no interpolation (f-strings, `${}`, format args), no escapes to
 * interpret (a backslash), no bytes prefix, not empty, not longer than MAX_TEXT.
 */
export function literalText(node: SyntaxNode | null | undefined): string | undefined {
  if (!node || !STRING_TYPES.has(node.type)) return undefined;
  if (descendants(node, ['interpolation', 'template_substitution', 'escape_sequence']).length) return undefined;
  const match = /^([rRuU]?)("""|'''|["'`])([\s\S]*)\2$/.exec(node.text);
  if (!match || match[3]!.includes('\\') || !match[3]!.trim() || match[3]!.length > MAX_TEXT) return undefined;
  return match[3]!;
}

/** A callee's qualifier and last name (`strcase.ToSnake` → [strcase, ToSnake], `slugify` → ['', slugify]). */
function calleeParts(callee: SyntaxNode | null | undefined): [string, string] {
  const parts = callee?.text.replace(/\s+/g, '').split(/\.|::/) ?? [];
  const last = parts.pop()?.replace(/[^\w$].*$/, '') ?? '';
  return [parts.pop() ?? '', last];
}

/**
 * Whether the docs call `fn`: bare, or on one of the qualifiers that name the package here (`strcase` for Go,
 * the module for Python; undefined accepts any, for npm, whose docs bind the package to names of their own).
 * `errors.New(…)` in a Go example is no call of the package's `New`.
 */
export function docsCall(values: DocsValues, fn: string, qualifiers?: string[]): boolean {
  const seen = values.called.get(fn);
  return Boolean(seen && (!qualifiers || seen.has('') || qualifiers.some((q) => seen.has(q))));
}

/** Binding nodes and the name/value they bind, per grammar (only single names: `s := "…"`, `const s = "…"`). */
function bindingsIn(root: SyntaxNode): Array<[string, SyntaxNode | null]> {
  const out: Array<[string, SyntaxNode | null]> = [];
  for (const node of descendants(root, ['assignment', 'variable_declarator', 'short_var_declaration', 'var_spec', 'const_spec', 'let_declaration', 'assignment_expression'])) {
    const left = node.childForFieldName('left') ?? node.childForFieldName('name') ?? node.childForFieldName('pattern');
    const right = node.childForFieldName('right') ?? node.childForFieldName('value');
    const single = (n: SyntaxNode | null | undefined) => (n && n.type === 'expression_list' && n.namedChildCount === 1 ? n.namedChildren[0] : n);
    const name = single(left);
    if (name && /^identifier$/.test(name.type)) out.push([name.text, single(right) ?? null]);
  }
  return out;
}

function readInto(values: DocsValues, root: SyntaxNode, grammar: Grammar): void {
  const local = new Map<string, string>();
  for (const [name, value] of bindingsIn(root)) {
    const text = literalText(value);
    if (text === undefined) continue;
    if (!local.has(name)) local.set(name, text);
    if (!values.bound.has(name)) values.bound.set(name, text);
  }
  for (const call of descendants(root, CALL_TYPES[grammar] ?? [])) {
    const [qualifier, name] = calleeParts(call.childForFieldName('function') ?? call.namedChildren[0]);
    if (!name) continue;
    values.called.set(name, (values.called.get(name) ?? new Set()).add(qualifier));
    const first = call.childForFieldName('arguments')?.namedChildren.find((n) => n !== null && n.type !== 'comment');
    // A literal passed as is, or a name this block bound to one (`txt = "…"; slugify(txt)`).
    const text = literalText(first) ?? (first?.type === 'identifier' ? local.get(first.text) : undefined);
    const key = qualifier ? `${qualifier}.${name}` : name;
    if (text !== undefined && !values.passed.has(key)) values.passed.set(key, text);
  }
}

/** What the docs' own examples (not programs tooldex wrote) bind, pass and call. */
export async function docsValues(ecosystem: Ecosystem, examples: Candidate[]): Promise<DocsValues> {
  const values: DocsValues = { bound: new Map(), passed: new Map(), called: new Map() };
  for (const example of examples) {
    if (example.origin === 'api') continue;
    const grammar = grammarOf(ecosystem, example);
    if (!grammar) continue;
    try {
      await withSyntaxTree(grammar, analysable(ecosystem, example), (root) => readInto(values, root, grammar));
    } catch {
      // An example no grammar reads gives nothing; the others still do.
    }
  }
  return values;
}

/**
 * Text for a written call's string parameter, from the docs: what they pass to this function first (for its first
 * parameter; `fn` as the written program calls it, and bare), else what they bind to the parameter's name; undefined
 * when the docs show neither.
 */
export function docsOnlyText(values: DocsValues, fn: string, param: string, position: number): string | undefined {
  const bare = fn.split('.').pop()!;
  return (position === 0 ? values.passed.get(fn) ?? values.passed.get(bare) : undefined) ?? (param ? values.bound.get(param) : undefined);
}

/**
 * Text for a written call's string parameter: the docs' (docsOnlyText), else text of the format the parameter's name
 * says (`b64`, `character`, `url`: programs/text-shapes.ts), so that no builder passes "example" where the function
 * takes base64, a character or a URL; undefined when neither says anything.
 */
export function docsText(values: DocsValues, fn: string, param: string, position: number): string | undefined {
  return docsOnlyText(values, fn, param, position) ?? (param ? shapedText(param) : undefined);
}
