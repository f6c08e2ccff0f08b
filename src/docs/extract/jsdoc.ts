// apiFromJavaScript: the API of an npm package that ships no declarations, from the JSDoc in its JavaScript, read with
// the TypeScript compiler's parser (the one the declaration extractor uses): functions, classes and their methods,
// `exports.x = …` / `module.exports = { x }` members and `Type.prototype.x = …` methods that carry a `/** … */`
// comment. Items their authors mark `@private`/`@internal`/`@ignore` and underscored names are left out. Nothing is run.
import path from 'node:path';
import type TS from 'typescript';
import { cleanJsDoc, loadCompiler } from './dts.ts';
import { splitLong } from './markdown.ts';
import { cutText } from '../../text-cut.ts';
import type { PassageDraft } from './types.ts';

export interface JavaScriptSource {
  name: string;
  /** JavaScript files of the tarball, paths relative to the package root. */
  files: Map<string, string>;
  /**
   * The entry points (package.json `exports`, `main`, `module`): only the modules they load (`require('./x')`,
   * `import … from './x'`, followed) are read, as a reader of the package reaches them. Without any in `files`, every file.
   */
  entries?: string[];
  locate(file: string, where: { line?: number; anchor?: string }): string;
}

const MAX_SIGNATURE = 400;
const HIDDEN = /(^|\n)@(private|internal|ignore|hidden|access\s+private)\b/;

/** A relative specifier (`./debounce`, `../lib/x.js`) resolved to a file of the package, as Node resolves it. */
function resolveRelative(from: string, specifier: string, files: Map<string, string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return [base, `${base}.js`, `${base}.cjs`, `${base}.mjs`, `${base}/index.js`, `${base}/index.cjs`, `${base}/index.mjs`].find((f) => files.has(f));
}

const MAX_MODULES = 600;

/**
 * What a node must contain in its text for the walk to find something in it: a JSDoc comment (an item's doc is a
 * leading comment, inside the node's full range), or a module it loads (`require(…)`, `import …`, `export … from …`).
 */
const MARKERS = ['/**', 'require', 'import', 'from'];

/** Whether [pos, end) of `text` holds the start of a marker: a sorted list of their offsets, searched by halves. */
export function markedRanges(text: string): (pos: number, end: number) => boolean {
  const offsets: number[] = [];
  for (const marker of MARKERS) {
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) offsets.push(at);
  }
  offsets.sort((a, b) => a - b);
  return (pos, end) => {
    let low = 0, high = offsets.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (offsets[mid]! < pos) low = mid + 1;
      else high = mid;
    }
    return low < offsets.length && offsets[low]! < end;
  };
}

