// Rust examples written as checks: rustdoc shows a doctest's result by asserting it (`assert_eq!(n + 1, 8)`,
// `assert!(a.approx_eq(b, (0.0, 2)))`, `assert!(goku.level > 9000)`), often inside a function the hidden `fn main`
// calls (`# fn doctest() -> Result<…> { … } # fn main() { doctest(); }`). A check prints nothing, so such a program ran
// silent and was refused, or its reader saw none of what the package computed. Each check prints the value it is about:
// `assert_eq!`/`assert_ne!` print their left side and still check it; `assert!` prints its condition's computed side
// (an operand of a comparison that calls something, the negated value, else the whole condition) in place of the check
// (what this version computes is what the run shows). Read from the syntax tree: macro arguments are token trees, so
// an `assert!`'s condition is parsed again as an expression. Checks inside `#[test]` functions stay as they are.
import { descendants, namedChildren, parseCode, type SyntaxNode } from '../parse.ts';
import { spliceEdits } from './source-edits.ts';

const COMPARISON = new Set(['==', '!=', '<', '>', '<=', '>=']);
const LITERAL = /literal$|^(true|false|negative_literal)$/;
/** What computes a value in a Rust expression: a call (method calls are calls of a field expression) or a macro. */
const CALLS = ['call_expression', 'macro_invocation'];

interface Edit { start: number; end: number; text: string }

/** The macro's arguments as source text, split at the commas of its token tree (not those nested in brackets). */
function macroArguments(macro: SyntaxNode, code: string): string[] {
  const tree = namedChildren(macro).find((c) => c.type === 'token_tree');
  if (!tree) return [];
  const commas = tree.children.filter((c): c is SyntaxNode => c?.type === ',');
  const bounds = [tree.startIndex + 1, ...commas.flatMap((c) => [c.startIndex, c.endIndex]), tree.endIndex - 1];
  const args: string[] = [];
  for (let i = 0; i < bounds.length; i += 2) args.push(code.slice(bounds[i]!, bounds[i + 1]!).trim());
  return args;
}

/** The part of an `assert!` condition worth printing: the computed side of a comparison, the value under `!`, else all. */
async function checkedValue(condition: string): Promise<string> {
  const root = await parseCode('rust', `fn check() { ${condition} }`);
  const body = descendants(root, 'function_item')[0]?.childForFieldName('body');
  let expression = body ? namedChildren(body).find((n) => !/comment$/.test(n.type)) : undefined;
  if (expression?.type === 'expression_statement') expression = namedChildren(expression)[0];
  if (!expression || descendants(root, 'ERROR').length) return condition;
  if (expression.type === 'unary_expression' && expression.text.startsWith('!')) return namedChildren(expression)[0]?.text ?? condition;
  const operator = expression.type === 'binary_expression' ? expression.childForFieldName('operator')?.text : undefined;
  if (!operator || !COMPARISON.has(operator)) return condition;
  const operands = [expression.childForFieldName('left'), expression.childForFieldName('right')].filter((n): n is SyntaxNode => Boolean(n));
  const value = operands.find((n) => descendants(n, CALLS).length > 0 || CALLS.includes(n.type))
    ?? operands.find((n) => !LITERAL.test(n.type)) ?? operands[0];
  return value?.text ?? condition;
}

/** Whether the node sits in a function marked `#[test]` (a test's checks are the test, not an example's result). */
function inTest(node: SyntaxNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type !== 'function_item') continue;
    for (let prev = p.previousNamedSibling; prev && (prev.type === 'attribute_item' || /comment$/.test(prev.type)); prev = prev.previousNamedSibling) {
      if (/^#\[\s*(\w+::)*test\b/.test(prev.text)) return true;
    }
  }
  return false;
}

/** Every check of the program (in `main` and in the functions it may call) as a print of the value it checks. */
export async function printRustAsserts(code: string): Promise<string> {
  const root = await parseCode('rust', code);
  const edits: Edit[] = [];
  for (const macro of descendants(root, 'macro_invocation')) {
    const name = macro.childForFieldName('macro')?.text;
    if (!name || !/^(debug_)?assert(_eq|_ne)?$/.test(name) || inTest(macro)) continue;
    const args = macroArguments(macro, code);
    if (!args[0]) continue;
    const start = macro.startIndex;
    const end = macro.endIndex;
    if (/_(eq|ne)$/.test(name)) {
      const [left, right] = args;
      if (!right) continue;
      edits.push({ start, end, text: `match (&(${left}), &(${right})) { (left, right) => { println!("{:?}", left); ${name}!(left, right); } }` });
    } else {
      // In statement position the print replaces the check; as a value (`let ok = assert!(…)`, rare) the macro stays.
      if (macro.parent?.type !== 'expression_statement' && macro.parent?.type !== 'block') continue;
      edits.push({ start, end, text: `println!("{:?}", ${await checkedValue(args[0])})` });
    }
  }
  return spliceEdits(code, edits);
}
