// apiFromPythonPackage: the public API of a Python distribution from a tree-sitter parse of its sources: module, class,
// function and attribute docstrings (the string after `x: int = …`), `Annotated[…, Doc("…")]` parameter docs, named
// by their public path (`pydantic.ConfigDict.extra`, re-exports of package `__init__`s followed). Nothing is imported.
import { chunkByHeadings, splitLong } from './markdown.ts';
import { rstToMarkdown } from './rst.ts';
import { lineOf, namedChildren, type Parsers, type SyntaxNode } from './treesitter.ts';
import { cutText } from '../../text-cut.ts';
import type { PassageDraft } from './types.ts';

export interface PythonSource {
  /** Text files of the distribution, paths relative to its root. */
  files: Map<string, string>;
  /** Top-level import packages or modules (`top_level.txt`, else the distribution name). */
  importNames: string[];
  /**
   * Private top-level packages of the same distribution (`_pytest` beside `pytest`): read only for what a public
   * package re-exports from them, under that public name; the rest of them is not API.
   */
  privateNames?: string[];
  locate(file: string, where: { line?: number; anchor?: string }): string;
}

interface ModuleInfo {
  name: string;
  file: string;
  isPackage: boolean;
  all?: Set<string>;
  /** Names a package `__init__` brings in, and from which module (`from .config import ConfigDict`; pydantic's lazy map). */
  imported: Map<string, string | undefined>;
  /**
   * Every module's imports, module-level `if`/`try` branches included: the name bound → the module it comes from and
   * its name there, and whether the import says it re-exports (`from ._x import Y as Y`, the typing convention).
   */
  imports: Map<string, { from: string; name: string; explicit: boolean }>;
  /** Modules a `from … import *` reads. */
  stars: string[];
  /** Names the module binds by `def`, `class` or an assignment at its top level (documented or not). */
  defined: Set<string>;
}

interface Entry { module: ModuleInfo; local: string[]; node: SyntaxNode; draft: Omit<PassageDraft, 'symbol' | 'importance'>; kind: 'module' | 'class' | 'function' | 'member' | 'attribute' | 'reexport'; header: string }

/** Never public API, whatever they are named: vendored copies, tests, internals. */
const EXCLUDED_SEGMENT = /^(_internal|_vendor|_vendored|vendor|tests?|testing|_testing|conftest|benchmarks?|examples?|docs?|docs_src|scripts)$/;
const MAX_SIGNATURE = 400;

