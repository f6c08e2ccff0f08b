// READMEs that show a call's result on the line after it, marked with the prompt (`validate_rfc3339('…')` then
// `>>> False`): the prompt marks output here, not input, so the block is not a doctest transcript. Read as such, the
// script keeps every line without a prompt, and the calls before a shown result print it. Real parses (tree-sitter).
import { namedChildren, parseCode } from '../parse.ts';
import { isPrintable } from './python.ts';

const PROMPT = /^\s*>>>\s?(.*)$/;
/** The expression kinds a shown result is: a literal, a collection of them, a negative number. */
const LITERAL = /^(true|false|none|integer|float|string|concatenated_string|list|tuple|dictionary|set|unary_operator|parenthesized_expression)$/;

async function literal(text: string): Promise<boolean> {
  const root = await parseCode('python', text);
  const statements = namedChildren(root);
  const expression = statements.length === 1 && statements[0]!.type === 'expression_statement' ? namedChildren(statements[0]!)[0] : undefined;
  return Boolean(!root.hasError && expression && LITERAL.test(expression.type) && !/\w\s*\(/.test(expression.text));
}

/**
 * The block as a script when its prompts mark results (every `>>>` line follows a line without one, holds a literal,
 * and the block starts without a prompt); undefined for any other block, transcripts included.
 */
export async function resultsAfterPrompts(code: string): Promise<string | undefined> {
  const lines = code.split('\n');
  const first = lines.find((l) => l.trim() && !/^\s*#/.test(l));
  if (!first || PROMPT.test(first) || !lines.some((l) => PROMPT.test(l))) return undefined;
  const out: string[] = [];
  for (const line of lines) {
    const prompt = PROMPT.exec(line);
    if (!prompt) { out.push(line); continue; }
    let at = out.length - 1;
    while (at >= 0 && !out[at]!.trim()) at--;
    if (at < 0 || /^\s*(\.\.\.|#)/.test(out[at]!) || /^\s/.test(out[at]!) || !(await literal(prompt[1]!.trim()))) return undefined;
    const expression = (await isPrintable(out[at]!.trim()))?.expression;
    out[at] = `${expression ? `print(${expression})` : out[at]!.replace(/\s+$/, '')}  # ${prompt[1]!.trim()}`;
  }
  return out.join('\n');
}
