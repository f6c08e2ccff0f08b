// Whether a program that ran shows the package at work: it imports the package, and what it prints depends on a call
// into it. A program can run and print without that (a README line that prints a URI literal, a Go block that prints
// zero-value local structs, a local copy of the package's settings type): such a run proves nothing about the package,
// so verification does not count it (verify.ts). Decided on the program's syntax tree (tree-sitter, parse.ts), per
// language, by a small flow analysis:
//   - bindings: the names the program's imports of the package bind (`import x`, `from p import A`, `use p::A`,
//     `const {A} = require('p')`, a Go import's package name or alias);
//   - derived: names whose value comes from a call into the package (`x = p.parse(s)`), transitively (`y = x.year`),
//     and the loop, match and callback parameters fed by them; local functions whose body calls into the package and
//     local types built by the package (a Python class with a package base, a Rust type with a package derive);
//   - a print (console.log, print, println!, fmt.Println, a local helper that prints its parameters) whose arguments
//     hold a derived name or a call into the package, or a call into the package that writes output itself
//     (`table.Render()`, `logger.info(…)`).
// Imports that bind nothing (a side-effect import, a Go blank import registering a driver) and wildcard imports
// (`from p import *`, `use p::prelude::*`, a Go dot import) cannot be followed by name: they are accepted. Scopes are
// not modelled (a name derived anywhere counts everywhere): the analysis errs toward accepting, so that only programs
// that plainly never reach the package are turned away.
import type { Ecosystem } from '../catalog/index.ts';
import { descendants, withSyntaxTree, type Grammar, type SyntaxNode } from './parse.ts';

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

/** Why a program was turned away, as a code callers compare (the `why` text is for people and may change). */
export type PackageUseRefusal = 'never_imports' | 'no_output_from_package';
/**
 * `uses`: the strong verdict (what it prints depends on a call into the package). `weak`, only when `uses` is false:
 * why the program still shows the package at work in a lesser way (it prints a value read from one of the package's
 * bindings, or it calls into the package and then prints a computed value: a side effect shown through the standard
 * library). Verification counts a weak use only when no candidate reaches a strong one (verify.ts).
 */
export interface PackageUse { uses: boolean; why: string; refusal?: PackageUseRefusal; weak?: string }
export const NEVER_IMPORTS = 'it never imports the package';

const GRAMMAR: Partial<Record<Ecosystem, Grammar>> = { npm: 'typescript', pypi: 'python', crates: 'rust', go: 'go' };

/** The grammar a program is read with: npm JSX programs (`.tsx`/`.jsx`, as they run) need the tsx grammar, whose
 * `<Tag>` is an element where the typescript grammar reads a type assertion and loses the rest of the file. */
function grammarFor(ecosystem: Ecosystem, path: string | undefined): Grammar | undefined {
  if (ecosystem === 'npm' && path && /\.[jt]sx$/i.test(path)) return 'tsx';
  return GRAMMAR[ecosystem];
}

const CALLS = ['call_expression', 'call', 'new_expression', 'macro_invocation'];
const IDENTIFIERS = ['identifier', 'type_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern', 'shorthand_field_identifier'];
/** Calls whose arguments go to standard output, by callee text. */
const PRINTS: Record<string, RegExp> = {
  npm: /^(console\.(log|info|dir|table|debug|warn|error)|process\.stdout\.write)$/,
  pypi: /^(print|pprint|pp|pprint\.pprint|pprint\.pp|sys\.stdout\.write)$/,
  crates: /^(println|print|dbg|writeln|write)$/,
  go: /^(fmt\.(Print|Println|Printf|Fprint|Fprintln|Fprintf)|log\.(Print|Println|Printf|Fatal|Fatalf|Fatalln)|println|print|os\.Stdout\.Write(String)?)$/,
};
/** The last name of a call into the package that writes output itself. */
const OUTPUT_VERBS = /^(print\w*|pp|pprint|write\w*|render\w*|display|show|dump|echo|log|info|debug|warn|warning|error|critical|fatal\w*|emit|flush|inspect)$/i;