function stringValue(node: SyntaxNode): string | undefined {
  if (node.type === 'concatenated_string') return namedChildren(node).map(stringValue).join('');
  if (node.type !== 'string') return undefined;
  const start = namedChildren(node).find((c) => c.type === 'string_start')?.text ?? '"';
  const end = namedChildren(node).find((c) => c.type === 'string_end');
  const body = node.text.slice(start.length, end ? node.text.length - end.text.length : undefined);
  if (/[fF]/.test(start)) return undefined; // an f-string is not a docstring
  return /[rR]/.test(start) ? body : body.replace(/\\(\n|n|t|\\|'|")/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c === '\n' ? '' : c));
}

/** inspect.cleandoc: first line stripped, the rest dedented by their common indent. */
export function cleanDocstring(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const rest = lines.slice(1).filter((l) => l.trim());
  const cut = rest.length ? Math.min(...rest.map((l) => (/^\s*/.exec(l)?.[0] ?? '').length)) : 0;
  return [lines[0]!.trim(), ...lines.slice(1).map((l) => l.slice(cut).trimEnd())].join('\n').trim();
}

/** The docstring a body starts with (a module's, a class's or a function's), unescaped and cleaned as `inspect` does. */
export const docstringOf = (body: SyntaxNode | null): string | undefined => {
  const first = body ? namedChildren(body).find((c) => c.type !== 'comment') : undefined;
  const string = first?.type === 'expression_statement' ? first.namedChildren[0] : undefined;
  const value = string ? stringValue(string) : undefined;
  return value === undefined ? undefined : cleanDocstring(value);
};

const literalNames = (node: SyntaxNode | null): string[] =>
  node ? namedChildren(node).map(stringValue).filter((v): v is string => Boolean(v)) : [];

/** `name: Annotated[T, Doc("…")]` parameters: their names and docs (FastAPI, Typer). */
function parameterDocs(parameters: SyntaxNode | null): Array<{ name: string; doc: string }> {
  const docs: Array<{ name: string; doc: string }> = [];
  for (const parameter of parameters ? namedChildren(parameters) : []) {
    const type = parameter.childForFieldName('type');
    if (!type) continue;
    const call = type.descendantsOfType('call').find((c) => c?.childForFieldName('function')?.text === 'Doc');
    const argument = call?.childForFieldName('arguments')?.namedChildren[0];
    const doc = argument ? stringValue(argument) : undefined;
    const name = parameter.childForFieldName('name')?.text ?? namedChildren(parameter).find((c) => c.type === 'identifier')?.text;
    if (doc && name) docs.push({ name, doc: cleanDocstring(doc) });
  }
  return docs;
}

/** The `def`/`class` line as written, or names only when annotations make it unreadably long. */
function signatureOf(definition: SyntaxNode, decorators: string[]): string {
  const body = definition.childForFieldName('body');
  let text = body ? definition.text.slice(0, body.startIndex - definition.startIndex) : definition.text;
  text = text.replace(/\s+/g, ' ').replace(/\s*:\s*$/, '').trim();
  if (text.length > MAX_SIGNATURE) {
    const parameters = definition.childForFieldName('parameters');
    const names = parameters ? namedChildren(parameters).filter((p) => p.type !== 'comment').map((p) => (p.type === 'identifier' ? p.text : p.childForFieldName('name')?.text
      ?? namedChildren(p).find((c) => c.type === 'identifier')?.text ?? (p.type === 'keyword_separator' ? '*' : p.text.split(/[:=]/)[0]!.trim())))
      : [];
    const keyword = definition.type === 'class_definition' ? 'class' : /^async\s/.test(definition.text) ? 'async def' : 'def';
    text = `${keyword} ${definition.childForFieldName('name')?.text ?? ''}(${names.join(', ')})`;
  }
  return [...decorators.filter((d) => !/^@overload\b/.test(d)), text].join('\n');
}

export async function apiFromPythonPackage(parsers: Parsers, source: PythonSource): Promise<PassageDraft[]> {
  const modules = new Map<string, ModuleInfo>();
  const entries: Entry[] = [];
  const privateRoots = new Set((source.privateNames ?? []).map((n) => n.replace(/-/g, '_')));
  const roots = new Set([...source.importNames.map((n) => n.replace(/-/g, '_')), ...privateRoots]);
  // A root is a dotted path of folders when the distribution lives inside a namespace package
  // (opentelemetry-util-http → `opentelemetry.util.http`, poetry-core → `poetry.core`): matched as that run of segments.
  const rootPaths = [...roots].map((r) => r.split('.'));
  const rootStart = (parts: string[]) => {
    for (let i = 0; i < parts.length; i++) if (rootPaths.some((r) => r.every((segment, j) => parts[i + j] === segment))) return i;
    return -1;
  };
  const underRoot = (dotted: string) => [...roots].some((r) => dotted === r || dotted.startsWith(`${r}.`));

  // Each .py file under a top-level package (src/ and lib/ layouts included) is a module; a `.pyi` stub stands for a
  // module shipped without Python source (a compiled extension: pydantic_core, orjson) and is read like one.
  for (const [file, text] of source.files) {
    if (!file.endsWith('.py') && !(file.endsWith('.pyi') && !source.files.has(file.slice(0, -1)))) continue;
    const parts = file.replace(/\.pyi?$/, '').split('/');
    const start = rootStart(parts);
    if (start < 0 || parts.slice(start).some((p) => EXCLUDED_SEGMENT.test(p))) continue;
    const isPackage = parts[parts.length - 1] === '__init__';
    const dotted = parts.slice(start, isPackage ? -1 : undefined).join('.');
    const module: ModuleInfo = { name: dotted, file, isPackage, imported: new Map(), imports: new Map(), stars: [], defined: new Set() };
    modules.set(dotted, module);
    parsers.parse('python', text, (root) => readModule(root, module));
  }

  /**
   * A module docstring written as a page of reStructuredText sections (google-resumable-media's "Simple Downloads",
   * "Chunked Downloads", "Multipart Uploads" in one `__init__.py`) is a passage per section, titled by its heading, as
   * Rust's and Go's module docs are (rustdoc `# Heading`, go/doc `# Heading`); one without section titles stays one
   * passage, its text as written.
   */
  function moduleDocPage(module: ModuleInfo, doc: string): PassageDraft[] {
    const whole: PassageDraft = { url: source.locate(module.file, { line: 1 }), headings: [module.name], content: doc, source: module.file };
    const markdown = rstToMarkdown(doc);
    if (!/^#{1,6} /m.test(markdown)) return [whole];
    return chunkByHeadings(markdown, { pageTitle: module.name, fixedTitle: true, source: module.file, locate: () => whole.url });
  }

  function readModule(root: SyntaxNode, module: ModuleInfo): void {
    const moduleDoc = docstringOf(root);
    if (moduleDoc && moduleDoc.length > 40) {
      for (const draft of moduleDocPage(module, moduleDoc)) entries.push({ module, local: [], node: root, kind: 'module', header: '', draft });
    }
    for (const statement of namedChildren(root)) {
      const inner = statement.type === 'expression_statement' ? statement.namedChildren[0] : null;
      if (inner && (inner.type === 'assignment' || inner.type === 'augmented_assignment') && inner.childForFieldName('left')?.text === '__all__') {
        const names = literalNames(inner.childForFieldName('right'));
        module.all = new Set([...(inner.type === 'augmented_assignment' ? module.all ?? [] : []), ...names]);
      }
      if (module.isPackage && statement.type === 'import_from_statement') {
        const from = resolveRelative(module, statement.childForFieldName('module_name')?.text ?? '');
        for (const name of statement.childrenForFieldName('name')) {
          if (!name) continue;
          const original = (name.type === 'aliased_import' ? name.childForFieldName('name')?.text : name.text)?.split('.').pop();
          const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : original;
          if (alias) module.imported.set(alias, alias === original ? from : undefined);
        }
      }
      // Names another distribution defines, re-exported on purpose (`from starlette.responses import HTMLResponse as
      // HTMLResponse`, or listed in `__all__`): FastAPI's public API says where to import them from; their docs live in
      // the other package, so the passage says so.
      if (statement.type === 'import_from_statement' && !module.name.split('.').some((p) => p.startsWith('_'))) {
        const from = statement.childForFieldName('module_name')?.text ?? '';
        if (from && !from.startsWith('.') && !underRoot(from)) {
          for (const name of statement.childrenForFieldName('name')) {
            if (name?.type !== 'aliased_import') continue;
            const original = name.childForFieldName('name')?.text;
            const alias = name.childForFieldName('alias')?.text;
            if (!original || alias !== original || alias.startsWith('_')) continue;
            entries.push({
              module, local: [alias], node: name, kind: 'reexport', header: `from ${from} import ${alias}`,
              draft: { url: source.locate(module.file, { line: lineOf(name) }), headings: [module.name, alias], source: module.file,
                content: `Re-exported from another package: \`${from}.${alias}\` (its documentation is in that package).` },
            });
          }
        }
      }
      // pydantic's lazy exports: `_dynamic_imports = {'ConfigDict': (__spec__.parent, '.config'), …}`.
      const right = inner?.type === 'assignment' ? inner.childForFieldName('right') : null;
      if (module.isPackage && right?.type === 'dictionary') {
        for (const pair of namedChildren(right).filter((c) => c.type === 'pair')) {
          const key = pair.childForFieldName('key');
          const target = pair.childForFieldName('value')?.namedChildren.map((c) => (c ? stringValue(c) : undefined)).find((v) => v?.startsWith('.'));
          const name = key ? stringValue(key) : undefined;
          if (name && target) module.imported.set(name, resolveRelative(module, target));
        }
      }
    }
    readImports(namedChildren(root), module);
    readBlock(namedChildren(root), module, []);
  }

  /** Every module's imports and top-level names, for following a public name to its definition (`definerOf`). */
  function readImports(statements: SyntaxNode[], module: ModuleInfo): void {
    for (const statement of statements) {
      if (statement.type === 'if_statement' || statement.type === 'try_statement') {
        for (const block of statement.descendantsOfType('block')) {
          if (block && (block.parent?.id === statement.id || block.parent?.parent?.id === statement.id)) readImports(namedChildren(block), module);
        }
        continue;
      }
      if (statement.type === 'import_from_statement') {
        const from = resolveRelative(module, statement.childForFieldName('module_name')?.text ?? '');
        if (!from) continue;
        if (namedChildren(statement).some((c) => c.type === 'wildcard_import')) { module.stars.push(from); continue; }
        for (const name of statement.childrenForFieldName('name')) {
          if (!name) continue;
          const original = (name.type === 'aliased_import' ? name.childForFieldName('name')?.text : name.text)?.split('.').pop();
          const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : original;
          if (alias && original && !module.imports.has(alias)) module.imports.set(alias, { from, name: original, explicit: name.type === 'aliased_import' && alias === original });
        }
        continue;
      }
      let definition = statement;
      if (statement.type === 'decorated_definition') definition = statement.childForFieldName('definition') ?? statement;
      if (definition.type === 'class_definition' || definition.type === 'function_definition') {
        const name = definition.childForFieldName('name')?.text;
        if (name) module.defined.add(name);
        continue;
      }
      const assignment = statement.type === 'expression_statement' ? statement.namedChildren[0] : null;
      const target = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : null;
      if (target?.type === 'identifier') module.defined.add(target.text);
    }
  }

  /** `.config` from package `pydantic` → `pydantic.config`; absolute names stay. */
  function resolveRelative(module: ModuleInfo, spec: string): string | undefined {
    const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
    if (!dots) return spec || undefined;
    const base = module.name.split('.').slice(0, module.isPackage ? undefined : -1);
    const up = base.slice(0, base.length - (dots - 1));
    const rest = spec.slice(dots);
    return [...up, ...(rest ? [rest] : [])].join('.');
  }

  function readBlock(statements: SyntaxNode[], module: ModuleInfo, owner: string[]): void {
    for (let i = 0; i < statements.length; i++) {
      const statement = statements[i]!;
      if (!owner.length && (statement.type === 'if_statement' || statement.type === 'try_statement')) {
        // Module-level `if sys.version_info >= …:` / `try: … except ImportError:` branches define public API too (six,
        // typing_extensions): each branch's block is read as the module's own (not the bodies of what they define).
        for (const block of statement.descendantsOfType('block')) {
          if (block && (block.parent?.id === statement.id || block.parent?.parent?.id === statement.id)) readBlock(namedChildren(block), module, owner);
        }
        continue;
      }
      let definition = statement;
      const decorators: string[] = [];
      if (statement.type === 'decorated_definition') {
        definition = statement.childForFieldName('definition') ?? statement;
        for (const d of namedChildren(statement)) if (d.type === 'decorator') decorators.push(d.text.replace(/\s+/g, ' '));
      }
      if (definition.type === 'class_definition' || definition.type === 'function_definition') {
        const name = definition.childForFieldName('name')?.text ?? '';
        const isInit = name === '__init__';
        if (name.startsWith('_') && !isInit) continue;
        const body = definition.childForFieldName('body');
        const doc = docstringOf(body) ?? '';
        const params = definition.type === 'function_definition' ? parameterDocs(definition.childForFieldName('parameters')) : [];
        const isClass = definition.type === 'class_definition';
        if (isInit) {
          // The constructor's docs belong to the class a reader asks about.
          if ((doc || params.length) && owner.length) addEntry(module, owner, statement, 'member', signatureOf(definition, decorators), doc, params);
          continue;
        }
        if (doc || params.length) {
          addEntry(module, [...owner, name], statement, isClass ? 'class' : owner.length ? 'member' : 'function', signatureOf(definition, decorators), doc, params);
        }
        if (isClass && body && owner.length < 2) readBlock(namedChildren(body), module, [...owner, name]);
        continue;
      }
      // An attribute docstring: a string statement right after an assignment (`extra: ExtraValues | None` then """…""").
      const assignment = statement.type === 'expression_statement' ? statement.namedChildren[0] : null;
      const next = statements[i + 1];
      const nextString = next?.type === 'expression_statement' ? next.namedChildren[0] : null;
      if (assignment?.type === 'assignment' && nextString && (nextString.type === 'string' || nextString.type === 'concatenated_string')) {
        const target = assignment.childForFieldName('left');
        const name = target?.type === 'identifier' ? target.text : undefined;
        const doc = stringValue(nextString);
        if (name && !name.startsWith('_') && name !== '__all__' && doc) {
          const code = assignment.text.replace(/\s+/g, ' ');
          addEntry(module, [...owner, name], statement, 'attribute', cutText(code, MAX_SIGNATURE), cleanDocstring(doc), []);
        }
      }
    }
  }

  function addEntry(module: ModuleInfo, local: string[], node: SyntaxNode, kind: Entry['kind'], signature: string, doc: string, params: Array<{ name: string; doc: string }>): void {
    const parameters = params.length ? `\n\nParameters:\n${params.map((p) => `- \`${p.name}\`: ${p.doc.replace(/\n/g, '\n  ')}`).join('\n')}` : '';
    entries.push({
      module, local, node, kind, header: signature,
      draft: { url: source.locate(module.file, { line: lineOf(node) }), headings: [module.name, local.join('.')], content: `${doc}${parameters}`.trim(), source: module.file },
    });
  }

  /** The shortest public path: the outermost package whose `__init__` exports the name (`pydantic.ConfigDict`). */
  function publicPath(module: ModuleInfo, name: string): { path: string; exported: boolean; privateModule: boolean } {
    const parts = module.name.split('.');
    const reexport = reexportedAs.get(`${module.name}:${name}`);
    for (let depth = 1; depth <= parts.length; depth++) {
      const pkg = modules.get(parts.slice(0, depth).join('.'));
      if (!pkg?.isPackage || pkg === module || !(pkg.all?.has(name) || pkg.imported.has(name))) continue;
      // A private package's export (`_pytest._code.ExceptionInfo`) is not the public path when a public one exists.
      if (reexport && pkg.name.split('.').some((p) => p.startsWith('_'))) continue;
      // The export must come from this module: pydantic.Field is pydantic/fields.py's, not pydantic/v1/fields.py's.
      const from = pkg.imported.get(name);
      const origin = from ?? shallowestDefiner.get(`${pkg.name}:${name}`);
      if (origin === undefined || origin === module.name || module.name.startsWith(`${origin}.`)) {
        return { path: `${pkg.name}.${name}`, exported: true, privateModule: false };
      }
    }
    // Exported by a package outside the module's own path: a public package re-exporting what a private sibling
    // package of the same distribution defines (`pytest` doing `from _pytest.python_api import approx`).
    const elsewhere = exportedBy.get(`${module.name}:${name}`);
    if (elsewhere && parts.some((p) => p.startsWith('_'))) return { path: `${elsewhere}.${name}`, exported: true, privateModule: false };
    const privateModule = parts.some((p) => p.startsWith('_'));
    const visible = parts.filter((p, i) => i === 0 || !p.startsWith('_')).join('.');
    // Re-exported by a public module, followed through imports to this definition: that path, when the definition's
    // own module is private or the re-export is shallower (`weaviate.classes.query.Filter`).
    if (reexport && (privateModule || reexport.split('.').length < parts.length + 1)) return { path: reexport, exported: true, privateModule: false };
    const listed = !module.all || module.all.has(name);
    return { path: `${visible}.${name}`, exported: false, privateModule: privateModule || !listed };
  }

  // `module:name` → the public package (no underscored segment) whose `__init__` imports that name from that module
  // by its absolute path; the shallowest such package wins.
  const exportedBy = new Map<string, string>();
  for (const pkg of modules.values()) {
    if (!pkg.isPackage || pkg.name.split('.').some((p) => p.startsWith('_'))) continue;
    for (const [name, from] of pkg.imported) {
      if (!from || from === pkg.name || from.startsWith(`${pkg.name}.`) || (pkg.all && !pkg.all.has(name))) continue;
      const key = `${from}:${name}`;
      const known = exportedBy.get(key);
      if (!known || known.split('.').length > pkg.name.split('.').length) exportedBy.set(key, pkg.name);
    }
  }

  /**
   * The module that defines what `module` binds as `name`, following its imports, their chains (`pkg` → `pkg.api` →
   * `pkg._client`) and `from … import *` (the source's `__all__`, else its public names), as Python resolves them.
   */
  function definerOf(moduleName: string, name: string, seen = new Set<string>()): { module: ModuleInfo; name: string } | undefined {
    const module = modules.get(moduleName);
    const key = `${moduleName}:${name}`;
    if (!module || seen.has(key) || seen.size > 20) return undefined;
    seen.add(key);
    // An import first: `try: from ._speedups import parse` / `except ImportError: parse = None` binds the import.
    const imported = module.imports.get(name);
    const found = imported && definerOf(imported.from, imported.name, seen);
    if (found) return found;
    if (module.defined.has(name)) return { module, name };
    for (const star of module.stars) {
      const source = modules.get(star);
      if (source && (source.all ? source.all.has(name) : !name.startsWith('_'))) {
        const starred = definerOf(star, name, seen);
        if (starred) return starred;
      }
    }
    return undefined;
  }

  /** What a module says it exports: its `__all__`; else a package's imports and star imports, a module's `X as X`. */
  function exportsOf(module: ModuleInfo): string[] {
    if (module.all) return [...module.all];
    const names = [...module.imports].filter(([alias, i]) => !alias.startsWith('_') && (module.isPackage || i.explicit)).map(([alias]) => alias);
    if (module.isPackage) {
      for (const star of module.stars) {
        const source = modules.get(star);
        if (source) names.push(...(source.all ?? [...source.defined, ...source.imports.keys()].filter((n) => !n.startsWith('_'))));
      }
    }
    return names;
  }

  // `definer:name` → the shortest public path a public module (no underscored segment, no private root) re-exports it
  // under, resolved through imports and star imports to the module that defines it: `weaviate.classes.query.Filter`
  // for what `weaviate/collections/classes/filters.py` defines, `pkg.Client` for `pkg._client.Client` via `pkg.api`.
  const reexportedAs = new Map<string, string>();
  for (const module of modules.values()) {
    const parts = module.name.split('.');
    if (parts.some((p) => p.startsWith('_')) || privateRoots.has(parts[0]!)) continue;
    for (const name of new Set(exportsOf(module))) {
      if (name.startsWith('_')) continue;
      const found = definerOf(module.name, name);
      if (!found || found.module === module) continue;
      const key = `${found.module.name}:${found.name}`;
      const path = `${module.name}.${name}`;
      const known = reexportedAs.get(key);
      if (!known || known.split('.').length > path.split('.').length) reexportedAs.set(key, path);
    }
  }

  // For an `__all__` name with no import to say where it comes from: the shallowest module of the package defining it.
  const shallowestDefiner = new Map<string, string>();
  for (const entry of entries) {
    if (entry.local.length !== 1 || entry.kind === 'reexport') continue;
    const parts = entry.module.name.split('.');
    for (let depth = 1; depth < parts.length; depth++) {
      const key = `${parts.slice(0, depth).join('.')}:${entry.local[0]}`;
      const known = shallowestDefiner.get(key);
      if (!known || known.split('.').length > parts.length) shallowestDefiner.set(key, entry.module.name);
    }
  }

  const drafts: PassageDraft[] = [];
  for (const entry of entries) {
    if (privateRoots.has(entry.module.name.split('.')[0]!)
      && (entry.kind === 'module' || entry.kind === 'reexport'
        || !(exportedBy.has(`${entry.module.name}:${entry.local[0]}`) || reexportedAs.has(`${entry.module.name}:${entry.local[0]}`)))) continue;
    const depth = entry.module.name.split('.').length - 1;
    let symbol: string;
    let importance: number;
    let internal = false;
    if (entry.kind === 'module') {
      symbol = entry.module.name;
      internal = entry.module.name.split('.').some((p) => p.startsWith('_'));
      importance = internal ? 0.2 : 0.85 - 0.05 * depth;
    } else {
      const where = publicPath(entry.module, entry.local[0]!);
      symbol = [where.path, ...entry.local.slice(1)].join('.');
      internal = where.privateModule;
      importance = where.exported ? 0.85 - 0.03 * depth : 0.75 - 0.04 * depth;
      if (entry.local.length > 1) importance -= 0.05;
      if (entry.kind === 'reexport') importance -= 0.2; // documented elsewhere: found, but below the package's own API
      if (internal) importance = 0.2;
    }
    const deprecated = /\.\. deprecated::|^\s*deprecated\b/im.test(entry.draft.content.slice(0, 300)) || /^@(\w+\.)*deprecated\b/m.test(entry.header);
    if (deprecated) importance -= 0.3;
    // A module doc's section keeps its heading as its title (its symbol is still the module's).
    const title = entry.kind === 'module' && entry.draft.headings.length > 1 ? entry.draft.title ?? symbol : symbol;
    const identifiers = [symbol.toLowerCase(), entry.local.join('.').toLowerCase(), (entry.local[entry.local.length - 1] ?? '').toLowerCase()].filter(Boolean);
    const chunks = splitLong(entry.draft.content);
    chunks.forEach((chunk, i) => {
      const header = entry.header ? `\`\`\`python\n${entry.header}\n\`\`\`\n\n` : '';
      drafts.push({ ...entry.draft, title, symbol, importance, internal: internal || undefined, deprecated: deprecated || undefined, identifiers: [...new Set(identifiers)],
        content: i === 0 || entry.header.length < 200 ? `${header}${chunk}` : chunk });
    });
  }
  return drafts;
}
