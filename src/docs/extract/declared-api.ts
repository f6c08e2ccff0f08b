// declaredApi: what a package itself declares public, read from its published files with the same real parsers the
// extractors use but without their choices (which items have docs, which to rank down), so the coverage bench
// (bench/docs-coverage.ts) can count how much of a package's API has a passage that explains it:
// npm: the exports of its entry points, from its own declarations or @types/<name>'s; PyPI: `__all__` of the top-level
// package, else its public top-level names; crates: `pub` items reachable from the crate root (rustdoc's view, every
// item with or without docs); Go: exported identifiers of non-internal, non-main packages.
import path from 'node:path';
import type TS from 'typescript';
import { loadCompiler, typeEntries } from './dts.ts';
import { apiFromRustCrate, TRAIT_IMPL_IMPORTANCE } from './rust.ts';
import { namedChildren, type Parsers, type SyntaxNode } from './treesitter.ts';

/** One public item: `name` is what a passage's symbol ends with (`debounce`, `Session.mount`, `Command.Execute`). */
export interface DeclaredItem { name: string; where: string }

const ROOT = '/pkg';

/** An npm package's type entry points (subpath and declaration file), from its package.json under `files`. */
export function npmTypeEntries(files: Map<string, string>): ReturnType<typeof typeEntries> {
  let manifest: Record<string, unknown> = {};
  try { manifest = JSON.parse(files.get('package.json') ?? '{}') as Record<string, unknown>; } catch { manifest = {}; }
  return typeEntries({ files, manifest: manifest as Parameters<typeof typeEntries>[0]['manifest'] });
}

/**
 * A TypeScript program over a package's published files, held in memory under a virtual root and rooted at the given
 * declaration files: no lib, no emit, nothing read from disk. Shared by the coverage count (below) and the import-line
 * check (src/quickstart/npm-exports.ts), so both agree on what a package exports.
 */
