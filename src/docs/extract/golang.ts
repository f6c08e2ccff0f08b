// apiFromGoModule: a Go module's documentation as go/doc sees it, from a tree-sitter parse: each package's doc comment
// and the doc comments of its exported functions, types, methods of exported types, interface methods, consts and vars,
// named `pkg.Name` / `pkg.Type.Method`. internal/, testdata, _test.go and package main are not API; of a package's
// files, those building for the platform pkg.go.dev would show (go-build.ts).
import { documentedFiles } from './go-build.ts';
import { chunkByHeadings, splitLong } from './markdown.ts';
import { lineOf, namedChildren, type Parsers, type SyntaxNode } from './treesitter.ts';
import { cutText } from '../../text-cut.ts';
import type { PassageDraft } from './types.ts';

export interface GoSource {
  /** The module path (`github.com/spf13/cobra`). */
  module: string;
  /** Text files of the module zip, paths relative to the module root. */
  files: Map<string, string>;
  locate(file: string, where: { line?: number; anchor?: string }): string;
}

const exported = (name: string | undefined): name is string => Boolean(name && /^\p{Lu}/u.test(name));
const MAX_SIGNATURE = 600;
/** How far a struct field's passage ranks below a method of the same package in importance (and so in the cap's order). */
const FIELD_DEMOTION = 0.1;

/** The comment lines directly above a node (no blank line between), as go/doc reads a doc comment. */
function docAbove(node: SyntaxNode): string {
  const lines: string[] = [];
  let expectedRow = node.startPosition.row;
  for (let sibling = node.previousSibling; sibling?.type === 'comment'; sibling = sibling.previousSibling) {
    if (sibling.endPosition.row < expectedRow - 1) break;
    // A comment ending the line of the code before it (`A int // a`) is that code's, not a doc of the next.
    const before = sibling.previousSibling;
    if (before && before.type !== 'comment' && before.endPosition.row === sibling.startPosition.row) break;
    expectedRow = sibling.startPosition.row;
    const text = sibling.text;
    lines.unshift(text.startsWith('//') ? text.replace(/^\/\/ ?/, '') : text.replace(/^\/\*+\s?|\s*\*\/$/g, ''));
  }
  return lines.join('\n').replace(/^\s*go:\w+.*$/gm, '').trim();
}