const strip = (s: string) => s.replace(/^[rbfu]*["'`]+|["'`]+$/gi, '');

/** The package's imports: names they bind, and whether any binds nothing or everything (then names cannot be followed). */
function importsOf(root: SyntaxNode, ref: PackageRef): { bindings: Set<string>; imported: boolean; opaque?: string } {
  const bindings = new Set<string>();
  let imported = false;
  let opaque: string | undefined;
  const pyRoots = [ref.importName.split('.')[0]!, ...(ref.pyModules ?? [])];
  const own = (source: string) => {
    switch (ref.ecosystem) {
      case 'npm': return source === ref.name || source.startsWith(`${ref.name}/`);
      case 'pypi': return pyRoots.some((rootName) => source === rootName || source.startsWith(`${rootName}.`));
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

/** The names a binding construct defines, with the expression its value comes from. */
function bindingsOf(node: SyntaxNode): Array<{ targets: SyntaxNode; value: SyntaxNode }> {
  const field = (name: string) => node.childForFieldName(name);
  const pair = (t: SyntaxNode | null, v: SyntaxNode | null) => (t && v ? [{ targets: t, value: v }] : []);
  switch (node.type) {
    case 'variable_declarator': return pair(field('name'), field('value'));
    case 'assignment_expression': case 'augmented_assignment_expression': case 'assignment': case 'augmented_assignment':
      return pair(field('left'), field('right'));
    case 'for_in_statement': case 'for_statement': return pair(field('left'), field('right'));
    case 'for_expression': case 'let_declaration': case 'let_condition': return pair(field('pattern'), field('value'));
    case 'as_pattern': return pair(field('alias'), node.namedChildren[0] ?? null);
    case 'named_expression': return pair(field('name'), field('value'));
    case 'short_var_declaration': case 'assignment_statement': case 'range_clause': return pair(field('left'), field('right'));
    case 'var_spec': case 'const_spec': return pair(field('name'), field('value'));
    case 'match_expression': {
      const value = field('value');
      return value ? descendants(node, 'match_pattern').filter((p) => p.parent?.parent?.parent?.id === node.id).map((p) => ({ targets: p, value })) : [];
    }
    default: return [];
  }
}
const BINDING_TYPES = ['variable_declarator', 'assignment_expression', 'augmented_assignment_expression', 'assignment', 'augmented_assignment',
  'for_in_statement', 'for_statement', 'for_expression', 'let_declaration', 'let_condition', 'as_pattern', 'named_expression',
  'short_var_declaration', 'assignment_statement', 'range_clause', 'var_spec', 'const_spec', 'match_expression'];
const FUNCTIONS = ['function_declaration', 'function_definition', 'function_item', 'method_declaration', 'method_definition', 'class_declaration', 'class_definition',
  'struct_item', 'enum_item', 'type_declaration'];
const CLOSURES = ['arrow_function', 'function_expression', 'function', 'lambda', 'closure_expression', 'func_literal'];
const PARAMS = ['parameters', 'formal_parameters', 'lambda_parameters', 'closure_parameters', 'parameter_list'];

/** Identifiers a node refers to (not field or property names: `x.year` refers to x only). */
function refs(node: SyntaxNode): string[] {
  return descendants(node, IDENTIFIERS).filter((id) => !(id.parent?.type === 'attribute' && id.parent.childForFieldName('attribute')?.id === id.id)).map((id) => id.text);
}

function calleeOf(call: SyntaxNode): SyntaxNode | null {
  return call.childForFieldName('function') ?? call.childForFieldName('constructor') ?? call.childForFieldName('macro');
}

class Flow {
  readonly derived = new Set<string>();
  constructor(readonly bindings: Set<string>, readonly ecosystem: Ecosystem) {}

  /** A call into the package: its callee names a binding or a derived name. */
  intoPackage(call: SyntaxNode): boolean {
    const callee = calleeOf(call);
    return Boolean(callee && refs(callee).some((n) => this.bindings.has(n) || this.derived.has(n)));
  }

  /** Whether the value of `node` comes from the package: it holds a derived name or a call into the package. */
  fromPackage(node: SyntaxNode): boolean {
    if (refs(node).some((n) => this.derived.has(n))) return true;
    if ([node, ...descendants(node, CALLS)].some((c) => CALLS.includes(c.type) && this.intoPackage(c))) return true;
    // Rust macro arguments are tokens, not expressions: a bound name followed by a call's parentheses, or a derived
    // name, inside them (`println!("{:?}", Foo::new(1))`); an inline format capture (`"{x}"`) names a variable.
    for (const tree of node.type === 'token_tree' ? [node] : descendants(node, 'token_tree')) {
      const tokens = tree.children.filter((t): t is SyntaxNode => t !== null);
      for (const [i, t] of tokens.entries()) {
        if (t.type === 'identifier' && this.bindings.has(t.text) && tokens.slice(i + 1).some((n) => n.type === 'token_tree' && n.text.startsWith('('))) return true;
        if (t.type === 'string_literal' && [...t.text.matchAll(/\{([A-Za-z_]\w*)[}:]/g)].some((m) => this.derived.has(m[1]!))) return true;
      }
    }
    return false;
  }

  /**
   * Whether `value` is the package itself under another name: a binding, or member reads of one, with no call
   * (`const { RRule } = rrule`, `const a = pkg.a`, `np = numpy`). Its targets are more of the package's bindings, not
   * derived names: printing them prints a constant read, which still needs a call to count.
   */
  aliasOf(value: SyntaxNode): boolean {
    let node: SyntaxNode | null = value;
    while (node) {
      switch (node.type) {
        case 'identifier': case 'type_identifier': return this.bindings.has(node.text);
        case 'member_expression': case 'attribute': case 'subscript_expression': node = node.childForFieldName('object'); break;
        case 'selector_expression': node = node.childForFieldName('operand'); break;
        case 'scoped_identifier': case 'scoped_type_identifier': node = node.childForFieldName('path'); break;
        case 'parenthesized_expression': case 'non_null_expression': case 'as_expression': case 'satisfies_expression': node = node.namedChildren[0] ?? null; break;
        default: return false;
      }
    }
    return false;
  }

  private addBindings(names: Iterable<string>): boolean {
    let grew = false;
    for (const n of names) if (!this.bindings.has(n) && !this.derived.has(n)) { this.bindings.add(n); grew = true; }
    return grew;
  }

  private add(names: Iterable<string>): boolean {
    let grew = false;
    for (const n of names) if (!this.derived.has(n) && !this.bindings.has(n)) { this.derived.add(n); grew = true; }
    return grew;
  }

  /** Grow the derived names until nothing changes. */
  run(root: SyntaxNode): void {
    const constructs = descendants(root, BINDING_TYPES);
    const functions = descendants(root, FUNCTIONS);
    const closures = descendants(root, CLOSURES);
    const calls = descendants(root, CALLS);
    // Local functions by name: declared, or a closure bound to a name.
    const named = new Map<string, SyntaxNode[]>();
    for (const fn of [...functions, ...closures]) {
      const name = fn.childForFieldName('name') ?? (fn.parent?.type === 'variable_declarator' || fn.parent?.type === 'let_declaration' ? fn.parent.childForFieldName('name') ?? fn.parent.childForFieldName('pattern') : null);
      if (name) named.set(name.text, [...(named.get(name.text) ?? []), fn]);
    }
    for (let round = 0; round < 20; round++) {
      let grew = false;
      for (const node of constructs) {
        for (const { targets, value } of bindingsOf(node)) {
          // Loop and match targets take the package's values, never the package itself.
          if (/^(variable_declarator|assignment_expression|assignment|let_declaration|short_var_declaration|assignment_statement|var_spec|const_spec)$/.test(node.type) && this.aliasOf(value)) grew = this.addBindings(refs(targets)) || grew;
          else if (this.fromPackage(value)) grew = this.add(refs(targets)) || grew;
        }
      }
      for (const fn of functions) {
        const name = fn.childForFieldName('name');
        if (!name || this.derived.has(name.text)) continue;
        // The declaration with its attributes (Rust derives precede the item) and decorators (the parent).
        const attrs = [fn.parent?.type === 'decorated_definition' ? fn.parent : null, ...precedingAttributes(fn)].filter((n): n is SyntaxNode => n !== null);
        const heritage = [fn.childForFieldName('superclasses'), ...fn.namedChildren.filter((c) => c?.type === 'class_heritage')].filter((n): n is SyntaxNode => n !== null);
        const body = fn.childForFieldName('body');
        if ((body && this.fromPackage(body)) || [...attrs, ...heritage].some((n) => refs(n).some((r) => this.bindings.has(r) || this.derived.has(r)))) grew = this.add([name.text]) || grew;
      }
      // `impl Trait for Type` with the package's trait: the type's behaviour is the package's.
      for (const impl of descendants(root, 'impl_item')) {
        const trait = impl.childForFieldName('trait');
        const type = impl.childForFieldName('type');
        if (trait && type && refs(trait).some((r) => this.bindings.has(r))) grew = this.add(refs(type)) || grew;
      }
      // A callback handed to a call into the package gets the package's values (`diff.forEach((part) => …)`).
      // Also one inside an options object (`applyPatches(p, { complete: (err) => … })`).
      for (const closure of closures) {
        const call = enclosingCall(closure);
        if (!call || !(this.intoPackage(call) || this.fromPackage(calleeOf(call) ?? call))) continue;
        grew = this.add(paramsOf(closure)) || grew;
      }
      // What a call into the package is handed by reference may be filled by it (`pkg.Decode(&out)`); a local
      // function handed to it by name is called back with the package's values (`matcher('*', { onIgnore })`).
      for (const call of calls) {
        if (!this.intoPackage(call)) continue;
        const args = call.childForFieldName('arguments');
        if (!args) continue;
        grew = this.add(args.namedChildren.filter((a): a is SyntaxNode => a !== null).flatMap((a) => (/^(identifier|unary_expression|reference_expression)$/.test(a.type) ? refs(a) : []))) || grew;
        for (const name of refs(args)) for (const fn of named.get(name) ?? []) grew = this.add(paramsOf(fn)) || grew;
      }
      if (!grew) break;
    }
  }
}

/** The call whose arguments hold `node` (through option objects, arrays and pairs), if any. */
function enclosingCall(node: SyntaxNode): SyntaxNode | undefined {
  let child = node;
  for (let up = node.parent; up; child = up, up = up.parent) {
    if (CALLS.includes(up.type)) return calleeOf(up)?.id === child.id ? undefined : up;
    if (!/^(arguments|argument_list|object|pair|array|list|dictionary|keyword_argument|tuple|parenthesized_expression|await_expression|token_tree)$/.test(up.type)) return undefined;
  }
  return undefined;
}

function paramsOf(fn: SyntaxNode): string[] {
  const params = fn.childForFieldName('parameters') ?? fn.namedChildren.find((c) => c && PARAMS.includes(c.type)) ?? null;
  if (params) return refs(params).filter((n) => !/^(int|string|bool|any|error|float64|byte)$/.test(n));
  const one = fn.childForFieldName('parameter');
  return one ? [one.text] : [];
}

/** Rust attributes (`#[derive(Serialize)]`) are the item's preceding siblings. */
function precedingAttributes(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let s = node.previousNamedSibling; s && /^(attribute_item|line_comment|block_comment)$/.test(s.type); s = s.previousNamedSibling) if (s.type === 'attribute_item') out.push(s);
  return out;
}

/** Local functions that print their parameters (`printValue(vs ...any) { fmt.Println(vs...) }`): prints, by name. */
function printingHelpers(root: SyntaxNode, ecosystem: Ecosystem, prints: (call: SyntaxNode) => boolean): Set<string> {
  const helpers = new Set<string>();
  for (const fn of descendants(root, ['function_declaration', 'function_definition', 'function_item'])) {
    const name = fn.childForFieldName('name');
    const params = fn.childForFieldName('parameters');
    const body = fn.childForFieldName('body');
    if (!name || !params || !body) continue;
    const flow = new Flow(new Set(), ecosystem);
    for (const p of refs(params)) flow.derived.add(p);
    flow.run(body);
    if (descendants(body, CALLS).some((c) => prints(c) && argumentsOf(c).some((a) => flow.fromPackage(a)))) helpers.add(name.text);
  }
  return helpers;
}

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments') ?? call.namedChildren.find((c) => c?.type === 'token_tree') ?? null;
  return args ? [args] : [];
}

/** Whether `program` imports the package and prints something that depends on a call into it. */
export async function programUsesPackage(program: string, ref: PackageRef, path?: string): Promise<PackageUse> {
  const grammar = grammarFor(ref.ecosystem, path);
  if (!grammar) return { uses: true, why: 'no parser for this ecosystem' };
  return withSyntaxTree(grammar, program, (root) => {
    const { bindings, imported, opaque } = importsOf(root, ref);
    if (!imported && !(ref.ecosystem === 'crates' && refs(root).includes(ref.importName))) return { uses: false, why: NEVER_IMPORTS, refusal: 'never_imports' };
    if (opaque) return { uses: true, why: `imports the package through ${opaque}` };
    // Rust: a name brought in by `use` and never named again is a trait imported for its methods (`use p::Reference;`
    // then `d.duration_since(…)`): which calls are the trait's cannot be told without the crate's API.
    if (ref.ecosystem === 'crates') {
      const named = refs(root);
      const trait = [...bindings].find((b) => b !== ref.importName && named.filter((n) => n === b).length === 1);
      if (trait) return { uses: true, why: `imports ${trait}, named nowhere else (a trait's methods)` };
    }
    const flow = new Flow(bindings, ref.ecosystem);
    flow.run(root);
    const printsBuiltin = (call: SyntaxNode) => PRINTS[ref.ecosystem]!.test(calleeOf(call)?.text ?? '');
    const helpers = printingHelpers(root, ref.ecosystem, printsBuiltin);
    for (const call of descendants(root, CALLS)) {
      const callee = calleeOf(call)?.text ?? '';
      if (printsBuiltin(call) || helpers.has(callee)) {
        if (argumentsOf(call).some((a) => flow.fromPackage(a))) return { uses: true, why: `prints a value from the package (${callee})` };
        continue;
      }
      const last = callee.split(/\.|::/).pop() ?? '';
      if (OUTPUT_VERBS.test(last) && flow.intoPackage(call)) return { uses: true, why: `the package writes the output (${callee})` };
    }
    const weak = weakUse(root, flow, (call) => printsBuiltin(call) || helpers.has(calleeOf(call)?.text ?? ''));
    return { uses: false, why: 'nothing it prints comes from a call into the package', refusal: 'no_output_from_package', ...(weak ? { weak } : {}) };
  });
}

/**
 * The weak tier, for packages whose main export is a value (a boolean, a data table, a colour map) and APIs used for
 * their side effect (copy a directory, write a file, load settings into the environment), whose docs hold no program
 * that prints a call's result. Either a print holds one of the package's bindings (the binding itself or a member read
 * of it: `console.log(isCI)`, `signalsByName.SIGINT`), or a call into the package comes before a print of a computed
 * value (not only literals: `print('done')` after the call shows nothing of it).
 */
function weakUse(root: SyntaxNode, flow: Flow, prints: (call: SyntaxNode) => boolean): string | undefined {
  const calls = descendants(root, CALLS);
  const printed = calls.filter(prints);
  for (const call of printed) {
    const read = argumentsOf(call).flatMap(refs).find((n) => flow.bindings.has(n));
    if (read) return `it prints a value read from the package (${read}) rather than a call's result`;
  }
  const first = calls.find((c) => !prints(c) && flow.intoPackage(c));
  if (!first) return undefined;
  const computed = printed.find((p) => p.startIndex > first.endIndex && argumentsOf(p).some(computedValue));
  return computed ? `it calls into the package (${calleeOf(first)?.text}) and then shows the effect (${calleeOf(computed)?.text})` : undefined;
}

/** Whether an argument list holds something computed: a name or a call, not only literals. */
function computedValue(args: SyntaxNode): boolean {
  return refs(args).length > 0 || descendants(args, CALLS).length > 0;
}
