// Node-style callbacks whose results an example leaves to the reader: `function (err, results) { // results is … }`.
// The package hands the result to the callback, the example's body shows nothing, so the run prints nothing (or the
// `undefined` the outer call returns) while it did the package's job. The callback then prints what it was given.
// Read from the program's syntax tree (tree-sitter); no package named.
import { descendants, namedChildren, withSyntaxTree, type Grammar, type SyntaxNode } from '../parse.ts';

/** The first parameter of a Node-style callback: the error. */
const ERROR_PARAM = /^(err|error|er|e|ex|exc)$/;
/** Calls that show a value to the reader. */
const SHOWS = /^(console\.(log|info|dir|table)|process\.stdout\.write)$/;
const FUNCTIONS = ['function_expression', 'function', 'arrow_function'];

/** The parameter names of a function node when all are plain identifiers (no patterns, defaults or rest). */
function plainParams(fn: SyntaxNode): string[] | undefined {
  const single = fn.childForFieldName('parameter');
  if (single) return single.type === 'identifier' ? [single.text] : undefined;
  const list = fn.childForFieldName('parameters');
  if (!list) return undefined;
  const names: string[] = [];
  for (const p of namedChildren(list)) {
    if (p.type === 'comment') continue;
    // TypeScript wraps each parameter (`required_parameter`) around its pattern.
    const id = p.type === 'identifier' ? p : p.type === 'required_parameter' ? p.childForFieldName('pattern') : null;
    if (id?.type !== 'identifier') return undefined;
    names.push(id.text);
  }
  return names;
}

/** Whether `body` already shows one of `names` (`console.log(results)`, `console.log('got', data.length)`). */
function shows(body: SyntaxNode, names: string[]): boolean {
  return descendants(body, 'call_expression').some((call) => {
    if (!SHOWS.test(call.childForFieldName('function')?.text ?? '')) return false;
    const args = call.childForFieldName('arguments');
    return Boolean(args && descendants(args, 'identifier').some((id) => names.includes(id.text)));
  });
}

/**
 * The program with each callback passed as an argument whose first parameter is an error and that has results after
 * it, and whose body shows none of them, printing them (when there is no error) as it is called.
 */
export async function printCallbackResults(code: string, grammar: Grammar): Promise<string> {
  const edits = await withSyntaxTree(grammar, code, (root) => {
    const at: Array<{ index: number; text: string }> = [];
    for (const fn of descendants(root, FUNCTIONS)) {
      if (fn.parent?.type !== 'arguments') continue;
      const params = plainParams(fn);
      const [error, ...results] = params ?? [];
      if (!error || !ERROR_PARAM.test(error) || !results.length) continue;
      const body = fn.childForFieldName('body');
      if (body?.type !== 'statement_block' || shows(body, results)) continue;
      at.push({ index: body.startIndex + 1, text: `\n  if (!${error}) console.log(${results.join(', ')});` });
    }
    return at;
  });
  let out = code;
  for (const edit of edits.sort((a, b) => b.index - a.index)) out = `${out.slice(0, edit.index)}${edit.text}${out.slice(edit.index)}`;
  return out;
}