export async function declarationProgram(files: Map<string, string>, rootFiles: string[]) {
  const ts = await loadCompiler();
  const rel = (file: string) => file.slice(ROOT.length + 1);
  const host: TS.CompilerHost = {
    getSourceFile: (file, version) => {
      const text = files.get(rel(file));
      return text === undefined ? undefined : ts.createSourceFile(file, text, version, true);
    },
    getDefaultLibFileName: () => `${ROOT}/lib.d.ts`, writeFile: () => undefined, getCurrentDirectory: () => ROOT,
    getCanonicalFileName: (f) => f, useCaseSensitiveFileNames: () => true, getNewLine: () => '\n',
    fileExists: (f) => f.startsWith(`${ROOT}/`) && files.has(rel(f)),
    readFile: (f) => (f.startsWith(`${ROOT}/`) ? files.get(rel(f)) : undefined),
    directoryExists: () => true, realpath: (f) => f,
  };
  const program = ts.createProgram({
    rootNames: rootFiles.map((file) => `${ROOT}/${file}`), host,
    options: { noLib: true, noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  });
  return { ts, program, sourceFile: (file: string) => program.getSourceFile(`${ROOT}/${file}`) };
}

/** The exported names of an npm package's entry points (declarations under `files`, with its package.json). */
export async function declaredNpmApi(files: Map<string, string>): Promise<DeclaredItem[]> {
  const entries = npmTypeEntries(files);
  if (!entries.length) return [];
  const { program, sourceFile: entrySource } = await declarationProgram(files, entries.map((e) => e.file));
  const checker = program.getTypeChecker();
  const items = new Map<string, DeclaredItem>();
  for (const { subpath, file } of entries) {
    const sourceFile = entrySource(file);
    const moduleSymbol = sourceFile ? checker.getSymbolAtLocation(sourceFile) : undefined;
    if (!sourceFile || !moduleSymbol) continue;
    const exported = checker.getExportsOfModule(moduleSymbol);
    const add = (name: string) => {
      // A lone default export is the package's API (strip-ansi); beside named exports it repeats one of them.
      if ((name === 'default' && exported.length > 1) || name.startsWith('_') || name === 'export=') return;
      items.set(`${subpath}:${name}`, { name, where: subpath });
    };
    for (const symbol of exported) add(symbol.name);
    // `export = _` (lodash, express): the value's properties are the API (`_.debounce`), beside its namespace's types.
    const assigned = moduleSymbol.exports?.get('export=' as TS.__String);
    if (assigned) {
      const type = checker.getTypeOfSymbolAtLocation(assigned, sourceFile);
      for (const property of checker.getPropertiesOfType(type)) add(property.name);
    }
  }
  // Entries that are scripts of `declare module "x"` blocks (@types/node): each module's exports, as the extractor reads them.
  if (!items.size && entries.every(({ file }) => { const sf = entrySource(file); return sf && !checker.getSymbolAtLocation(sf); })) {
    for (const module of checker.getAmbientModules()) {
      const name = module.name.replace(/^["']|["']$/g, '');
      if (name.includes('*') || name.startsWith('node:') || !module.declarations?.some((d) => d.getSourceFile().fileName.startsWith(`${ROOT}/`))) continue;
      for (const symbol of checker.getExportsOfModule(module)) {
        if (symbol.name !== 'default' && !symbol.name.startsWith('_') && symbol.name !== 'export=') items.set(`${name}:${symbol.name}`, { name: symbol.name, where: name });
      }
    }
  }
  return [...items.values()];
}

const literalStrings = (node: SyntaxNode | null | undefined): string[] =>
  node ? node.descendantsOfType('string_content').map((s) => s?.text ?? '').filter(Boolean) : [];

/** A module's `__all__`, and the names it defines itself or imports (blocks of top-level `if`/`try` included). */
function pythonModuleNames(parsers: Parsers, text: string): { all: string[]; own: string[]; imported: string[] } {
  return parsers.parse('python', text, (root) => {
    const found = { all: [] as string[], own: [] as string[], imported: [] as string[] };
    const visit = (statements: SyntaxNode[]) => {
      for (const statement of statements) {
        if (statement.type === 'if_statement' || statement.type === 'try_statement') {
          // `try: from ._speedups import x` / `if sys.version_info >= …:` blocks define names too (not nested defs' bodies).
          for (const block of statement.descendantsOfType('block')) {
            if (block && (block.parent?.id === statement.id || block.parent?.parent?.id === statement.id)) visit(namedChildren(block));
          }
          continue;
        }
        const expression = statement.type === 'expression_statement' ? statement.namedChildren[0] : statement;
        if (!expression) continue;
        if (expression.type === 'assignment' || expression.type === 'augmented_assignment') {
          const left = expression.childForFieldName('left');
          if (left?.text === '__all__') found.all.push(...literalStrings(expression.childForFieldName('right')));
          else if (left?.type === 'identifier') found.own.push(left.text);
        } else if (expression.type === 'function_definition' || expression.type === 'class_definition') {
          found.own.push(expression.childForFieldName('name')?.text ?? '');
        } else if (expression.type === 'decorated_definition') {
          found.own.push(expression.childForFieldName('definition')?.childForFieldName('name')?.text ?? '');
        } else if (expression.type === 'import_from_statement') {
          for (const name of expression.childrenForFieldName('name')) {
            const alias = name?.type === 'aliased_import' ? name.childForFieldName('alias')?.text : name?.text.split('.').pop();
            if (alias) found.imported.push(alias);
          }
        }
      }
    };
    visit(namedChildren(root));
    return found;
  });
}

const publicName = (name: string) => Boolean(name) && !name.startsWith('_');

/**
 * A Python package's `__all__`, else the public names its top-level module defines or imports; a package whose
 * `__init__` declares nothing (packaging, dateutil) is its public submodules: each one's `__all__`, else what it defines.
 */
export function declaredPythonApi(parsers: Parsers, files: Map<string, string>, importName: string): DeclaredItem[] {
  const bases = [importName, `src/${importName}`];
  const top = bases.flatMap((b) => [`${b}/__init__.py`, `${b}.py`, `${b}/__init__.pyi`, `${b}.pyi`]).find((f) => files.has(f));
  if (!top) return [];
  const names = pythonModuleNames(parsers, files.get(top)!);
  const listed = (names.all.length ? names.all : [...names.own, ...names.imported]).filter(publicName);
  if (listed.length || !top.endsWith('__init__.py')) return [...new Set(listed)].map((name) => ({ name, where: top }));
  const dir = top.slice(0, -'/__init__.py'.length);
  const items = new Map<string, DeclaredItem>();
  for (const [file, text] of files) {
    const rest = file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : undefined;
    const module = rest && /^([A-Za-z]\w*)(\.py|\/__init__\.py)$/.exec(rest)?.[1];
    if (!module) continue;
    const inner = pythonModuleNames(parsers, text);
    for (const name of (inner.all.length ? inner.all : inner.own).filter(publicName)) items.set(`${module}.${name}`, { name, where: `${importName}.${module}` });
  }
  return [...items.values()];
}

/** `pub` items reachable from the crate root, as rustdoc lists them (documented or not). */
export async function declaredRustApi(parsers: Parsers, files: Map<string, string>, crate: string, libPath?: string): Promise<DeclaredItem[]> {
  const drafts = await apiFromRustCrate(parsers, { crate, files, libPath, locate: () => '', undocumented: true });
  const items = new Map<string, DeclaredItem>();
  for (const draft of drafts) {
    // Trait implementations' methods (`fmt`, `from`, `next`) are the trait's API, documented there, not the crate's.
    if (!draft.symbol || draft.internal || draft.symbol === crate || draft.importance === TRAIT_IMPL_IMPORTANCE || draft.importance === TRAIT_IMPL_IMPORTANCE - 0.3) continue;
    const segments = draft.symbol.split('::');
    items.set(draft.symbol, { name: segments[segments.length - 1]!, where: draft.symbol });
  }
  return [...items.values()];
}

const goExported = (name: string | undefined): name is string => Boolean(name && /^\p{Lu}/u.test(name));

/** Exported identifiers (functions, types, methods of exported types, consts, vars) of non-internal Go packages. */
export function declaredGoApi(parsers: Parsers, files: Map<string, string>): DeclaredItem[] {
  const items = new Map<string, DeclaredItem>();
  for (const [file, text] of files) {
    if (!file.endsWith('.go') || file.endsWith('_test.go') || /(^|\/)(internal|testdata|vendor|examples?|_examples|cmd)\//.test(file)) continue;
    const dir = path.posix.dirname(file);
    parsers.parse('go', text, (root) => {
      const children = namedChildren(root);
      const pkg = children.find((c) => c.type === 'package_clause')?.namedChildren[0]?.text;
      if (!pkg || pkg === 'main' || pkg.endsWith('_test')) return;
      const add = (local: string) => items.set(`${dir}:${local}`, { name: `${pkg}.${local}`, where: dir });
      for (const node of children) {
        if (node.type === 'function_declaration') {
          const name = node.childForFieldName('name')?.text;
          if (goExported(name)) add(name);
        } else if (node.type === 'method_declaration') {
          const name = node.childForFieldName('name')?.text;
          const receiver = node.childForFieldName('receiver')?.descendantsOfType('type_identifier')[0]?.text;
          if (goExported(name) && goExported(receiver)) add(`${receiver}.${name}`);
        } else if (['type_declaration', 'const_declaration', 'var_declaration'].includes(node.type)) {
          for (const spec of namedChildren(node).filter((c) => /_spec$/.test(c.type))) {
            for (const name of spec.childrenForFieldName('name').map((n) => n?.text)) if (goExported(name)) add(name);
          }
        }
      }
    });
  }
  return [...items.values()];
}
