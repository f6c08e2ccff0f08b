// The flow the package-use check follows over a program's syntax tree (package-use.ts): from the names the package's
// imports bind, through assignments, loop and match bindings, callbacks, filled arguments, local functions and types,
// to the names whose value comes from a call into the package; which calls print (builtins, local printing helpers)
// and which calls into the package write output themselves. Scopes are not modelled: it errs toward accepting.
import type { Ecosystem } from '../catalog/index.ts';
import { descendants, type SyntaxNode } from './parse.ts';
import { argumentsOf, CALLS, calleeOf, refs } from './use-syntax.ts';

/** Calls whose arguments go to standard output, by callee text. */
export const PRINTS: Record<string, RegExp> = {
  npm: /^(console\.(log|info|dir|table|debug|warn|error)|process\.stdout\.write)$/,
  pypi: /^(print|pprint|pp|pprint\.pprint|pprint\.pp|sys\.stdout\.write)$/,
  crates: /^(println|print|dbg|writeln|write)$/,
  go: /^(fmt\.(Print|Println|Printf|Fprint|Fprintln|Fprintf)|log\.(Print|Println|Printf|Fatal|Fatalf|Fatalln)|println|print|os\.Stdout\.Write(String)?)$/,
};
/** The last name of a call into the package that writes output itself. */
export const OUTPUT_VERBS = /^(print\w*|pp|pprint|write\w*|render\w*|display|show|dump|echo|log|info|debug|warn|warning|error|critical|fatal\w*|emit|flush|inspect)$/i;

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
export class Flow {
  readonly derived = new Set<string>();
  /** Closures and local functions handed to a call into the package (by value or by name): the package runs them. */
  private readonly callbacks = new Set<number>();
  constructor(readonly bindings: Set<string>, readonly ecosystem: Ecosystem) {}

  /**
   * Whether `node` lies in a callback the package runs (`pool.Submit(func() { fmt.Printf("task %d", n) })`, a
   * worker function handed by name): what it prints is printed because the package called it.
   */
  inCallback(node: SyntaxNode): boolean {
    for (let up = node.parent; up; up = up.parent) if (this.callbacks.has(up.id)) return true;
    return false;
  }

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
        this.callbacks.add(closure.id);
        grew = this.add(paramsOf(closure)) || grew;
      }
      // What a call into the package is handed by reference may be filled by it (`pkg.Decode(&out)`); a local
      // function handed to it by name is called back with the package's values (`matcher('*', { onIgnore })`).
      for (const call of calls) {
        if (!this.intoPackage(call)) continue;
        const args = call.childForFieldName('arguments');
        if (!args) continue;
        grew = this.add(args.namedChildren.filter((a): a is SyntaxNode => a !== null).flatMap((a) => (/^(identifier|unary_expression|reference_expression)$/.test(a.type) ? refs(a) : []))) || grew;
        for (const name of refs(args)) for (const fn of named.get(name) ?? []) { this.callbacks.add(fn.id); grew = this.add(paramsOf(fn)) || grew; }
      }
      // Any other call handed one of the package's values and a reference (`atomic.AddInt32(&sum, i)` in a worker
      // the package calls with i, `hasher.update(&mut out, v)`): what the reference points to is filled from that value.
      for (const call of calls) {
        const args = call.childForFieldName('arguments');
        if (!args || this.intoPackage(call)) continue;
        const given = args.namedChildren.filter((a): a is SyntaxNode => a !== null);
        const byReference = given.filter((a) => (a.type === 'unary_expression' && a.text.startsWith('&')) || a.type === 'reference_expression');
        if (!byReference.length || !given.some((a) => !byReference.includes(a) && this.fromPackage(a))) continue;
        grew = this.add(byReference.flatMap(refs)) || grew;
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
export function printingHelpers(root: SyntaxNode, ecosystem: Ecosystem, prints: (call: SyntaxNode) => boolean): Set<string> {
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
