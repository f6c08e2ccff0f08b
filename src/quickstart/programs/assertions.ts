// Examples written as checks: `assert.equal('Int8Array', whichTypedArray(new Int8Array()))`, `expect(x).to.equal(6)`,
// `console.assert(mime.type === "text")`, `val.should.equal('hello')`, Python's `assert is_generic_type(Mapping)`. A check prints nothing, so such an example
// ran silent, printed only the `undefined` each check returns once the silent-program fallback wrapped it in
// console.log, or threw where the `should` chain was never installed. Its reader meets the value the check is about:
// each top-level check becomes a print of that value (the side that computes something), and the check itself goes
// (what the version computes is what the run verifies; a check against another version's value would fail it).
// Read from the syntax tree (tree-sitter); the callers apply it only to examples that print nothing of their own.
import nodeAssert from 'node:assert';
import { descendants, namedChildren, parseCode, type Grammar, type SyntaxNode } from '../parse.ts';
import { spliceEdits, type SourceEdit } from './source-edits.ts';

/** Node's and chai's assert functions that check a value (not `throws`, `rejects`, `fail`: no value to show). */
const ASSERT_CALL = /^assert(\.(ok|equal|strictEqual|deepEqual|deepStrictEqual|notEqual|notStrictEqual|notDeepEqual|notDeepStrictEqual|match|doesNotMatch|is[A-Z]\w*|include|lengthOf|typeOf|instanceOf|sameMembers|property))?$/;
/** Assertion libraries: their own examples are about the check, so they are left as they are. */
const ASSERTION_LIBRARY = /^(node:)?(assert|chai|should|expect|power-assert|unexpected|uvu|tape|tap|ava|vitest|jest|@jest\/.*)$/;

const COMPARISON = new Set(['===', '==', '!==', '!=', '<', '>', '<=', '>=']);
const JS_LITERAL = /^(string|number|true|false|null|undefined|template_string|regex)$/;

/** Whether `node` computes something (a call or `new`), not only spells out an expected value. */
function computes(node: SyntaxNode, calls: string[]): boolean {
  return descendants(node, calls).length > 0;
}

/** Of a check's operands, the one the example computes (the first that does, else the first). */
function actualOf(operands: SyntaxNode[], calls: string[], computed = new Set<string>()): SyntaxNode | undefined {
  return operands.find((n) => readsComputed(n, computed)) ?? operands.find((n) => computes(n, calls)) ?? operands[0];
}

/** The syntax of bindings per language: where a name gets a value, and which nodes hold a scope of their own. */
const BINDINGS = {
  python: { assign: ['assignment', 'augmented_assignment'], left: 'left', right: 'right', loops: ['for_statement', 'for_in_clause'], aliases: ['as_pattern_target'], scopes: ['function_definition', 'class_definition', 'lambda'], calls: ['call', 'await'], fenced: ['attribute', 'subscript', 'keyword_argument'] },
  javascript: { assign: ['variable_declarator', 'assignment_expression', 'augmented_assignment_expression'], left: 'name', right: 'value', loops: ['for_in_statement'], aliases: [], scopes: ['function_declaration', 'arrow_function', 'function_expression', 'method_definition', 'class_body'], calls: ['call_expression', 'new_expression', 'await_expression'], fenced: ['member_expression', 'subscript_expression', 'pair'] },
} as const;

/**
 * The names an example binds to a value it computed, outside any function: assigned from an expression that calls
 * something or reads such a name (`result = from_dict(B, data)`, `const map = toEncodedMap(m)`), or bound by a loop or
 * a `with … as`. A check comparing such a name with a value written out (`assert result == B(a=A(x='test'))`, the
 * expected value, which constructs something too) is about the name: the package computed it, the other side is what
 * the README says it should be. Names assigned a literal (`expected = {...}`) or a module (`require('lib')`) stay out.
 */
