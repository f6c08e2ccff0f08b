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

/**
 * The import statements of the package in `code` rewritten so each name comes from where the probe saw it. All of the
 * package's imports are merged into one rewrite (two `import … from 'p'` lines would otherwise each declare the whole
 * module's binding), and a new binding for the whole module takes a name nothing in the program uses.
 */
export async function commonJsImports(code: string, grammar: Grammar, name: string, exports: NpmExports | undefined): Promise<string> {
  // Only where the import's default is `module.exports` itself: a dual package's ES build has exact named exports.
  if (!exports?.esm || !exports.require || exports.commonjs !== true) return code;
  const root = await parseCode(grammar, code);
  const statements = namedChildren(root).filter((statement) => statement.type === 'import_statement' && statement.childForFieldName('source')?.text.slice(1, -1) === name)
    .map((statement) => ({ statement, parsed: parseImport(statement) }))
    .filter((s): s is { statement: SyntaxNode; parsed: ParsedImport } => s.parsed !== undefined);
  if (!statements.length) return code;
  // Every name the program uses, the rewritten imports' own included: a new binding must shadow none of them.
  const taken = new Set(descendants(root, ['identifier', 'shorthand_property_identifier_pattern', 'shorthand_property_identifier', 'type_identifier']).map((n) => n.text));
  const text = rewrite(statements.map((s) => s.parsed), name, exports, taken);
  if (text === undefined) return code;
  // The first statement becomes the merged rewrite; the others (and the line end after each) go.
  const edits = statements.map(({ statement }, i) => ({
    start: statement.startIndex,
    end: i === 0 ? statement.endIndex : statement.endIndex + (code[statement.endIndex] === '\n' ? 1 : 0),
    text: i === 0 ? text : '',
  }));
  let out = code;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

interface ParsedImport { defaultLocal?: string; specifiers: Specifier[]; typeOnly: string[] }

function parseImport(statement: SyntaxNode): ParsedImport | undefined {
  const clause = namedChildren(statement).find((n) => n.type === 'import_clause');
  // `import type …`, `import * as x`, a bare `import 'x'`: nothing a CommonJS binding changes.
  if (!clause || /^import\s+type\b/.test(statement.text) || descendants(clause, 'namespace_import').length) return undefined;
  return {
    defaultLocal: namedChildren(clause).find((n) => n.type === 'identifier')?.text,
    specifiers: descendants(clause, 'import_specifier')
      // `import { type X }` is erased by the transform: leave it as written.
      .filter((s) => !/^type\s/.test(s.text))
      .map((s) => ({ imported: s.childForFieldName('name')!.text, local: (s.childForFieldName('alias') ?? s.childForFieldName('name'))!.text })),
    typeOnly: descendants(clause, 'import_specifier').filter((s) => /^type\s/.test(s.text)).map((s) => s.text),
  };
}

function rewrite(imports: ParsedImport[], name: string, exports: NpmExports, taken: Set<string>): string | undefined {
  const named = new Set(exports.esm!.named);
  const keys = new Set(exports.defaultKeys ?? []);
  const defaults = [...new Set(imports.map((i) => i.defaultLocal).filter((d): d is string => d !== undefined))];
  const seen = new Set<string>();
  const specifiers = imports.flatMap((i) => i.specifiers).filter((s) => !seen.has(s.local) && seen.add(s.local));
  const typeOnly = [...new Set(imports.flatMap((i) => i.typeOnly))];
  const keep: string[] = [];
  const fromDefault: Specifier[] = [];
  const unknown: Specifier[] = [];
  for (const s of specifiers) {
    if (named.has(s.imported)) keep.push(s.imported === s.local ? s.local : `${s.imported} as ${s.local}`);
    else if (keys.has(s.imported)) fromDefault.push(s);
    else unknown.push(s);
  }
  // Several statements are merged into one even when no name moves: each kept as written may be fine, but a rewrite
  // of one must not leave another declaring the same default.
  let changed = fromDefault.length > 0 || imports.length > 1;
  // A default binding that is a property of `module.exports` (`import RRule from` where `exports.RRule = …`): the
  // property, when the import's default is `module.exports` itself.
  const moduleDefaults: string[] = [];
  for (const d of defaults) {
    if (!keys.has(d)) { moduleDefaults.push(d); continue; }
    if (named.has(d)) keep.unshift(d);
    else fromDefault.unshift({ imported: d, local: d });
    changed = true;
  }
  // Default bindings of several statements: the first is the module, the others are copies of it.
  let defaultLocal = moduleDefaults.shift();
  const aliases = moduleDefaults;
  // The one name the package exports neither by name nor as a property: `module.exports` itself.
  if (!defaultLocal && unknown.length === 1 && exports.esm!.default) {
    defaultLocal = unknown[0]!.local;
    unknown.length = 0;
    changed = true;
  }
  if (!changed) return undefined;
  const whole = defaultLocal ?? (fromDefault.length || aliases.length ? freeName(camelName(name), taken) : undefined);
  const braces = [...typeOnly, ...keep, ...unknown.map((s) => (s.imported === s.local ? s.local : `${s.imported} as ${s.local}`))];
  const head = [whole, braces.length ? `{ ${braces.join(', ')} }` : ''].filter(Boolean).join(', ');
  const lines = [`import ${head} from '${name}';`];
  if (fromDefault.length) lines.push(`const { ${fromDefault.map((s) => (s.imported === s.local ? s.local : `${s.imported}: ${s.local}`)).join(', ')} } = ${whole};`);
  for (const alias of aliases) lines.push(`const ${alias} = ${whole};`);
  return lines.join('\n');
}

/** A binding for the whole module that no name of the program takes. */
function freeName(base: string, taken: Set<string>): string {
  let candidate = base;
  while (taken.has(candidate)) candidate = `${candidate}Module`;
  return candidate;
}