/** Go doc comment syntax to Markdown: indented blocks are code. */
export function goDocToMarkdown(doc: string, options: { oldHeadings?: boolean } = {}): string {
  const out: string[] = [];
  let code = false;
  const lines = doc.split('\n');
  // Before Go 1.19's `# Heading`, go/doc made a heading of a lone line that looks like one (isOldHeading in
  // go/doc/comment, which still applies it where a doc has no `#` heading): gorilla/websocket's "Origin
  // Considerations", cron's "Intervals". They become `# …` here, so a package doc splits at them as pkg.go.dev does.
  const old = options.oldHeadings && !lines.some((l) => /^# \S/.test(l));
  for (const [i, line] of lines.entries()) {
    if (old && isOldHeading(lines, i)) {
      if (code) { out.push('```'); code = false; }
      out.push(`# ${line.trim()}`);
      continue;
    }
    const indented = /^(\t| {2,})\S/.test(line);
    if (indented && !code) { out.push('```go'); code = true; }
    if (!indented && code && line.trim()) { out.push('```'); code = false; }
    out.push(code ? line.replace(/^(\t| {1,4})/, '') : line);
  }
  if (code) out.push('```');
  return out.join('\n').replace(/\n+```\n/g, '\n```\n');
}

/** go/doc/comment's isOldHeading: a one-line paragraph, capitalised, ending in a letter or digit, without sentence punctuation. */
export function isOldHeading(lines: string[], i: number): boolean {
  const line = lines[i]!.trim();
  if (i <= 0 || lines[i - 1]!.trim() !== '' || i + 2 >= lines.length || lines[i + 1]!.trim() !== '' || /^\s/.test(lines[i + 2]!)) return false;
  if (/^\s/.test(lines[i]!) || !/^\p{Lu}/u.test(line) || !/[\p{L}\p{N}]$/u.test(line)) return false;
  if (/[;:!?+*/=[\]{}_^°&§~%#@<">\\]/.test(line)) return false;
  // "'" only as a possessive "'s", "." only when a non-space follows (v1.2, not a sentence's end).
  if (line.split("'").slice(1).some((after) => after !== 's' && !after.startsWith('s '))) return false;
  return !line.split('.').slice(1).some((after) => after === '' || after.startsWith(' '));
}

const isDeprecated = (doc: string) => /(^|\n)Deprecated:/.test(doc);

function signatureOf(node: SyntaxNode): string {
  const body = node.childForFieldName('body');
  let text = body ? node.text.slice(0, body.startIndex - node.startIndex) : node.text;
  text = text.replace(/\s+/g, ' ').trim();
  return cutText(text, MAX_SIGNATURE);
}

export async function apiFromGoModule(parsers: Parsers, source: GoSource): Promise<PassageDraft[]> {
  const drafts: PassageDraft[] = [];
  const packageDocs = new Map<string, { doc: string; file: string; line: number; preferred: boolean }>();
  /** Package name per directory, for the examples of its `_test.go` files (which may be `package x_test`). */
  const packageNames = new Map<string, string>();
  // go/doc shows the exported methods of an embedded unexported type under the type that embeds it
  // (`type Cache struct{ *cache }` lists `Cache.Add`): collected per package and emitted after its files are read.
  const promoting = new Map<string, PackageTypes>();
  const goFiles = [...source.files].sort(([a], [b]) => a.localeCompare(b))
    .filter(([file]) => file.endsWith('.go') && !file.endsWith('_test.go') && !/(^|\/)(internal|testdata|vendor|examples?|_examples|cmd)\//.test(file));
  for (const [file, text] of documentedFiles(goFiles)) {
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    const importPath = dir ? `${source.module}/${dir}` : source.module;
    const depth = dir ? dir.split('/').length : 0;
    // Generated code (`// Code generated … DO NOT EDIT.`, testify's forwarders) repeats API documented elsewhere.
    const generated = /^\/\/ Code generated .* DO NOT EDIT\.?$/m.test(text.slice(0, 2000));
    parsers.parse('go', text, (root) => {
      const children = namedChildren(root);
      const clause = children.find((c) => c.type === 'package_clause');
      const pkg = clause?.namedChildren[0]?.text;
      if (!clause || !pkg || pkg === 'main' || pkg.endsWith('_test')) return;
      packageNames.set(dir, pkg);
      const doc = docAbove(clause);
      const known = packageDocs.get(importPath);
      const preferred = /(^|\/)doc\.go$/.test(file);
      if (doc && (!known || (preferred && !known.preferred))) packageDocs.set(importPath, { doc, file, line: lineOf(clause), preferred });

      const where: ItemPlace = { pkg, importPath, depth, file, generated };
      const push = (node: SyntaxNode, name: string, owner: string | undefined, doc: string, signature: string, folded: string[] = [], demotion = 0) =>
        drafts.push(...itemDrafts(source, where, lineOf(node), name, owner, doc, signature, folded, demotion));
      let types = promoting.get(dir);
      if (!types) promoting.set(dir, types = { methods: new Map(), embeds: new Map(), exportedStructs: new Set() });

      for (const node of children) {
        if (node.type === 'function_declaration') {
          const name = node.childForFieldName('name')?.text;
          if (exported(name)) push(node, name, undefined, docAbove(node), signatureOf(node));
        } else if (node.type === 'method_declaration') {
          const name = node.childForFieldName('name')?.text;
          const receiver = node.childForFieldName('receiver')?.descendantsOfType('type_identifier')[0]?.text;
          if (exported(name) && exported(receiver)) push(node, name, receiver, docAbove(node), signatureOf(node));
          if (exported(name) && receiver) {
            const list = types.methods.get(receiver) ?? [];
            types.methods.set(receiver, [...list, { name, doc: docAbove(node), signature: signatureOf(node), line: lineOf(node), where }]);
          }
        } else if (['type_declaration', 'const_declaration', 'var_declaration'].includes(node.type)) {
          const groupDoc = docAbove(node);
          // tree-sitter-go wraps a grouped `var ( … )` in a var_spec_list, and spells `type A = B` type_alias: both are
          // specs as go/doc sees them (grouped vars such as `ErrCacheMiss` were otherwise never extracted).
          const list = namedChildren(node).find((c) => c.type === 'var_spec_list');
          const specs = namedChildren(list ?? node).filter((c) => /_spec$|^type_alias$/.test(c.type));
          // The keyword and grouping are read once per declaration: a generated `const ( … )` block holds thousands of
          // specs, and reading the block's text once per spec made golang.org/x/sys take minutes (quadratic).
          const keyword = node.type.slice(0, node.type.indexOf('_'));
          const grouped = Boolean(list) || node.children.some((c) => c?.type === '(');
          for (const spec of specs) {
            const names = spec.childrenForFieldName('name').map((n) => n?.text).filter(exported);
            // In a group, a spec's own line comment (`StatusContinue = 100 // RFC 9110, 15.2.1`) is its doc when nothing
            // is above it: go/doc keeps it as the spec's Comment and pkg.go.dev shows it beside the name.
            const doc = grouped ? docAbove(spec) || lineComment(spec) || (specs.length === 1 ? groupDoc : '') : groupDoc;
            const struct = spec.type === 'type_spec' && names[0] ? spec.childForFieldName('type') : null;
            const fields = struct?.type === 'struct_type' ? structFields(struct) : [];
            const typeName = spec.type === 'type_spec' ? spec.childForFieldName('name')?.text : undefined;
            const anyStruct = typeName ? spec.childForFieldName('type') : null;
            if (anyStruct?.type === 'struct_type' && typeName) {
              types.embeds.set(typeName, embeddedTypes(anyStruct));
              if (exported(typeName)) types.exportedStructs.add(typeName);
            }
            // A struct's exported fields are asked by name (`Config.Timeout`, `timeout`): each is an identifier of the
            // struct's passage, whose signature already carries the fields and their comments, without a passage of its
            // own (fields as passages crowded README answers out of the top 3 in round 7). A `Fields:` list of their
            // first sentences in the passage's prose was tried and dropped in round 8 (docs/docs-search.md).
            const signature = `${keyword} ${spec.text.replace(/\s+/g, ' ')}`;
            // Every `Type.field` before any bare name: a large config struct (30+ fields) still names each field as its
            // own (symbol lookup reads `type.field`); the store keeps the extractor's names before the text's own.
            const folded = names[0] ? [
              ...fields.map((f) => `${names[0]}.${f.name}`.toLowerCase()),
              ...fields.filter((f) => f.name.length >= 3).map((f) => f.name.toLowerCase()),
            ] : [];
            for (const name of names) push(spec, name, undefined, doc, cutText(signature, MAX_SIGNATURE), folded);
            // A struct too long for its signature loses the comments of the fields past the cut: each documented exported
            // field is then a member passage (`Writer.Async`), as pkg.go.dev anchors it. So is each documented field of a
            // struct with no doc comment of its own (round 20): its passage is a bare declaration whose only prose is
            // its fields' comments (go-redis/cache's `Item.TTL`, "the cache expiration time"). A documented struct that
            // fits keeps them in its own passage and gets none (fields as passages of every struct crowded answers in round 7).
            if (struct?.type === 'struct_type' && names[0] && (signature.length > MAX_SIGNATURE || !doc)) {
              // Below the methods: where a module exceeds the passage cap (generated SDKs), fields go before types and methods.
              for (const field of documentedFields(struct)) {
                drafts.push(...itemDrafts(source, where, lineOf(field.node), field.name, names[0], field.doc, field.signature, [], FIELD_DEMOTION).map((d) => ({ ...d, member: true })));
              }
            }
            // Methods of an exported interface are API too (zapcore.Core.Write).
            const iface = spec.type === 'type_spec' ? spec.childForFieldName('type') : null;
            if (iface?.type === 'interface_type' && names[0]) {
              for (const method of namedChildren(iface).filter((c) => c.type === 'method_elem')) {
                const name = method.childForFieldName('name')?.text;
                if (exported(name)) push(method, name, names[0], docAbove(method), method.text.replace(/\s+/g, ' '));
              }
            }
          }
        }
      }
    });
  }
  for (const types of promoting.values()) drafts.push(...promotedMethods(source, types));
  drafts.push(...examplePassages(parsers, source, packageNames));
  for (const [importPath, { doc, file, line }] of packageDocs) {
    const depth = importPath === source.module ? 0 : importPath.slice(source.module.length + 1).split('/').length;
    // A package doc is a page of sections (`# Heading` lines, go/doc since Go 1.19): each its own passage, as
    // pkg.go.dev shows them (`#hdr-Heading_text`), under the package's symbol.
    const sections = chunkByHeadings(goDocToMarkdown(doc, { oldHeadings: true }), {
      pageTitle: importPath, fixedTitle: true, source: file, anchorFor: (heading) => `hdr-${heading.replace(/\s+/g, '_')}`,
      locate: (where) => source.locate(file, { line, anchor: where.anchor ?? 'pkg-overview' }),
    });
    for (const section of sections) {
      drafts.push({ ...section, title: section.headings.length > 1 ? section.title : importPath, symbol: importPath, importance: 0.9 - 0.05 * depth, identifiers: [] });
    }
  }
  return drafts;
}

/** Where an item is declared: its package, the file, and whether the file is generated. */
interface ItemPlace { pkg: string; importPath: string; depth: number; file: string; generated: boolean }

/** The passages of one exported item (`pkg.Name`, or `pkg.Owner.Name` for a method): its signature, then its doc. */
function itemDrafts(source: GoSource, at: ItemPlace, line: number, name: string, owner: string | undefined, doc: string, signature: string, folded: string[] = [], demotion = 0): PassageDraft[] {
  // go doc lists undocumented exported functions and types too; they rank below documented ones.
  if (!doc && (owner || !/^(func|type)\b/.test(signature))) return [];
  const local = owner ? `${owner}.${name}` : name;
  const symbol = `${at.pkg}.${local}`;
  let importance = 0.8 - 0.05 * at.depth - (owner ? 0.05 : 0) - (at.generated ? 0.25 : 0) - demotion;
  if (isDeprecated(doc)) importance -= 0.3;
  if (!doc) importance -= 0.3;
  return splitLong(`\`\`\`go\n${signature}\n\`\`\`${doc ? `\n\n${goDocToMarkdown(doc)}` : ''}`).map((content) => ({
    url: source.locate(at.file, { line, anchor: local }), title: symbol, headings: [at.importPath, local], content,
    source: at.file, symbol, importance, deprecated: isDeprecated(doc) || undefined,
    identifiers: [...new Set([symbol.toLowerCase(), local.toLowerCase(), name.toLowerCase(), ...folded])],
  }));
}

/** One package's struct types and methods, as go/doc's reader collects them to promote embedded methods. */
interface PackageTypes {
  /** Exported methods by receiver type name (exported receivers too: they shadow promoted ones). */
  methods: Map<string, Array<{ name: string; doc: string; signature: string; line: number; where: ItemPlace }>>;
  /** The local types a struct embeds (anonymous fields `t` or `*t`), by struct name. */
  embeds: Map<string, string[]>;
  exportedStructs: Set<string>;
}

/**
 * The exported named fields of a struct with their doc (the comment above, else the one ending the line), and those
 * of the anonymous structs its fields declare, by their path (`Producer.Idempotent`): a namespaced config struct
 * (sarama's `Config { Producer struct { … } }`) documents each setting on the nested field, whose comment the cut
 * signature of the outer field loses. go/doc shows them all in the struct's declaration.
 */
function documentedFields(struct: SyntaxNode, prefix = ''): Array<{ node: SyntaxNode; name: string; doc: string; signature: string }> {
  const list = namedChildren(struct).find((c) => c.type === 'field_declaration_list');
  if (!list) return [];
  return namedChildren(list).filter((c) => c.type === 'field_declaration').flatMap((field) => {
    const doc = docAbove(field) || lineComment(field);
    const signature = cutText(field.text.replace(/\s+/g, ' '), MAX_SIGNATURE);
    const names = field.childrenForFieldName('name').map((n) => n?.text).filter(exported);
    const type = field.childForFieldName('type');
    const nested = type?.type === 'struct_type' ? names.flatMap((name) => documentedFields(type, `${prefix}${name}.`)) : [];
    return [...(doc ? names.map((name) => ({ node: field, name: `${prefix}${name}`, doc, signature })) : []), ...nested];
  });
}

/** The types a struct embeds by name in its own package (`*cache`, `cache`; not `pkg.T`, not generic instances). */
function embeddedTypes(struct: SyntaxNode): string[] {
  const list = namedChildren(struct).find((c) => c.type === 'field_declaration_list');
  if (!list) return [];
  return namedChildren(list).filter((c) => c.type === 'field_declaration' && !c.childrenForFieldName('name').length)
    .map((field) => {
      let type = field.childForFieldName('type');
      if (type?.type === 'pointer_type') type = type.namedChildren[0] ?? null;
      return type?.type === 'type_identifier' ? type.text : undefined;
    }).filter((name): name is string => Boolean(name));
}

/**
 * go/doc's embedded methods: an exported struct lists the exported methods of the unexported types it embeds (and
 * theirs, shallowest first), unless it declares a method of that name itself or a shallower embedding already gave one.
 * Methods of an exported embedded type stay under that type, as go/doc shows them. The receiver reads as the
 * embedding type, as pkg.go.dev prints it (`func (c Cache) Add(…)` for `func (c *cache) Add(…)`).
 */
function promotedMethods(source: GoSource, types: PackageTypes): PassageDraft[] {
  const drafts: PassageDraft[] = [];
  // An unexported type embedded by several exported ones (go-redis-style `cmdable` shared by every client type) would
  // repeat each of its methods once per embedder, crowding answers with copies: only a type one exported struct
  // reaches (the `type Cache struct{ *cache }` wrapper) is promoted.
  const reach = new Map<string, Set<string>>();
  for (const outer of types.exportedStructs) {
    const seen = new Set<string>();
    const walk = (name: string) => {
      for (const inner of (types.embeds.get(name) ?? []).filter((t) => !exported(t) && !seen.has(t))) {
        seen.add(inner);
        reach.set(inner, (reach.get(inner) ?? new Set()).add(outer));
        walk(inner);
      }
    };
    walk(outer);
  }
  for (const outer of types.exportedStructs) {
    const taken = new Set((types.methods.get(outer) ?? []).map((m) => m.name));
    const seen = new Set([outer]);
    let level: string[] = (types.embeds.get(outer) ?? []).filter((t) => !exported(t));
    while (level.length) {
      const next: string[] = [];
      const found: Array<{ name: string; doc: string; signature: string; line: number; where: ItemPlace; inner: string }> = [];
      for (const inner of level) {
        if (seen.has(inner)) continue;
        seen.add(inner);
        if (reach.get(inner)?.size !== 1) continue;
        for (const method of types.methods.get(inner) ?? []) if (!taken.has(method.name)) found.push({ ...method, inner });
        next.push(...(types.embeds.get(inner) ?? []).filter((t) => !exported(t)));
      }
      // Two embeddings at the same depth giving the same name make it ambiguous: Go promotes neither.
      const counts = new Map<string, number>();
      for (const method of found) counts.set(method.name, (counts.get(method.name) ?? 0) + 1);
      for (const method of found) {
        if (counts.get(method.name) !== 1) continue;
        const signature = method.signature.replace(/^func\s*\(([^)]*)\)/, (_, receiver: string) =>
          `func (${receiver.replace(new RegExp(`\\*?\\b${method.inner}\\b`), outer)})`);
        drafts.push(...itemDrafts(source, method.where, method.line, method.name, outer, method.doc, signature));
      }
      for (const name of counts.keys()) taken.add(name);
      level = next;
    }
  }
  return drafts;
}

/** The comment that ends a spec's own line, if any. */
function lineComment(spec: SyntaxNode): string {
  const after = spec.nextSibling;
  if (after?.type !== 'comment' || after.startPosition.row !== spec.endPosition.row) return '';
  return after.text.replace(/^\/\/ ?|^\/\*+\s?|\s*\*\/$/g, '').trim();
}

/** The exported named fields of a struct type (embedded fields have no name of their own). */
function structFields(struct: SyntaxNode): { name: string }[] {
  const list = namedChildren(struct).find((c) => c.type === 'field_declaration_list');
  if (!list) return [];
  return namedChildren(list).filter((c) => c.type === 'field_declaration')
    .flatMap((field) => field.childrenForFieldName('name').map((n) => n?.text).filter(exported).map((name) => ({ name })));
}

/**
 * go/doc's examples: `func ExampleF()`, `ExampleT_M()`, `ExampleT_suffix()`, `Example()` in `_test.go` files are the
 * canonical usage of F, T.M, T and the package, shown on pkg.go.dev under the item. Each becomes a usage passage of
 * the item it exemplifies (same symbol), its body as the code and its `// Output:` kept.
 */
function examplePassages(parsers: Parsers, source: GoSource, packageNames: Map<string, string>): PassageDraft[] {
  const drafts: PassageDraft[] = [];
  const files = [...source.files].filter(([file, text]) => file.endsWith('_test.go') && text.includes('func Example')
    && !/(^|\/)(internal|testdata|vendor)\//.test(file)).sort(([a], [b]) => a.localeCompare(b));
  for (const [file, text] of files) {
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    const pkg = packageNames.get(dir);
    if (!pkg) continue; // examples of a package with no API (main, internal) are not indexed
    const importPath = dir ? `${source.module}/${dir}` : source.module;
    const depth = dir ? dir.split('/').length : 0;
    parsers.parse('go', text, (root) => {
      for (const node of namedChildren(root)) {
        if (node.type !== 'function_declaration') continue;
        const name = node.childForFieldName('name')?.text ?? '';
        const target = exampleTarget(name);
        const body = node.childForFieldName('body');
        if (target === undefined || !body || node.childForFieldName('parameters')?.namedChildren.length) continue;
        const local = target.item;
        const code = dedent(body.text.replace(/^\{\n?/, '').replace(/\n?\}$/, ''));
        const doc = docAbove(node);
        const named = local ? `${pkg}.${local}` : importPath;
        const label = `Example${target.suffix ? ` (${target.suffix})` : ''}`;
        const content = [`${label} of \`${named}\`:`, doc ? goDocToMarkdown(doc) : '', `\`\`\`go\n${code}\n\`\`\``].filter(Boolean).join('\n\n');
        // pkg.go.dev's anchors: #example-Logger.Check, #example-NewStdLog-suffix, #example-package-Presets.
        const anchor = `example-${local || 'package'}${target.suffix ? `-${target.suffix}` : ''}`;
        for (const chunk of splitLong(content)) {
          drafts.push({
            url: source.locate(file, { line: lineOf(node), anchor }), title: `${named} ${label.toLowerCase()}`,
            headings: [importPath, local ? `${local} ${label.toLowerCase()}` : label], content: chunk, source: file,
            // An item's example is part of the item (symbol look-ups find it); a package's examples are sections of their own.
            symbol: local ? named : undefined, importance: 0.75 - 0.05 * depth,
            // The example function's own name too (`ExampleParse_errorChecking`): a reader who saw it on pkg.go.dev
            // or in the test file asks by it.
            identifiers: [...new Set([...(local ? [local.toLowerCase(), local.split('.').pop()!.toLowerCase()] : []), name.toLowerCase()])],
          });
        }
      }
    });
  }
  return drafts;
}

/** What an example function's name says it exemplifies: `ExampleT_M_suffix` → T.M; `Example_suffix` → the package. */
export function exampleTarget(name: string): { item: string; suffix?: string } | undefined {
  if (!/^Example($|_|\p{Lu})/u.test(name)) return undefined;
  const parts = name.slice('Example'.length).split('_');
  const item: string[] = [];
  let suffix: string | undefined;
  for (const [i, part] of parts.entries()) {
    if (i === 0 && part === '') continue; // `Example_suffix`: the package
    if (part && /^\p{Lu}/u.test(part) && item.length < 2 && suffix === undefined) item.push(part);
    else { suffix = parts.slice(i).join('_'); break; }
  }
  return { item: item.join('.'), suffix };
}

function dedent(code: string): string {
  const lines = code.split('\n');
  const indents = lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join('\n').trim();
}