export function computedNames(root: SyntaxNode, language: keyof typeof BINDINGS): Set<string> {
  const syntax = BINDINGS[language];
  const names = new Set<string>();
  const inScope = (node: SyntaxNode) => { for (let p = node.parent; p; p = p.parent) if ((syntax.scopes as readonly string[]).includes(p.type)) return true; return false; };
  // The names a target binds: itself, or those in its pattern (`a, b = …`), not an attribute's or a subscript's.
  const targets = (node: SyntaxNode | null) => (node ? unique([node, ...descendants(node, 'identifier')]) : [])
    .filter((n) => n.type === 'identifier' && (same(n, node!) || !(syntax.fenced as readonly string[]).includes(n.parent?.type ?? '')));
  const nodes = descendants(root, [...syntax.assign, ...syntax.loops, ...syntax.aliases]).filter((n) => !inScope(n)).sort((a, b) => a.startIndex - b.startIndex);
  for (const node of nodes) {
    if ((syntax.aliases as readonly string[]).includes(node.type)) { for (const id of targets(node)) names.add(id.text); continue; }
    if ((syntax.loops as readonly string[]).includes(node.type)) { for (const id of targets(node.childForFieldName('left'))) names.add(id.text); continue; }
    const value = node.childForFieldName(syntax.right);
    const left = node.childForFieldName(syntax.left) ?? node.childForFieldName('left');
    // A module loaded (`const lib = require('lib')`) is the package, not a value computed with it.
    if (!value || /^(await\s+)?(require|import)\s*\(/.test(value.text)) continue;
    if (computes(value, [...syntax.calls]) || readsComputed(value, names)) for (const id of targets(left)) names.add(id.text);
  }
  return names;
}

/** Whether `node` reads one of the `computed` names (as a name, not as an attribute, a property or a keyword). */
function readsComputed(node: SyntaxNode, computed: Set<string>): boolean {
  if (!computed.size) return false;
  const field = (n: SyntaxNode, name: string) => { const f = n.parent?.childForFieldName(name); return Boolean(f && same(f, n)); };
  return unique([node, ...descendants(node, 'identifier')]).some((n) => n.type === 'identifier' && computed.has(n.text)
    && !(n.parent?.type === 'attribute' && field(n, 'attribute'))
    && !(n.parent?.type === 'member_expression' && field(n, 'property'))
    && !(n.parent?.type === 'keyword_argument' && field(n, 'name')));
}

const same = (a: SyntaxNode, b: SyntaxNode) => a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
const unique = (nodes: SyntaxNode[]) => nodes.filter((n, i) => nodes.findIndex((m) => same(m, n)) === i);

/** A call's arguments, comments left out. */
const argumentsOf = (call: SyntaxNode) => namedChildren(call.childForFieldName('arguments') ?? call).filter((n) => n.type !== 'comment');

/** The value a JavaScript check (a call, or a `should` property chain) is about; undefined when it checks no value. */
function checkedValue(expression: SyntaxNode, computed = new Set<string>()): SyntaxNode | undefined {
  const calls = ['call_expression', 'new_expression'];
  const callee = expression.type === 'call_expression' ? expression.childForFieldName('function') : null;
  // The console's check (`console.assert(mime.type === "text")`, whatwg-mimetype's README): of a comparison, the side
  // it computes (a call, else the operand that is no literal), as a reader wants the value, not `true`.
  if (callee?.text === 'console.assert') {
    const condition = argumentsOf(expression)[0];
    const operator = condition?.type === 'binary_expression' ? condition.childForFieldName('operator')?.text ?? '' : '';
    if (!condition || !COMPARISON.has(operator)) return condition;
    const operands = [condition.childForFieldName('left'), condition.childForFieldName('right')].filter((n): n is SyntaxNode => Boolean(n));
    return operands.find((n) => readsComputed(n, computed)) ?? operands.find((n) => computes(n, calls)) ?? operands.find((n) => !JS_LITERAL.test(n.type)) ?? operands[0];
  }
  if (callee && ASSERT_CALL.test(callee.text)) {
    const args = argumentsOf(expression);
    return actualOf(args.slice(0, callee.text === 'assert' || /\.(ok|is[A-Z]\w*)$/.test(callee.text) ? 1 : 2), calls, computed);
  }
  // A check through `assert` with a function Node's module lacks (tape's `assert.notOk`): it would throw, not check.
  if (lacking(callee)) return actualOf(argumentsOf(expression).slice(0, 2), calls, computed);
  // A chain: `expect(x).to.equal(y)` / `expect(x).toBe(y)` checks x; `x.should.equal(y)`, `x.should.be.false` check x.
  for (let node: SyntaxNode | null = callee ?? (expression.type === 'member_expression' ? expression : null); node;) {
    if (node.type === 'member_expression') {
      const object = node.childForFieldName('object');
      if (node.childForFieldName('property')?.text === 'should') return object ?? undefined;
      node = object;
    } else if (node.type === 'call_expression') {
      const fn = node.childForFieldName('function');
      if (fn?.type === 'identifier' && fn.text === 'expect') return namedChildren(node.childForFieldName('arguments') ?? node)[0];
      node = fn;
    } else return undefined;
  }
  return undefined;
}

/**
 * Each top-level check of a JavaScript/TypeScript example as `show(value)` (console.log, or node-files.ts's exit
 * printer). The package `name` itself being an assertion library leaves its examples alone.
 */
export async function showNodeAssertions(code: string, grammar: Grammar, name = '', show = 'console.log'): Promise<string> {
  if (ASSERTION_LIBRARY.test(name)) return code;
  const root = await parseCode(grammar, code);
  const computed = computedNames(root, 'javascript');
  const edits: SourceEdit[] = [];
  for (const statement of namedChildren(root)) {
    const expression = statement.type === 'expression_statement' ? namedChildren(statement)[0] : undefined;
    if (expression?.type !== 'call_expression' && expression?.type !== 'member_expression') continue;
    const value = checkedValue(expression, computed);
    if (value) edits.push({ start: expression.startIndex, end: expression.endIndex, text: `${show}(${value.text})` });
  }
  const out = spliceEdits(code, edits);
  return edits.length ? dropUnusedAssertImport(out, grammar) : out;
}

/**
 * Whether Node's own `assert` module has this function: read from the running Node's module, not from a list, so
 * that a check written for another library's `assert` (tape's and chai's `notOk`, `isTrue`, `isFalse`) is known to
 * throw "assert.notOk is not a function" under Node.
 */
export function nodeAssertHas(method: string): boolean {
  return Object.hasOwn(nodeAssert, method) && typeof (nodeAssert as unknown as Record<string, unknown>)[method] === 'function';
}

/** The method of an `assert.<method>` callee when Node's assert module lacks it; undefined otherwise. */
function lacking(callee: SyntaxNode | null): string | undefined {
  if (callee?.type !== 'member_expression') return undefined;
  const object = callee.childForFieldName('object');
  const method = callee.childForFieldName('property')?.text;
  return object?.type === 'identifier' && object.text === 'assert' && method && !nodeAssertHas(method) ? method : undefined;
}

/**
 * Checks an example makes through Node's `assert` (imported or required as `assert`) with a function Node's module
 * does not have (is-regex's and is-string's READMEs: `assert.notOk(isRegex(undefined))`, tape's name): each such call
 * throws before the example's own prints run, so the run fails. Each becomes `show(value)`, the value being the
 * argument it checks (the first of its first two that computes something, else the first), wherever it stands as a
 * statement; the checks Node has are left as they are, and so is an example that prints nothing (showNodeAssertions
 * rewrites all of its checks, these too). The package `name` itself being an assertion library leaves its examples alone.
 */
export async function showChecksNodeLacks(code: string, grammar: Grammar, name = '', show = 'console.log'): Promise<string> {
  if (ASSERTION_LIBRARY.test(name)) return code;
  const root = await parseCode(grammar, code);
  if (!namedChildren(root).some((st) => ASSERT_IMPORT.test(st.text))) return code;
  const computed = computedNames(root, 'javascript');
  const calls = ['call_expression', 'new_expression'];
  const edits: SourceEdit[] = [];
  for (const statement of descendants(root, 'expression_statement')) {
    const expression = namedChildren(statement)[0];
    if (expression?.type !== 'call_expression') continue;
    if (!lacking(expression.childForFieldName('function'))) continue;
    const value = actualOf(argumentsOf(expression).slice(0, 2), calls, computed);
    if (value) edits.push({ start: expression.startIndex, end: expression.endIndex, text: `${show}(${value.text})` });
  }
  const out = spliceEdits(code, edits);
  return edits.length ? dropUnusedAssertImport(out, grammar) : out;
}

/** Node's assert module imported or required (`import assert from 'node:assert'`, `var assert = require('assert')`). */
const ASSERT_IMPORT = /^\s*(import\s+(\*\s+as\s+)?assert\s+from\s+|(const|let|var)\s+assert\s*=\s*require\s*\(\s*)['"](node:)?assert(\/strict)?['"]\s*\)?;?[ \t]*$/;

/** The assert import line, dropped once no check is left to use it (a reader would wonder what it is for). */
async function dropUnusedAssertImport(code: string, grammar: Grammar): Promise<string> {
  const root = await parseCode(grammar, code);
  const statement = namedChildren(root).find((st) => ASSERT_IMPORT.test(st.text));
  if (!statement) return code;
  const used = descendants(root, 'identifier').some((id) => id.text === 'assert' && !(id.startIndex >= statement.startIndex && id.endIndex <= statement.endIndex));
  return used ? code : code.slice(0, statement.startIndex) + code.slice(statement.endIndex).replace(/^[ \t]*\n/, '');
}

const PYTHON_LITERAL = /^(string|concatenated_string|integer|float|true|false|none)$/;

/** Each top-level `assert` of a Python script as `print(value)`, the value being the side of the check it computes. */
export async function showPythonAssertions(code: string): Promise<string> {
  const root = await parseCode('python', code);
  const computed = computedNames(root, 'python');
  const edits: SourceEdit[] = [];
  for (const statement of namedChildren(root)) {
    if (statement.type !== 'assert_statement') continue;
    let condition = namedChildren(statement)[0];
    if (condition?.type === 'not_operator') condition = condition.childForFieldName('argument') ?? condition;
    if (!condition) continue;
    let value: SyntaxNode | undefined = condition;
    if (condition.type === 'comparison_operator') {
      const operands = namedChildren(condition);
      value = operands.find((n) => readsComputed(n, computed)) ?? operands.find((n) => computes(n, ['call'])) ?? operands.find((n) => !PYTHON_LITERAL.test(n.type)) ?? operands[0];
    }
    if (value) edits.push({ start: statement.startIndex, end: statement.endIndex, text: `print(${value.text})` });
  }
  return spliceEdits(code, edits);
}
