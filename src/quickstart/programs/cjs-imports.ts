// Import lines of a CommonJS package rewritten from its real exports (the probe's report), before the first run.
// Node's ES module loader sees only the names its lexer finds in a CommonJS file (`exports.x = …`), not those a
// bundler's output or `module.exports = fn` give: `import { currency } from 'currency.js'` fails ("Named export
// 'currency' not found. The requested module … is a CommonJS module"), and `import RRule from 'rrule'` binds the whole
// `module.exports` object, so `RRule.fromString` "is not a function". The probe says what each line really gives:
// `esm.named` are the names the loader sees, `defaultKeys` the properties of `require(name)`, and `commonjs` whether
// the import's default is that same `module.exports`. A name is then taken from where it is:
// - named by the loader: a named import, as written;
// - a property of `module.exports` only: destructured from the default import (`const { datetime } = rrule`);
// - neither, and the only such name: the default import itself (`module.exports = currency`).
// A default binding that names a property of `module.exports` (and the package is CommonJS) is that property.
import { descendants, namedChildren, parseCode, type Grammar, type SyntaxNode } from '../parse.ts';
import { camelName } from './node.ts';
import type { NpmExports } from '../imports.ts';

interface Specifier { imported: string; local: string }

/** The import statements of the package in `code` rewritten so each name comes from where the probe saw it. */
export async function commonJsImports(code: string, grammar: Grammar, name: string, exports: NpmExports | undefined): Promise<string> {
  // Only where the import's default is `module.exports` itself: a dual package's ES build has exact named exports.
  if (!exports?.esm || !exports.require || exports.commonjs !== true) return code;
  const root = await parseCode(grammar, code);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const statement of namedChildren(root)) {
    if (statement.type !== 'import_statement' || statement.childForFieldName('source')?.text.slice(1, -1) !== name) continue;
    const text = rewrite(statement, name, exports);
    if (text !== undefined) edits.push({ start: statement.startIndex, end: statement.endIndex, text });
  }
  let out = code;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function rewrite(statement: SyntaxNode, name: string, exports: NpmExports): string | undefined {
  const clause = namedChildren(statement).find((n) => n.type === 'import_clause');
  // `import type …`, `import * as x`, a bare `import 'x'`: nothing a CommonJS binding changes.
  if (!clause || /^import\s+type\b/.test(statement.text) || descendants(clause, 'namespace_import').length) return undefined;
  const named = new Set(exports.esm!.named);
  const keys = new Set(exports.defaultKeys ?? []);
  let defaultLocal = namedChildren(clause).find((n) => n.type === 'identifier')?.text;
  const specifiers: Specifier[] = descendants(clause, 'import_specifier')
    // `import { type X }` is erased by the transform: leave it as written.
    .filter((s) => !/^type\s/.test(s.text))
    .map((s) => ({ imported: s.childForFieldName('name')!.text, local: (s.childForFieldName('alias') ?? s.childForFieldName('name'))!.text }));
  const typeOnly = descendants(clause, 'import_specifier').filter((s) => /^type\s/.test(s.text)).map((s) => s.text);
  const keep: string[] = [];
  const fromDefault: Specifier[] = [];
  const unknown: Specifier[] = [];
  for (const s of specifiers) {
    if (named.has(s.imported)) keep.push(s.imported === s.local ? s.local : `${s.imported} as ${s.local}`);
    else if (keys.has(s.imported)) fromDefault.push(s);
    else unknown.push(s);
  }
  let changed = fromDefault.length > 0;
  // A default binding that is a property of `module.exports` (`import RRule from` where `exports.RRule = …`): the
  // property, when the import's default is `module.exports` itself.
  if (defaultLocal && keys.has(defaultLocal)) {
    if (named.has(defaultLocal)) keep.unshift(defaultLocal);
    else fromDefault.unshift({ imported: defaultLocal, local: defaultLocal });
    defaultLocal = undefined;
    changed = true;
  }
  // The one name the package exports neither by name nor as a property: `module.exports` itself.
  if (!defaultLocal && unknown.length === 1 && exports.esm!.default) {
    defaultLocal = unknown[0]!.local;
    unknown.length = 0;
    changed = true;
  }
  if (!changed) return undefined;
  const whole = defaultLocal ?? (fromDefault.length ? freeName(camelName(name), [...keep, ...fromDefault.map((s) => s.local)]) : undefined);
  const braces = [...typeOnly, ...keep, ...unknown.map((s) => (s.imported === s.local ? s.local : `${s.imported} as ${s.local}`))];
  const head = [whole, braces.length ? `{ ${braces.join(', ')} }` : ''].filter(Boolean).join(', ');
  const lines = [`import ${head} from '${name}';`];
  if (fromDefault.length) lines.push(`const { ${fromDefault.map((s) => (s.imported === s.local ? s.local : `${s.imported}: ${s.local}`)).join(', ')} } = ${whole};`);
  return lines.join('\n');
}

/** A binding for the whole module that none of the example's names takes. */
function freeName(base: string, taken: string[]): string {
  let candidate = base;
  while (taken.includes(candidate)) candidate = `${candidate}Module`;
  return candidate;
}
