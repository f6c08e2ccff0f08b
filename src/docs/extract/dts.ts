// apiFromNpmPackage: the public API of an npm package from its TypeScript declarations, read with the TypeScript
// compiler API: the package.json `exports`/`types` entry points, what each exports (through re-exports and bundler
// chunks), JSDoc as the compiler attaches it, members of exported interfaces and classes. Nothing is run.
import path from 'node:path';
import type TS from 'typescript';
import { splitLong } from './markdown.ts';
import type { PassageDraft } from './types.ts';

export interface NpmSource {
  name: string;
  /** Text files of the tarball (declarations and package.json at least), paths relative to the package root. */
  files: Map<string, string>;
  manifest: { exports?: unknown; types?: string; typings?: string; main?: string; module?: string };
  locate(file: string, where: { line?: number; anchor?: string }): string;
}

const DECLARATION = /\.d\.(ts|mts|cts)$/;
const ROOT = '/pkg';
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
  return [...entries].map(([subpath, file]) => ({ subpath, file }));
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
      out.push('', tag[2]?.startsWith('```') ? tag[2] : '```ts');
      if (tag[2] && !tag[2].startsWith('```')) out.push(tag[2]);
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
    }
    text = text.replace(/\s+/g, ' ').replace(/[;{]\s*$/, '').trim();
    return text.length > MAX_SIGNATURE ? `${text.slice(0, MAX_SIGNATURE)} …` : text;
  };

  const push = (node: TS.Node, symbol: string, title: string, signatures: string[], doc: string, importance: number, internal: boolean) => {
    const file = rel(node.getSourceFile().fileName);
    const deprecated = deprecatedDoc(doc);
    const score = importance - (doc ? 0 : 0.3) - (deprecated ? 0.4 : 0);
    const header = `\`\`\`ts\n${signatures.join('\n')}\n\`\`\``;
    splitLong(doc ? `${header}\n\n${doc}` : header).forEach((content, i) => drafts.push({
      url: source.locate(file, { line: lineOf(node) }), title, headings: [symbol.slice(0, symbol.length - title.length - 1) || source.name, title],
      content: i === 0 ? content : `${header}\n\n${content}`, source: file, symbol, importance: score, internal: internal || undefined,
      deprecated: deprecated || undefined, identifiers: [...new Set([title.toLowerCase(), title.split('.').pop()!.toLowerCase()])],
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
  const emitMembers = (node: TS.InterfaceDeclaration | TS.ClassDeclaration, prefix: string, title: string, importance: number, internal: boolean): string[] => {
    const groups = new Map<string, TS.Node[]>();
    for (const member of node.members as TS.NodeArray<TS.ClassElement | TS.TypeElement>) {
      const name = memberName(member);
      if (!name || name.startsWith('_') || name.startsWith('~')) continue;
      const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : [];
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
      groups.set(name, [...(groups.get(name) ?? []), member]);
      if (groups.size > MAX_MEMBERS) break;
    }
    const folded: string[] = [];
    for (const [name, members] of groups) {
      // Overloads share the documented sibling's comment (the compiler attaches it to one of them).
      const doc = members.map(docOf).find(Boolean) ?? '';
      if (skipped(doc) || (name === 'constructor' && !doc)) continue;
      // A comment that only points elsewhere (`@see _.debounce`, on @types/lodash's chain wrappers) explains nothing here.
      if (!doc || /^(@see\b[^\n]*\n?)+$/.test(doc)) {
        if (folded.length < MAX_FOLDED) folded.push(...members.map((m) => `  ${signatureOf(m)};`));
        continue;
      }
      push(members[0]!, `${prefix}.${title}.${name}`, `${title}.${name}`, members.map(signatureOf), doc, importance - 0.05, internal);
    }
    return folded;
  };

  const emitDeclaration = (node: TS.Declaration, prefix: string, name: string, importance: number, internal: boolean) => {
    if (seen.has(node) || ts.isSourceFile(node)) return;
    seen.add(node);
    const doc = docOf(node);
    if (skipped(doc)) return;
    const folded = ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node) ? emitMembers(node, prefix, name, importance, internal) : [];
    const signature = folded.length ? `${signatureOf(node)} {\n${folded.join('\n')}\n}` : signatureOf(node);
    push(node, `${prefix}.${name}`, name, [signature], doc, importance, internal);
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
