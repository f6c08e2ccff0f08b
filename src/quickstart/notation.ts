// Documentation notation in npm examples: signatures with optional parameters in brackets (`Papa.unparse(data[,
// config])`), elided lines (`...`), `<placeholder>`s. Such a block is not JavaScript: run, it is a SyntaxError that
// spends a sandbox run. A block that no JavaScript/TypeScript grammar parses without errors is rewritten where the
// notation is the optional-parameter brackets (checked by parsing again), and otherwise not tried.
import { parseCode, type Grammar } from './parse.ts';

const GRAMMARS: Grammar[] = ['javascript', 'typescript', 'tsx'];

async function parsesClean(code: string): Promise<boolean> {
  for (const grammar of GRAMMARS) if (!(await parseCode(grammar, code)).hasError) return true;
  return false;
}

/** `f(a[, b[, c]])` → `f(a)`: the optional parameters of a signature, left out as a caller may. */
function dropOptionalBrackets(code: string): string {
  let out = code;
  for (let previous = ''; previous !== out;) {
    previous = out;
    out = out.replace(/\s*\[\s*,[^[\]]*\]/g, '');
  }
  return out;
}

/**
 * The example as code: unchanged when it parses, rewritten when only signature brackets kept it from parsing, or
 * undefined when it is documentation notation that cannot be read as a program.
 */
export async function asCode(code: string): Promise<{ code: string; rewritten: boolean } | undefined> {
  if (await parsesClean(code)) return { code, rewritten: false };
  const rewritten = dropOptionalBrackets(code);
  if (rewritten !== code && await parsesClean(rewritten)) return { code: rewritten, rewritten: true };
  return undefined;
}