export async function apiFromJavaScript(source: JavaScriptSource): Promise<PassageDraft[]> {
  if (!source.files.size) return [];
  const ts = await loadCompiler();
  const drafts: PassageDraft[] = [];
  const entries = (source.entries ?? []).map((e) => resolveRelative('', e.startsWith('.') ? e : `./${e}`, source.files)).filter((f): f is string => Boolean(f));
  const queue = entries.length ? [...new Set(entries)] : [...source.files.keys()];
  const queued = new Set(queue);

  for (let next = 0; next < queue.length && next < MAX_MODULES; next++) {
    const file = queue[next]!;
    const text = source.files.get(file)!;
    // No parent pointers: every position is read with the source file at hand, and setting them costs a tenth of the parse.
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, false, ts.ScriptKind.JS);
    /** The modules this one loads, read after it (the entry's own API first). */
    const follow = (specifier: string) => {
      const target = entries.length ? resolveRelative(file, specifier, source.files) : undefined;
      if (target && !queued.has(target)) { queued.add(target); queue.push(target); }
    };
    const docOf = (node: TS.Node): string => {
      const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
      const last = ranges.filter((r) => text.startsWith('/**', r.pos)).pop();
      return last ? cleanJsDoc(text.slice(last.pos, last.end)) : '';
    };
    /** The declaration as written up to its body: `function debounce(func, wait, options)`. */
    const signatureOf = (node: TS.Node, body: TS.Node | undefined): string => {
      const start = node.getStart(sourceFile);
      const raw = body ? text.slice(start, body.getStart(sourceFile)) : node.getText(sourceFile);
      const flat = raw.replace(/\s+/g, ' ').replace(/[\s{=;]+$/, '').trim();
      return cutText(flat, MAX_SIGNATURE);
    };
    const bodyOf = (node: TS.Node | undefined): TS.Node | undefined => {
      while (node && ts.isParenthesizedExpression(node)) node = node.expression;
      if (!node) return undefined;
      if (ts.isFunctionLike(node) && 'body' in node) return (node as TS.FunctionLikeDeclaration).body;
      if (ts.isClassLike(node)) return node.members.pos > 0 ? node.members[0] ?? undefined : undefined;
      return undefined;
    };
    /**
     * The signature is asked for only once the item is known to be documented and public: flattening a declaration's
     * text is the costly part of the walk (an undocumented `var x = (() => { … })()` wrapping a whole bundle is its
     * entire text), and most declarations of a bundle carry no JSDoc.
     */
    const push = (holder: TS.Node, local: string, signatureFor: () => string, doc: string) => {
      if (!doc || HIDDEN.test(doc) || local.split('.').some((s) => s.startsWith('_'))) return;
      const signature = signatureFor();
      const deprecated = /(^|\n)@deprecated\b/.test(doc);
      const line = sourceFile.getLineAndCharacterOfPosition(holder.getStart(sourceFile)).line + 1;
      const symbol = `${source.name}.${local}`;
      const header = `\`\`\`js\n${signature}\n\`\`\``;
      splitLong(`${header}\n\n${doc}`).forEach((content, i) => drafts.push({
        url: source.locate(file, { line }), title: local, headings: [source.name, local], content: i === 0 ? content : `${header}\n\n${content}`,
        source: file, symbol, importance: 0.75 - (local.includes('.') ? 0.05 : 0) - (deprecated ? 0.4 : 0), deprecated: deprecated || undefined,
        identifiers: [...new Set([local.toLowerCase(), local.split('.').pop()!.toLowerCase()])],
      }));
    };
    /** `exports.x`, `module.exports.x`, `Foo.prototype.x`, `Foo.x` as the name a reader calls. */
    const assignedName = (target: TS.Expression): string | undefined => {
      if (!ts.isPropertyAccessExpression(target)) return undefined;
      const parts: string[] = [];
      let node: TS.Expression = target;
      while (ts.isPropertyAccessExpression(node)) { parts.unshift(node.name.text); node = node.expression; }
      if (ts.isIdentifier(node)) parts.unshift(node.text);
      const cleaned = parts.filter((p) => p !== 'prototype');
      if (cleaned[0] === 'module' && cleaned[1] === 'exports') cleaned.splice(0, 2);
      else if (cleaned[0] === 'exports') cleaned.splice(0, 1);
      return cleaned.length ? cleaned.join('.') : undefined;
    };
    const objectMembers = (literal: TS.ObjectLiteralExpression, owner: string | undefined) => {
      for (const property of literal.properties) {
        const name = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined;
        if (!name) continue;
        const local = owner ? `${owner}.${name}` : name;
        const value = ts.isPropertyAssignment(property) ? property.initializer : property;
        push(property, local, () => signatureOf(property, bodyOf(value)), docOf(property));
      }
    };

    const worthVisiting = markedRanges(text);
    const visit = (node: TS.Node, depth: number): void => {
      // A subtree with no JSDoc comment and no module reference in its text can neither add an item nor a module to
      // read: the walk over every node of a bundle (prettier's plugins, MBs of code) was most of extraction's time.
      if (!worthVisiting(node.pos, node.end)) return;
      if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)
        && ((ts.isIdentifier(node.expression) && node.expression.text === 'require') || node.expression.kind === ts.SyntaxKind.ImportKeyword)) {
        follow(node.arguments[0].text);
      } else if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        follow(node.moduleSpecifier.text);
      }
      if (ts.isFunctionDeclaration(node) && node.name) {
        push(node, node.name.text, () => signatureOf(node, node.body), docOf(node));
      } else if (ts.isClassDeclaration(node) && node.name) {
        const owner = node.name.text;
        push(node, owner, () => signatureOf(node, node.members[0]), docOf(node));
        for (const member of node.members) {
          if ((ts.isMethodDeclaration(member) || ts.isGetAccessor(member) || ts.isPropertyDeclaration(member)) && member.name && ts.isIdentifier(member.name)) {
            push(member, `${owner}.${member.name.text}`, () => signatureOf(member, bodyOf(member)), docOf(member));
          }
        }
      } else if (ts.isVariableStatement(node)) {
        const doc = docOf(node);
        for (const declaration of node.declarationList.declarations) {
          if (!ts.isIdentifier(declaration.name)) continue;
          push(node, declaration.name.text, () => signatureOf(declaration, bodyOf(declaration.initializer)), doc);
        }
      } else if (ts.isExpressionStatement(node) && ts.isBinaryExpression(node.expression) && node.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        const { left, right } = node.expression;
        const name = assignedName(left);
        const doc = docOf(node);
        if (name) push(node, name, () => signatureOf(node.expression, bodyOf(right)), doc);
        // `module.exports = { /** … */ parse() {…} }`: each documented member is API.
        if (ts.isObjectLiteralExpression(right)) objectMembers(right, name);
      }
      // Functions are found inside IIFEs and factories too (lodash defines its API inside `runInContext`).
      if (depth < 24) ts.forEachChild(node, (child) => visit(child, depth + 1));
    };
    visit(sourceFile, 0);
  }
  return drafts;
}
