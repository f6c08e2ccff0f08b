// apiFromNpmPackage: the public API of an npm package from its TypeScript declarations, read with the TypeScript
// compiler API: the package.json `exports`/`types` entry points, what each exports (through re-exports and bundler
// chunks), JSDoc as the compiler attaches it, members of exported interfaces and classes. Nothing is run.
import path from 'node:path';
import type TS from 'typescript';
import { splitLong } from './markdown.ts';
import { cutText, headOf } from '../../text-cut.ts';
import type { PassageDraft } from './types.ts';

export interface NpmSource {
  name: string;
  /** Text files of the tarball (declarations and package.json at least), paths relative to the package root. */
  files: Map<string, string>;
  manifest: { exports?: unknown; types?: string; typings?: string; main?: string; module?: string };
  locate(file: string, where: { line?: number; anchor?: string }): string;
}

const DECLARATION = /\.d\.(ts|mts|cts)$/;
/** Documented members summarised in a comment-less owner's passage, at most. */
const MAX_SUMMARIES = 30;
/** A doc's first sentence (its first paragraph up to a full stop), on one line, at most 160 characters. */
const summaryOf = (doc: string) => {
  const first = doc.split(/\n\s*\n|\n@/)[0]!.replace(/\s+/g, ' ').trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(first)?.[0] ?? first;
  return sentence.length > 160 ? `${headOf(sentence, 157)}…` : sentence;
};
/** A doc that is nothing but `@see` lines and `{@link …}` references. */
const onlyPointer = (doc: string) => !doc.replace(/\{@link(code|plain)?\s[^}]*\}/g, '').replace(/(^|\n)@see\b[^\n]*/g, '').replace(/[\s.,;:()-]/g, '');
const ROOT = '/pkg';
/** At most this many properties of an `export =` value are read (a bound on generated, very wide types). */
const MAX_ASSIGNED = 400;
const MAX_SIGNATURE = 700;
const MAX_MEMBERS = 300;
/** Comment-less member signatures folded into their owner's passage, at most. */
const MAX_FOLDED = 40;

let compiler: Promise<typeof TS> | undefined;
/** The compiler is large (about 0.3 s to load): loaded when the first npm package is indexed. */
export const loadCompiler = () => (compiler ??= import('typescript').then((m) => (m as { default?: typeof TS }).default ?? (m as unknown as typeof TS)));

