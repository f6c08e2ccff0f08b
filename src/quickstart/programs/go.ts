// Go examples as programs: `package main`, the imports the code uses (standard library, the module and its
// sub-packages, the example's own imports), a `main` that runs the fragment or Example function, unused values printed.
import { descendants, namedChildren, parseCode, withSyntaxTree, type SyntaxNode } from '../parse.ts';
import { namedFilePaths, showWrittenFiles, wherePrinted } from './go-effects.ts';
import { SERVE_IMPORTS, servedOnce } from './go-serve.ts';

const DECLARATIONS = /^(function_declaration|method_declaration|type_declaration|var_declaration|const_declaration)$/;

export interface GoContext {
  /** The module path and, by package name, import paths of the module's packages (root included). */
  modulePackages: Record<string, string>;
  std: Map<string, string>;
  /** Leave a dropped call's result unprinted (its function returns nothing: `(no value) used as value`). */
  keepDropped?: boolean;
  /** The example serves: run it in the background and make one request to it (go-serve.ts). */
  serve?: boolean;
}

/** Import path by the name a file refers to it with (alias, else the package's own name guessed from the path). */
function importsOf(root: SyntaxNode, context: GoContext): Map<string, string> {
  const imports = new Map<string, string>();
  for (const spec of descendants(root, 'import_spec')) {
    const path = spec.childForFieldName('path')?.text.replace(/^["`]|["`]$/g, '');
    if (!path) continue;
    const alias = spec.childForFieldName('name')?.text;
    const known = Object.entries(context.modulePackages).find(([, p]) => p === path)?.[0];
    const guessed = path.split('/').filter((p) => !/^v\d+$/.test(p)).pop()!.replace(/^go-/, '').replace(/[.-].*$/, '');
    imports.set(alias ?? known ?? guessed, path);
  }
  return imports;
}

/** Package names used as `name.Selector` that the code does not declare itself (or declares from that package). */
function qualifiersUsed(root: SyntaxNode, packages: Set<string>): Set<string> {
  // Where each name is declared: the function (or file) it is local to. `os, ok := o.(T)` in one method shadows the
  // package os there only; `os.Args` in main still needs the import.
  const key = (n: SyntaxNode) => `${n.type}:${n.startIndex}:${n.endIndex}`;
  const scopes = new Map<string, Set<string>>();
  for (const id of descendants(root, ['short_var_declaration', 'var_spec', 'const_spec', 'parameter_declaration', 'range_clause', 'function_declaration', 'type_spec'])) {
    const left = id.childForFieldName('left') ?? id.childForFieldName('name');
    if (!left) continue;
    let scope = id.parent;
    while (scope && !/^(function_declaration|method_declaration|func_literal|source_file)$/.test(scope.type)) scope = scope.parent;
    for (const name of [left, ...descendants(left, 'identifier')]) {
      if (name.type !== 'identifier') continue;
      if (!scopes.has(name.text)) scopes.set(name.text, new Set());
      scopes.get(name.text)!.add(scope ? key(scope) : 'file');
    }
  }
  const shadowed = (node: SyntaxNode, name: string) => {
    const where = scopes.get(name);
    if (!where) return false;
    if (where.has('file')) return true;
    for (let p: SyntaxNode | null = node.parent; p; p = p.parent) if (where.has(key(p))) return true;
    return false;
  };
  const used = new Set<string>();
  for (const selector of descendants(root, ['selector_expression', 'qualified_type'])) {
    const operand = selector.childForFieldName('operand') ?? selector.childForFieldName('package');
    // `assert := assert.New(t)` shadows the package after using it: a known package name counts even when declared.
    if (operand && (operand.type === 'identifier' || operand.type === 'package_identifier') && (!shadowed(selector, operand.text) || packages.has(operand.text))) used.add(operand.text);
  }
  return used;
}

/** Splits a fragment into top-level declarations and the statements that belong in main. */
async function splitFragment(code: string): Promise<{ declarations: string[]; statements: string }> {
  const root = await parseCode('go', `package main\n${code}`);
  const declarations: string[] = [];
  const rest: string[] = [];
  let previous: SyntaxNode | undefined;
  for (const node of namedChildren(root)) {
    // A comment on the line a statement ends on stays with it: it may show the statement's result (`// true`).
    if (node.type === 'comment' && previous && rest.length && previous.endPosition.row === node.startPosition.row && !DECLARATIONS.test(previous.type)) rest[rest.length - 1] += ` ${node.text}`;
    if (node.type === 'package_clause' || node.type === 'import_declaration' || node.type === 'comment') continue;
    (DECLARATIONS.test(node.type) && !node.hasError ? declarations : rest).push(node.text);
    previous = node;
  }
  return { declarations, statements: rest.join('\n') };
}

const indent = (text: string) => text.split('\n').map((l) => (l.trim() ? `\t${l}` : l)).join('\n');

/** Values a `main` declares and never reads (a compile error in Go): printed, or discarded when they are errors. */
async function useUnused(program: string): Promise<string> {
  const root = await parseCode('go', program);
  const main = namedChildren(root).find((n) => n.type === 'function_declaration' && n.childForFieldName('name')?.text === 'main');
  const body = main?.childForFieldName('body');
  if (!body) return program;
  const additions: string[] = [];
  for (const declaration of descendants(body, 'short_var_declaration')) {
    if (declaration.parent?.parent?.equals(body) === false && declaration.parent?.equals(body) === false) continue;
    const left = declaration.childForFieldName('left');
    for (const id of left ? descendants(left, 'identifier') : []) {
      if (id.text === '_') continue;
      const reads = descendants(body, 'identifier').filter((n) => n.text === id.text && n.startIndex > declaration.endIndex);
      if (reads.length) continue;
      additions.push(id.text === 'err' ? '\tif err != nil {\n\t\tpanic(err)\n\t}' : `\t${PRINT_VALUE}(${id.text})`);
    }
  }
  if (!additions.length) return program;
  const close = body.endIndex - 1;
  const printed = `${program.slice(0, close).replace(/\s+$/, '')}\n${additions.join('\n')}\n${program.slice(close)}`;
  return additions.some((a) => a.includes(PRINT_VALUE)) && !new RegExp(`\\bfunc ${PRINT_VALUE}\\(`).test(program) ? `${printed.replace(/\s+$/, '')}\n\n${PRINT_VALUE_FUNC}\n` : printed;
}

/**
 * How a value the example computes and never prints is shown: as fmt.Println would, except bytes that hold text,
 * which Println shows as numbers (`output := blackfriday.Run(input)` is HTML, not `[60 112 62 …]`). Variadic, so a
 * call that returns several values is passed whole (`printValue(now.Parse("2017"))` of a (Time, error) function: Go
 * spreads f(g()) over a variadic parameter); the values are printed, and the error when it is not nil.
 */
const PRINT_VALUE = 'printValue';
const PRINT_VALUE_FUNC = `// ${PRINT_VALUE} prints values as fmt.Println does, bytes that hold text as that text, and a (value, error)
// result's error only when it is not nil.
func ${PRINT_VALUE}(vs ...any) {
\tif n := len(vs); n > 1 && vs[n-1] == nil {
\t\tvs = vs[:n-1]
\t}
\tfor i, v := range vs {
\t\tif b, ok := v.([]byte); ok && utf8.Valid(b) {
\t\t\tvs[i] = string(b)
\t\t}
\t}
\tfmt.Println(vs...)
}`;


/**
 * Go's builtin `println`/`print` write to standard error (gjson's README prints its results with them), so what the
 * example shows never reaches the output a reader reads: they become `fmt.Println`/`fmt.Print`, unless the program
 * defines functions of those names itself.
 */
async function builtinPrintsToStdout(program: string): Promise<string> {
  const root = await parseCode('go', program);
  const own = new Set(descendants(root, 'function_declaration').map((f) => f.childForFieldName('name')?.text ?? ''));
  const edits = descendants(root, 'call_expression').map((call) => call.childForFieldName('function'))
    .filter((fn): fn is SyntaxNode => Boolean(fn) && fn!.type === 'identifier' && /^(println|print)$/.test(fn!.text) && !own.has(fn!.text));
  let out = program;
  for (const fn of edits.sort((a, b) => b.startIndex - a.startIndex)) out = `${out.slice(0, fn.startIndex)}${fn.text === 'println' ? 'fmt.Println' : 'fmt.Print'}${out.slice(fn.endIndex)}`;
  return out;
}

/** Buffers the program writes a result into and never prints (`var buf bytes.Buffer` … `md.Convert(source, &buf)`). */
function unprintedBuffers(main: SyntaxNode): string[] {
  const names: string[] = [];
  for (const spec of descendants(main, 'var_spec')) {
    if (/^(bytes\.Buffer|strings\.Builder)$/.test(spec.childForFieldName('type')?.text ?? '')) names.push(...spec.childrenForFieldName('name').filter((n): n is SyntaxNode => Boolean(n)).map((n) => n.text));
  }
  for (const decl of descendants(main, 'short_var_declaration')) {
    const value = decl.childForFieldName('right')?.text ?? '';
    if (/^(new\((bytes\.Buffer|strings\.Builder)\)|&?(bytes\.Buffer|strings\.Builder)\{\})$/.test(value)) names.push(...descendants(decl.childForFieldName('left')!, 'identifier').map((n) => n.text));
  }
  return names;
}

/**
 * An example written inside the package itself (`package difflib`, not `difflib_test`), or a README written as if it
 * were, calls the package's exported names bare; from package main they need the package's name in front.
 */
async function qualifyBare(code: string, owners: Map<string, string>): Promise<string> {
  const root = await parseCode('go', code);
  const declared = new Set(descendants(root, ['function_declaration', 'type_spec', 'method_declaration']).map((n) => n.childForFieldName('name')?.text ?? ''));
  const edits: Array<{ at: number; pkg: string }> = [];
  for (const id of descendants(root, ['identifier', 'type_identifier'])) {
    const pkg = owners.get(id.text);
    if (!pkg || declared.has(id.text)) continue;
    const parent = id.parent;
    if (!parent || /^(selector_expression|qualified_type)$/.test(parent.type) && !parent.namedChildren[0]?.equals(id)) continue;
    if (/^(function_declaration|method_declaration|type_spec|field_declaration|keyed_element|parameter_declaration|short_var_declaration)$/.test(parent.type) && parent.childForFieldName('name')?.equals(id)) continue;
    // A key of a composite literal (`Mode: 1`) names a field, not the package's `Mode`.
    if (parent.type === 'literal_element' && parent.parent?.type === 'keyed_element' && parent.parent.namedChildren[0]?.equals(parent)) continue;
    edits.push({ at: id.startIndex, pkg });
  }
  let out = code;
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = `${out.slice(0, edit.at)}${edit.pkg}.${out.slice(edit.at)}`;
  return out;
}

/**
 * The call expression of `main`'s last statement when it is a call chain that starts at one of the module's packages
 * (`now.With(t).EndOfMonth()`), its result dropped; not a call made for its effect on a value (`L.Close()`).
 */
function droppedPackageCall(main: SyntaxNode, context: GoContext): SyntaxNode | undefined {
  const body = main.childForFieldName('body');
  // The grammar wraps a block's statements in a statement_list.
  const list = body ? namedChildren(body).find((n) => n.type === 'statement_list') ?? body : undefined;
  const statements = list ? namedChildren(list).filter((n) => n.type !== 'comment') : [];
  const last = statements[statements.length - 1];
  const call = last?.type === 'expression_statement' ? last.namedChildren[0] : undefined;
  if (!call || call.type !== 'call_expression') return undefined;
  let head: SyntaxNode | null = call;
  while (head && (head.type === 'call_expression' || head.type === 'selector_expression')) {
    head = head.type === 'call_expression' ? head.childForFieldName('function') : head.childForFieldName('operand');
  }
  return head?.type === 'identifier' && Object.hasOwn(context.modulePackages, head.text) ? call : undefined;
}

/** Literal kinds a trailing comment shows as a call's result (`g.Match("cat") // true`, `// []rune{'.'}`). */
const RESULT_LITERALS = /^(true|false|nil|int_literal|float_literal|imaginary_literal|rune_literal|interpreted_string_literal|raw_string_literal|composite_literal|unary_expression)$/;

/** Whether a comment's text (or its first word) is a Go literal: the value the docs say the call before it returns. */
async function commentShowsValue(comment: string): Promise<boolean> {
  const text = comment.replace(/^\/\/\s?/, '').trim();
  if (!text || comment.startsWith('/*')) return false;
  for (const candidate of [text, text.split(/\s+/)[0]!.replace(/[,;]$/, '')]) {
    const literal = await withSyntaxTree('go', `package p\nvar _ = ${candidate}\n`, (root) => {
      if (root.hasError) return false;
      const value = descendants(root, 'expression_list')[0]?.namedChildren[0];
      return Boolean(value && RESULT_LITERALS.test(value.type) && (value.type !== 'unary_expression' || /^-\d/.test(value.text)));
    });
    if (literal) return true;
  }
  return false;
}

/**
 * Calls of `main` whose result is dropped but written beside them as a comment (glob's README: `g.Match("api.github.com")
 * // true`): the docs show the result there, so the program prints it where a reader would read it. Only a call that
 * is a whole statement and a comment on the same line that is a Go literal; other dropped calls are left alone (a call
 * made for its effect, `cache.Delete(k) // delete data`, may return nothing, and printing it would not compile).
 */
async function printCommentedResults(program: string): Promise<string> {
  const edits = await withSyntaxTree('go', program, (root) => {
    const main = namedChildren(root).find((n) => n.type === 'function_declaration' && n.childForFieldName('name')?.text === 'main');
    const body = main?.childForFieldName('body');
    const list = body ? namedChildren(body).find((n) => n.type === 'statement_list') ?? body : undefined;
    const statements = list ? namedChildren(list) : [];
    const found: Array<{ start: number; end: number; text: string; comment: string }> = [];
    statements.forEach((statement, i) => {
      const call = statement.type === 'expression_statement' ? statement.namedChildren[0] : undefined;
      const next = statements[i + 1];
      if (call?.type !== 'call_expression' || next?.type !== 'comment' || next.startPosition.row !== statement.endPosition.row) return;
      found.push({ start: call.startIndex, end: call.endIndex, text: call.text, comment: next.text });
    });
    return found;
  });
  let out = program;
  let changed = false;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    if (!(await commentShowsValue(edit.comment))) continue;
    out = `${out.slice(0, edit.start)}${PRINT_VALUE}(${edit.text})${out.slice(edit.end)}`;
    changed = true;
  }
  return changed && !new RegExp(`\\bfunc ${PRINT_VALUE}\\(`).test(out) ? `${out.replace(/\s+$/, '')}\n\n${PRINT_VALUE_FUNC}\n` : out;
}

/** The example as a `package main` program with exactly the imports it uses. */
export async function goProgram(code: string, origin: string, exampleName: string | undefined, context: GoContext, bareNames?: Map<string, string>): Promise<string> {
  if (bareNames?.size) {
    const hadPackage = /^\s*package\s/m.test(code);
    const qualified = await qualifyBare(hadPackage ? code : `package main\n${code}`, bareNames);
    code = hadPackage ? qualified : qualified.replace(/^package main\n/, '');
  }
  const original = await parseCode('go', /^\s*package\s/m.test(code) ? code : `package main\n${code}`);
  const ownImports = importsOf(original, context);
  let body: string;
  const hasMain = namedChildren(original).some((n) => n.type === 'function_declaration' && n.childForFieldName('name')?.text === 'main');
  if (hasMain) {
    body = namedChildren(original).filter((n) => n.type !== 'package_clause' && n.type !== 'import_declaration').map((n) => n.text).join('\n\n');
  } else if (origin === 'go-example' && exampleName) {
    const { declarations } = await splitFragment(code);
    body = `${declarations.join('\n\n')}\n\nfunc main() {\n\t${exampleName}()\n}`;
  } else if (/^func\s+Test[A-Z_]\w*\(\s*\w+\s+\*testing\.T\s*\)/m.test(code)) {
    // Test functions run as tests do: through the testing package, verbosely, so their verdicts are printed.
    const { declarations } = await splitFragment(code.replace(/^\s*package\s+\w+\s*$/m, ''));
    const tests = declarations.map((d) => /^func\s+(Test[A-Z_]\w*)\(\s*\w+\s+\*testing\.T\s*\)/.exec(d)?.[1]).filter((t): t is string => Boolean(t));
    body = `${declarations.join('\n\n')}\n\nfunc main() {\n\tos.Args = append(os.Args[:1], "-test.v")\n\ttesting.Main(func(string, string) (bool, error) { return true, nil },\n\t\t[]testing.InternalTest{${tests.map((t) => `{Name: "${t}", F: ${t}}`).join(', ')}}, nil, nil)\n}`;
  } else {
    const { declarations, statements } = await splitFragment(code.replace(/^\s*package\s+\w+\s*$/m, ''));
    let mainBody = statements.trim();
    if (!mainBody) {
      // Only definitions: call what needs no arguments and print what it returns; show types' zero values.
      const calls = declarations.map((d) => /^func\s+([A-Za-z]\w*)\(\)\s*([^{]*)\{/.exec(d)).filter((m): m is RegExpExecArray => Boolean(m) && !/^(init|main)$/.test(m![1]!))
        .map((m) => (m[2]!.trim() ? `fmt.Println(${m[1]}())` : `${m[1]}()`));
      const types = declarations.map((d) => /^type\s+([A-Z]\w*)\s+struct\b/.exec(d)?.[1]).filter((t): t is string => Boolean(t)).map((t) => `fmt.Printf("%+v\\n", ${t}{})`);
      mainBody = [...calls, ...types].join('\n');
    }
    body = `${declarations.join('\n\n')}\n\nfunc main() {\n${indent(mainBody)}\n}`;
  }
  let program = `package main\n\n${body.trim()}\n`;
  program = await builtinPrintsToStdout(await useUnused(program));
  const commented = context.keepDropped ? program : await printCommentedResults(program);
  const showsComments = commented !== program;
  program = commented;
  // Go's builtin println/print write to standard error: rewritten to fmt's above, so they count here. A print only
  // where an error is handled (`if err := p.Save(…); err != nil { log.Fatal(err) }`) shows nothing when the run works.
  const printed = showsComments ? 'success' : await wherePrinted(program);
  // Printed only where an error is handled: the files it names that it wrote are shown, nothing else (a value bound
  // before a save is a handle or a struct, and printing it made dumps "run": measured on spent Go packages).
  if (printed === 'error') program = await showWrittenFiles(program, await namedFilePaths(program));
  if (printed === 'none') {
    // Nothing printed: print what main wrote into a buffer, else the values main binds last; and the files it names
    // that it wrote (a plot saved, a sheet written: the result is the file, and a value bound before it is a dump).
    const files = await namedFilePaths(program);
    const root = await parseCode('go', program);
    const main = namedChildren(root).find((n) => n.type === 'function_declaration' && n.childForFieldName('name')?.text === 'main');
    // The fragment's `var buf bytes.Buffer` may have moved to package level with its other declarations.
    const buffers = main ? unprintedBuffers(root) : [];
    if (main && buffers.length) {
      const close = main.endIndex - 1;
      program = `${program.slice(0, close).replace(/\s+$/, '')}\n${buffers.map((b) => `\tfmt.Println(${b}.String())`).join('\n')}\n${program.slice(close)}`;
    }
    // The fragment's last statement calls the package and drops what it returns (jinzhu/now's README:
    // `now.With(t).EndOfMonth()`): that result is what the example computes, not a value bound before it.
    const dropped = main && !buffers.length && !context.keepDropped ? droppedPackageCall(main, context) : undefined;
    if (dropped) {
      program = `${program.slice(0, dropped.startIndex)}${PRINT_VALUE}(${dropped.text})${program.slice(dropped.endIndex)}`;
      if (!new RegExp(`\\bfunc ${PRINT_VALUE}\\(`).test(program)) program = `${program.replace(/\s+$/, '')}\n\n${PRINT_VALUE_FUNC}\n`;
    }
    const last = main && !dropped ? descendants(main, 'short_var_declaration').pop() : undefined;
    const names = last?.childForFieldName('left') ? descendants(last.childForFieldName('left')!, 'identifier').map((n) => n.text).filter((n) => n !== '_' && n !== 'err') : [];
    const shown = names.length && main && !buffers.length ? `fmt.Println(${names.join(', ')})` : undefined;
    if (files.length) program = await showWrittenFiles(program, files, shown);
    else if (shown && main) {
      const close = main.endIndex - 1;
      program = `${program.slice(0, close).replace(/\s+$/, '')}\n\t${shown}\n${program.slice(close)}`;
    }
  }
  if (context.serve) {
    const served = await servedOnce(program);
    if (!served) throw new Error('the example serves nothing a request can be made to');
    program = served;
  }
  const used = qualifiersUsed(await parseCode('go', program), new Set([...ownImports.keys(), ...Object.keys(context.modulePackages)]));
  const imports: string[] = [];
  for (const name of [...used].sort()) {
    const path = (context.serve ? SERVE_IMPORTS[name] : undefined) ?? ownImports.get(name) ?? context.modulePackages[name] ?? context.std.get(name);
    if (!path) continue;
    const guessed = path.split('/').filter((p) => !/^v\d+$/.test(p)).pop()!;
    imports.push(guessed === name ? `\t"${path}"` : `\t${name} "${path}"`);
  }
  imports.sort((a, b) => a.replace(/^\t(\w+ )?/, '').localeCompare(b.replace(/^\t(\w+ )?/, '')));
  return imports.length ? program.replace(/^package main\n/, `package main\n\nimport (\n${imports.join('\n')}\n)\n`) : program;
}
