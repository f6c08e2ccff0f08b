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
function actualOf(operands: SyntaxNode[], calls: string[]): SyntaxNode | undefined {
  return operands.find((n) => computes(n, calls)) ?? operands[0];
}

/** A call's arguments, comments left out. */
const argumentsOf = (call: SyntaxNode) => namedChildren(call.childForFieldName('arguments') ?? call).filter((n) => n.type !== 'comment');

/** The value a JavaScript check (a call, or a `should` property chain) is about; undefined when it checks no value. */
function checkedValue(expression: SyntaxNode): SyntaxNode | undefined {
  const calls = ['call_expression', 'new_expression'];
  const callee = expression.type === 'call_expression' ? expression.childForFieldName('function') : null;
  // The console's check (`console.assert(mime.type === "text")`, whatwg-mimetype's README): of a comparison, the side
  // it computes (a call, else the operand that is no literal), as a reader wants the value, not `true`.
  if (callee?.text === 'console.assert') {
    const condition = argumentsOf(expression)[0];
    const operator = condition?.type === 'binary_expression' ? condition.childForFieldName('operator')?.text ?? '' : '';
    if (!condition || !COMPARISON.has(operator)) return condition;
    const operands = [condition.childForFieldName('left'), condition.childForFieldName('right')].filter((n): n is SyntaxNode => Boolean(n));
    return operands.find((n) => computes(n, calls)) ?? operands.find((n) => !JS_LITERAL.test(n.type)) ?? operands[0];
  }
  if (callee && ASSERT_CALL.test(callee.text)) {
    const args = argumentsOf(expression);
    return actualOf(args.slice(0, callee.text === 'assert' || /\.(ok|is[A-Z]\w*)$/.test(callee.text) ? 1 : 2), calls);
  }
  // A check through `assert` with a function Node's module lacks (tape's `assert.notOk`): it would throw, not check.
  if (lacking(callee)) return actualOf(argumentsOf(expression).slice(0, 2), calls);
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
  const edits: SourceEdit[] = [];
  for (const statement of namedChildren(root)) {
    const expression = statement.type === 'expression_statement' ? namedChildren(statement)[0] : undefined;
    if (expression?.type !== 'call_expression' && expression?.type !== 'member_expression') continue;
    const value = checkedValue(expression);
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
  const calls = ['call_expression', 'new_expression'];
  const edits: SourceEdit[] = [];
  for (const statement of descendants(root, 'expression_statement')) {
    const expression = namedChildren(statement)[0];
    if (expression?.type !== 'call_expression') continue;
    if (!lacking(expression.childForFieldName('function'))) continue;
    const value = actualOf(argumentsOf(expression).slice(0, 2), calls);
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
  const edits: SourceEdit[] = [];
  for (const statement of namedChildren(root)) {
    if (statement.type !== 'assert_statement') continue;
    let condition = namedChildren(statement)[0];
    if (condition?.type === 'not_operator') condition = condition.childForFieldName('argument') ?? condition;
    if (!condition) continue;
    let value: SyntaxNode | undefined = condition;
    if (condition.type === 'comparison_operator') {
      const operands = namedChildren(condition);
      value = operands.find((n) => computes(n, ['call'])) ?? operands.find((n) => !PYTHON_LITERAL.test(n.type)) ?? operands[0];
    }
    if (value) edits.push({ start: statement.startIndex, end: statement.endIndex, text: `print(${value.text})` });
  }
  return spliceEdits(code, edits);
}