/** The declaration file a runtime path stands for (`./dist/index.js` → `dist/index.d.ts`). */
function declarationFor(target: string, files: Map<string, string>): string | undefined {
  const clean = path.posix.normalize(target.replace(/^\.\//, ''));
  if (DECLARATION.test(clean)) return files.has(clean) ? clean : undefined;
  const stem = clean.replace(/\.(m|c)?js$/, '');
  const ext = /\.mjs$/.test(clean) ? ['.d.mts', '.d.ts'] : /\.cjs$/.test(clean) ? ['.d.cts', '.d.ts'] : ['.d.ts', '.d.mts', '.d.cts'];
  for (const candidate of [...ext.map((e) => stem + e), `${clean}/index.d.ts`]) if (files.has(candidate)) return candidate;
  return undefined;
}

/** Entry points with declarations: each `exports` subpath's `types` (or its .js's sibling), else `types`/`main`. */
export function typeEntries(source: Pick<NpmSource, 'files' | 'manifest'>): Array<{ subpath: string; file: string }> {
  const entries = new Map<string, string>();
  const visit = (value: unknown, subpath: string): string | undefined => {
    if (typeof value === 'string') return declarationFor(value, source.files);
    if (Array.isArray(value)) { for (const v of value) { const found = visit(v, subpath); if (found) return found; } return undefined; }
    if (!value || typeof value !== 'object') return undefined;
    const conditions = value as Record<string, unknown>;
    for (const key of ['types', 'typings', 'import', 'default', 'require', 'node']) {
      const found = key in conditions ? visit(conditions[key], subpath) : undefined;
      if (found) return found;
    }
    for (const v of Object.values(conditions)) { const found = visit(v, subpath); if (found) return found; }
    return undefined;
  };
  const exportsField = source.manifest.exports;
  if (exportsField && typeof exportsField === 'object' && !Array.isArray(exportsField) && Object.keys(exportsField).some((k) => k.startsWith('.'))) {
    for (const [subpath, value] of Object.entries(exportsField as Record<string, unknown>)) {
      if (subpath.includes('*') || subpath.endsWith('package.json')) continue;
      const file = visit(value, subpath);
      if (file && !entries.has(subpath)) entries.set(subpath, file);
    }
  } else if (exportsField) {
    const file = visit(exportsField, '.');
    if (file) entries.set('.', file);
  }
  if (!entries.has('.')) {
    const file = [source.manifest.types, source.manifest.typings, source.manifest.main, source.manifest.module, 'index.d.ts']
      .map((t) => (t ? declarationFor(t, source.files) : undefined)).find(Boolean);
    if (file) entries.set('.', file);
  }
  // The main entry first, wherever package.json lists it (lru-cache lists `./raw` before `.`): an item both export is
  // named and ranked as the main entry's, as a reader imports it.
  return [...entries].sort(([a], [b]) => Number(b === '.') - Number(a === '.')).map(([subpath, file]) => ({ subpath, file }));
}

/** JSDoc body without the comment markers; @example blocks become fenced code, @param lines stay readable. */
export function cleanJsDoc(comment: string): string {
  const lines = comment.replace(/^\/\*\*/, '').replace(/\*\/$/, '').split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').replace(/\s+$/, ''));
  const out: string[] = [];
  let inExample = false;
  const closeExample = () => {
    while (out[out.length - 1] === '') out.pop();
    if (out[out.length - 1] === '```ts') out.pop();
    else out.push('```');
    inExample = false;
  };
  for (const line of lines) {
    const tag = /^@(\w+)\s*(.*)$/.exec(line.trim());
    if (tag && inExample) closeExample();
    if (tag?.[1] === 'example') {
      inExample = true;
      let rest = tag[2] ?? '';
      // JSDoc's `@example <caption>Title</caption>` titles the example: the title is prose, not code.
      const caption = /^<caption>([\s\S]*?)<\/caption>\s*/.exec(rest);
      if (caption) {
        out.push('', caption[1]!.trim());
        rest = rest.slice(caption[0].length);
      }
      out.push('', rest.startsWith('```') ? rest : '```ts');
      if (rest && !rest.startsWith('```')) out.push(rest);
      continue;
    }
    if (inExample && line.startsWith('```')) continue; // the example brought its own fence
    out.push(line);
  }
  if (inExample) closeExample();
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

export async function apiFromNpmPackage(source: NpmSource): Promise<PassageDraft[]> {
  const entries = typeEntries(source);
  const declarationFiles = [...source.files.keys()].filter((f) => DECLARATION.test(f));
  if (!declarationFiles.length) return [];
  const ts = await loadCompiler();
  const abs = (file: string) => `${ROOT}/${file}`;
  const rel = (file: string) => file.slice(ROOT.length + 1);
  const options: TS.CompilerOptions = {
    noLib: true, noEmit: true, skipLibCheck: true, types: [], allowJs: false, target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noResolve: false,
  };
  const host: TS.CompilerHost = {
    getSourceFile: (file, version) => {
      const text = source.files.get(rel(file));
      return text === undefined ? undefined : ts.createSourceFile(file, text, version, true);
    },
    getDefaultLibFileName: () => `${ROOT}/lib.d.ts`,
    writeFile: () => undefined,
    getCurrentDirectory: () => ROOT,
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (f) => f.startsWith(`${ROOT}/`) && source.files.has(rel(f)),
    readFile: (f) => (f.startsWith(`${ROOT}/`) ? source.files.get(rel(f)) : undefined),
    directoryExists: (d) => d === ROOT || declarationFiles.some((f) => abs(f).startsWith(`${d}/`)),
    realpath: (f) => f,
  };
  // Without entry points every declaration file is a root; their own exports are then the API.
  const roots = entries.length ? entries.map((e) => abs(e.file)) : declarationFiles.map(abs);
  const program = ts.createProgram({ rootNames: roots, options, host });
  const checker = program.getTypeChecker();

  const drafts: PassageDraft[] = [];
  const seen = new Set<TS.Node>();
  const lineOf = (node: TS.Node) => node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;

  /** The `/** … *\/` comment the compiler attaches to a declaration (to its statement, for a variable). */
  const docOf = (node: TS.Node): string => {
    const holder = ts.isVariableDeclaration(node) ? node.parent.parent : node;
    const text = holder.getSourceFile().text;
    const ranges = ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? [];
    const last = ranges.filter((r) => text.startsWith('/**', r.pos)).pop();
    return last ? cleanJsDoc(text.slice(last.pos, last.end)) : '';
  };
  const skipped = (doc: string) => /(^|\n)@(internal|private|hidden|ignore)\b/.test(doc);
  const deprecatedDoc = (doc: string) => /(^|\n)@deprecated\b/.test(doc);

  /** A declaration's text without its body or members, single-spaced. */
  const signatureOf = (node: TS.Node): string => {
    const holder = ts.isVariableDeclaration(node) ? node.parent.parent : node;
    let text = holder.getText();
    if (ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node) || ts.isModuleDeclaration(node) || ts.isEnumDeclaration(node)) {
      const open = text.indexOf('{');
      if (open > 0 && (!ts.isEnumDeclaration(node) || text.length > MAX_SIGNATURE)) text = text.slice(0, open);
    } else if (ts.isTypeAliasDeclaration(node) && literalMembers(node.type).length) {
      // An object type's members are its passage's members (and their comments theirs), as an interface's are.
      text = `${text.slice(0, node.type.getStart() - holder.getStart())}{`;
    }
    text = text.replace(/\s+/g, ' ').replace(/[;{]\s*$/, '').trim();
    return cutText(text, MAX_SIGNATURE);
  };

  /**
   * The names a folded member is asked by, as identifiers of its owner's passage: every `Owner.member` first, then the
   * bare names (the store caps the extractor's identifiers, src/docs/repository.ts, and symbol lookup reads the
   * qualified ones). A question or a symbol lookup naming a comment-less member then finds the passage it is folded
   * into, as it finds a documented one.
   */
  const foldedIdentifiers = (title: string, members: string[]): string[] => {
    const owner = title.split('.').pop()!.toLowerCase();
    return [...members.map((m) => `${owner}.${m.toLowerCase()}`), ...members.filter((m) => m.length >= 3).map((m) => m.toLowerCase())];
  };

  const push = (node: TS.Node, symbol: string, title: string, signatures: string[], doc: string, importance: number, internal: boolean, foldedMembers: string[] = []) => {
    const file = rel(node.getSourceFile().fileName);
    const deprecated = deprecatedDoc(doc);
    const score = importance - (doc ? 0 : 0.3) - (deprecated ? 0.4 : 0);
    const header = `\`\`\`ts\n${signatures.join('\n')}\n\`\`\``;
    splitLong(doc ? `${header}\n\n${doc}` : header).forEach((content, i) => drafts.push({
      url: source.locate(file, { line: lineOf(node) }), title, headings: [symbol.slice(0, symbol.length - title.length - 1) || source.name, title],
      content: i === 0 ? content : `${header}\n\n${content}`, source: file, symbol, importance: score, internal: internal || undefined,
      deprecated: deprecated || undefined, identifiers: [...new Set([title.toLowerCase(), title.split('.').pop()!.toLowerCase(), ...foldedIdentifiers(title, foldedMembers)])],
    }));
  };

  const memberName = (member: TS.ClassElement | TS.TypeElement): string | undefined => {
    const name = member.name;
    if (!name) return ts.isConstructorDeclaration(member) || ts.isConstructSignatureDeclaration(member) ? 'constructor' : undefined;
    if (ts.isPrivateIdentifier(name)) return undefined;
    return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
  };

  /**
   * Members of an exported interface or class: a documented member is a passage of its own; the comment-less ones
   * are folded into the owner's passage (their signatures in its code), where a reader of the owner sees them, instead
   * of each standing alone as a bare declaration that outranks the documented item for the same words.
   */
  const emitMembers = (members: ReadonlyArray<TS.ClassElement | TS.TypeElement>, prefix: string, title: string, importance: number, internal: boolean): { folded: string[]; foldedNames: string[]; documented: string[] } => {
    const groups = new Map<string, TS.Node[]>();
    for (const member of members) {
      const name = memberName(member);
      if (!name || name.startsWith('_') || name.startsWith('~')) continue;
      const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : [];
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
      groups.set(name, [...(groups.get(name) ?? []), member]);
      if (groups.size > MAX_MEMBERS) break;
    }
    const folded: string[] = [];
    const foldedNames: string[] = [];
    const documented: string[] = [];
    for (const [name, members] of groups) {
      // Overloads share the documented sibling's comment (the compiler attaches it to one of them).
      const doc = members.map(docOf).find(Boolean) ?? '';
      if (skipped(doc) || (name === 'constructor' && !doc)) continue;
      // A comment that only points elsewhere (`@see _.debounce`, on @types/lodash's chain wrappers; `{@link
      // LRUCache.OptionsBase.ttl}` on lru-cache's mirrored options) explains nothing here.
      if (!doc || onlyPointer(doc)) {
        if (folded.length < MAX_FOLDED) {
          folded.push(...members.map((m) => `  ${signatureOf(m)};`));
          foldedNames.push(name);
        }
        continue;
      }
      push(members[0]!, `${prefix}.${title}.${name}`, `${title}.${name}`, members.map(signatureOf), doc, importance - 0.05, internal);
      if (documented.length < MAX_SUMMARIES) documented.push(`- \`${name}\`: ${summaryOf(doc)}`);
    }
    return { folded, foldedNames, documented };
  };

  /**
   * What a declaration that only names another one stands for: `export const createFile: typeof ensureFile` (a value
   * typed as another value, often with nothing but `@see ensureFile` of its own) or `export type Options = BaseOptions`
   * (a type that is another type). The compiler resolves the name it points to; that declaration's first sentence,
   * marked as the alias's, explains the alias, instead of a bare line that only the other item's passage explains.
   */
  const aliasDoc = (node: TS.Declaration): string => {
    const pointer = ts.isVariableDeclaration(node) && node.type && ts.isTypeQueryNode(node.type) ? node.type.exprName
      : ts.isTypeAliasDeclaration(node) && ts.isTypeReferenceNode(node.type) && !node.type.typeArguments?.length && !node.typeParameters?.length ? node.type.typeName
        : undefined;
    const documented = (name: TS.Node): string | undefined => {
      let symbol = checker.getSymbolAtLocation(name);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      return (symbol?.declarations ?? []).filter((d) => d !== node && d.getSourceFile().fileName.startsWith(`${ROOT}/`))
        .map(docOf).find((d) => d && !onlyPointer(d) && !skipped(d));
    };
    const target = pointer && documented(pointer);
    if (target) return `Alias of \`${pointer.getText()}\`: ${summaryOf(target)}`;
    // Else the item the author's own `@see name` points to (`/** @see readJson */ export const readJSON: typeof
    // jsonfile.readFile`: the typed target lives in another package, the one named is documented here).
    for (const tag of ts.getJSDocTags(node).filter(ts.isJSDocSeeTag)) {
      const name = tag.name?.name;
      const doc = name && documented(name);
      if (doc) return `See \`${name.getText()}\`: ${summaryOf(doc)}`;
    }
    return '';
  };

  const emitDeclaration = (node: TS.Declaration, prefix: string, name: string, importance: number, internal: boolean) => {
    if (seen.has(node) || ts.isSourceFile(node)) return;
    seen.add(node);
    const own = docOf(node);
    const doc = !own || onlyPointer(own) ? aliasDoc(node) || own : own;
    if (skipped(doc)) return;
    // A comment-less namespace merged with the function or class of its name (`function mkdtemp` + `namespace mkdtemp`)
    // is that item's typing device: its exports are read on their own, the bare `namespace x` line says nothing.
    if (ts.isModuleDeclaration(node) && !doc && checker.getSymbolAtLocation(node.name)?.declarations?.some((d) => !ts.isModuleDeclaration(d))) return;
    const members = ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node) ? [...node.members as TS.NodeArray<TS.ClassElement | TS.TypeElement>]
      : ts.isTypeAliasDeclaration(node) ? literalMembers(node.type) : [];
    const { folded, foldedNames, documented } = members.length ? emitMembers(members, prefix, name, importance, internal) : { folded: [], foldedNames: [], documented: [] };
    const head = signatureOf(node);
    const signature = folded.length ? `${head} {\n${folded.join('\n')}\n}` : ts.isTypeAliasDeclaration(node) && members.length ? `${head} { … }` : head;
    // A type without a comment of its own whose members are documented (`interface Options { /** … */ x }`) is
    // explained by them, as a documentation page lists them: its passage carries each member's first sentence.
    push(node, `${prefix}.${name}`, name, [signature], doc || (documented.length ? `Members:\n\n${documented.join('\n')}` : ''), importance, internal, foldedNames);
  };

  /**
   * The members an object type alias spells out (`type Options = { /** … *\/ lineWidth?: number }`, also through
   * intersections and parentheses): documented like an interface's, and read as such.
   */
  const literalMembers = (type: TS.TypeNode): TS.TypeElement[] => {
    if (ts.isParenthesizedTypeNode(type)) return literalMembers(type.type);
    if (ts.isTypeLiteralNode(type)) return [...type.members];
    if (ts.isIntersectionTypeNode(type)) return type.types.flatMap(literalMembers);
    return [];
  };

  /** Overloads of an exported function: one passage, every signature, the documented sibling's comment. */
  const emitOverloads = (declarations: TS.FunctionDeclaration[], prefix: string, name: string, importance: number) => {
    const fresh = declarations.filter((d) => !seen.has(d));
    if (!fresh.length) return;
    fresh.forEach((d) => seen.add(d));
    const doc = fresh.map(docOf).find(Boolean) ?? '';
    if (skipped(doc)) return;
    push(fresh[0]!, `${prefix}.${name}`, name, fresh.map(signatureOf), doc, importance, false);
  };

  /** Everything a module exports, aliases followed to their declarations (bundler chunks included). */
  const emitModule = (moduleSymbol: TS.Symbol, prefix: string, namespace: string, importance: number, depth: number) => {
    const exports = checker.getExportsOfModule(moduleSymbol).sort((a, b) => Number(isNamespace(a)) - Number(isNamespace(b)) || a.name.localeCompare(b.name));
    for (const exported of exports) {
      if (exported.name === 'default' && exports.length > 1) continue;
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const name = namespace ? `${namespace}.${exported.name}` : exported.name;
      if (isNamespace(exported) && target.flags & ts.SymbolFlags.ValueModule && depth < 1) {
        emitModule(target, prefix, name, importance - 0.05, depth + 1);
        continue;
      }
      const declarations = (target.declarations ?? []).filter((d) => d.getSourceFile().fileName.startsWith(`${ROOT}/`));
      const functions = declarations.filter(ts.isFunctionDeclaration);
      if (functions.length > 1) emitOverloads(functions, prefix, name, importance);
      for (const declaration of declarations) if (!(functions.length > 1 && ts.isFunctionDeclaration(declaration))) emitDeclaration(declaration, prefix, name, importance, false);
      // A namespace (alone or merged with a class or function, as `LRUCache.OptionsBase`): what it exports is API too.
      if (depth < 2 && declarations.some((d) => ts.isModuleDeclaration(d) && d.body)) emitNamespace(target, prefix, name, importance - 0.05, depth + 1);
    }
  };
  /** The exports declared inside a namespace's body (not a merged class's statics, which its members already are). */
  const emitNamespace = (namespaceSymbol: TS.Symbol, prefix: string, namespace: string, importance: number, depth: number) => {
    for (const exported of checker.getExportsOfModule(namespaceSymbol).sort((a, b) => a.name.localeCompare(b.name))) {
      const declarations = (exported.declarations ?? []).filter((d) => d.parent && ts.isModuleBlock(d.parent)
        && d.getSourceFile().fileName.startsWith(`${ROOT}/`));
      // `__promisify__` and other underscored names are typing devices, not API a reader calls.
      if (!declarations.length || exported.name.startsWith('_')) continue;
      const name = `${namespace}.${exported.name}`;
      const functions = declarations.filter(ts.isFunctionDeclaration);
      if (functions.length > 1) emitOverloads(functions, prefix, name, importance);
      for (const declaration of declarations) if (!(functions.length > 1 && ts.isFunctionDeclaration(declaration))) emitDeclaration(declaration, prefix, name, importance, false);
      if (depth < 2 && declarations.some((d) => ts.isModuleDeclaration(d) && d.body)) emitNamespace(exported, prefix, name, importance - 0.05, depth + 1);
    }
  };
  const isNamespace = (symbol: TS.Symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return Boolean(target.flags & ts.SymbolFlags.ValueModule && target.declarations?.some((d) => ts.isSourceFile(d)));
  };

  const entryFiles = entries.length ? entries : declarationFiles.map((file) => ({ subpath: '.', file }));
  for (const { subpath, file } of entryFiles) {
    const sourceFile = program.getSourceFile(abs(file));
    const moduleSymbol = sourceFile ? checker.getSymbolAtLocation(sourceFile) : undefined;
    if (!moduleSymbol) continue;
    const prefix = subpath === '.' ? source.name : `${source.name}/${subpath.replace(/^\.\//, '')}`;
    const importance = !entries.length ? 0.6 : subpath === '.' ? 0.85 : 0.8;
    emitModule(moduleSymbol, prefix, '', importance, 0);
    // `export = value` where the value's type is an interface the entry does not export, or an object type
    // (`declare const pc: Colors & { createColors(…) }`): its properties are what a reader calls (`pc.green`), and
    // nothing above reaches them. Properties already read as members of an exported interface, class or namespace are
    // not repeated. As with an interface's members, a documented property is a passage of its own and the
    // comment-less ones are folded into the value's passage, instead of each standing alone as a bare declaration.
    const assigned = moduleSymbol.exports?.get('export=' as TS.__String);
    if (assigned && sourceFile) {
      const target = assigned.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(assigned) : assigned;
      const holder = target.valueDeclaration && ts.isVariableDeclaration(target.valueDeclaration) && !seen.has(target.valueDeclaration) ? target.valueDeclaration : undefined;
      const folded: string[] = [];
      const foldedNames: string[] = [];
      const readAsValue = new Set<TS.Node>();
      // The properties written at the value itself (`& { createColors(…) }`) first: they are its own additions to the
      // shared type, and the fold keeps MAX_FOLDED signatures.
      // Sorted before the cap, so on a type wider than MAX_ASSIGNED the value's own additions are never the ones cut.
      const properties = checker.getPropertiesOfType(checker.getTypeOfSymbolAtLocation(assigned, sourceFile))
        .map((property, i) => ({ property, i, local: holder && property.declarations?.some((d) => d.getSourceFile() === holder.getSourceFile()) ? 0 : 1 }))
        .sort((a, b) => a.local - b.local || a.i - b.i).slice(0, MAX_ASSIGNED).map(({ property }) => property);
      for (const property of properties) {
        if (property.name.startsWith('_')) continue;
        // Only members of an interface or object type: a namespace's or class's exports are read above, as themselves.
        const members = (property.declarations ?? []).filter((d) => (ts.isPropertySignature(d) || ts.isMethodSignature(d)) && d.getSourceFile().fileName.startsWith(`${ROOT}/`));
        for (const declaration of members) {
          if (seen.has(declaration) || seen.has(declaration.parent)) continue;
          readAsValue.add(declaration.parent);
          if (holder && !docOf(declaration)) {
            seen.add(declaration);
            if (folded.length < MAX_FOLDED) {
              folded.push(`  ${signatureOf(declaration)};`);
              if (!foldedNames.includes(property.name)) foldedNames.push(property.name);
            }
          } else {
            emitDeclaration(declaration, prefix, property.name, importance - 0.05, false);
          }
        }
      }
      // The types read as the value's (an unexported `interface Colors`) are not read again as internal declarations.
      for (const parent of readAsValue) seen.add(parent);
      if (holder && folded.length) {
        seen.add(holder);
        const doc = docOf(holder);
        if (!skipped(doc)) push(holder, `${prefix}.${target.name}`, target.name, [`${signatureOf(holder)} {\n${folded.join('\n')}\n}`], doc, importance, false, foldedNames);
      }
    }
  }
  // An entry that is a script of `declare module "x" { … }` blocks (@types/node: `/// <reference path="fs.d.ts" />`)
  // exports nothing itself: its API is those modules, each under the name a reader imports (`util.parseArgs`).
  // `node:util` re-exporting `util` adds nothing new (its declarations are seen already), so bare names go first.
  const scriptEntries = entryFiles.filter(({ file }) => {
    const sourceFile = program.getSourceFile(abs(file));
    return sourceFile && !checker.getSymbolAtLocation(sourceFile);
  });
  if (scriptEntries.length === entryFiles.length) {
    const ambient = checker.getAmbientModules()
      .filter((m) => m.declarations?.some((d) => d.getSourceFile().fileName.startsWith(`${ROOT}/`)))
      .map((m) => ({ symbol: m, name: m.name.replace(/^["']|["']$/g, '') }))
      .filter((m) => !m.name.includes('*'))
      .sort((a, b) => Number(a.name.includes(':')) - Number(b.name.includes(':')) || a.name.localeCompare(b.name));
    for (const { symbol, name } of ambient) emitModule(symbol, name.replace(/^node:/, ''), '', entries.length ? 0.85 : 0.6, 0);
  }

  // Documented declarations no entry point exports (helpers, bundler internals): kept, ranked down.
  for (const sourceFile of program.getSourceFiles()) {
    if (!sourceFile.fileName.startsWith(`${ROOT}/`)) continue;
    const visit = (node: TS.Node) => {
      if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name && !seen.has(node)) {
        const doc = docOf(node);
        if (doc) emitDeclaration(node, source.name, node.name.text, 0.15, true);
      }
    };
    ts.forEachChild(sourceFile, visit);
  }
  return drafts;
}
