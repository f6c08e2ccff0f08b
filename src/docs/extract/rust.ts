// apiFromRustCrate: the public API of a crate as rustdoc sees it, from a tree-sitter parse of its sources: the module
// tree from lib.rs (`mod` items, `#[path]`), `pub` items, every item of a public trait, `///`/`#[doc]` docs with
// `include_str!` resolved from the crate's own files, items inside `cfg_*! { }` wrappers. Text only; nothing is built.
import path from 'node:path';
import { chunkByHeadings, splitLong } from './markdown.ts';
import { cfgBranch, cfgHolds, type BuildTarget } from './rust-cfg.ts';
import { lineOf, namedChildren, type Parsers, type SyntaxNode } from './treesitter.ts';
import { cutText } from '../../text-cut.ts';
import type { PassageDraft } from './types.ts';

/** A method of a trait implementation (`impl Display for Error { fn fmt }`): documented on the trait, ranked low. */
export const TRAIT_IMPL_IMPORTANCE = 0.35;

export interface CrateSource {
  /** The crate's import name (`serde_json`). */
  crate: string;
  /** Text files of the .crate, paths relative to its root. */
  files: Map<string, string>;
  /** `[lib] path` from Cargo.toml when it is not src/lib.rs. */
  libPath?: string;
  locate(file: string, where: { line?: number; anchor?: string }): string;
  /** Read the crate as it compiles for this target (its `#[cfg]`s and `cfg_if!` branches) rather than as docs show it. */
  target?: BuildTarget;
  /** Items without docs too (a program written from the API needs them; a docs index does not). */
  undocumented?: boolean;
}

interface Module {
  /** Public path segments (`tokio::time`); a private module adds none, its items being re-exported or internal. */
  path: string[];
  /** Names of the private modules on the way: their items are public only if something re-exports them (a `pub use`
   *  of the name, or `pub use x::*` of one of these modules). */
  privateNames: string[];
  hidden: boolean;
  file: string;
  /** Where `mod x;` looks for x.rs / x/mod.rs. */
  dir: string;
}

interface Attached { doc: string[]; hidden: boolean; macroExport: boolean; deprecated: boolean; pathAttr?: string; notForDocs?: boolean; cfgs?: string[] }

interface Item { draft: PassageDraft; name: string; privateNames: string[]; depth: number; kind: string }

const ITEM_KINDS = new Set(['function_item', 'function_signature_item', 'struct_item', 'enum_item', 'union_item', 'trait_item',
  'type_item', 'const_item', 'static_item', 'macro_definition', 'associated_type']);
/** Items that name a type (their impl blocks' methods are public when the type is). */
const TYPE_KINDS = new Set(['struct_item', 'enum_item', 'union_item', 'trait_item', 'type_item']);
const MAX_MACRO_DEPTH = 3;
const MAX_SIGNATURE = 700;

/** A struct, enum or union short enough that its body (fields, variants and their docs) stands in its signature. */
const bodyKept = (node: SyntaxNode) => ['struct_item', 'enum_item', 'union_item'].includes(node.type) && node.text.length < 500;
const isPub = (node: SyntaxNode) => namedChildren(node).some((c) => c.type === 'visibility_modifier' && c.text === 'pub');

function unquote(literal: SyntaxNode): string {
  const text = literal.text;
  const raw = /^r(#*)"([\s\S]*)"\1$/.exec(text);
  if (raw) return raw[2]!;
  return text.slice(1, -1).replace(/\\(n|t|r|"|'|\\|\n\s*)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '' : c.startsWith('\n') ? '' : c));
}

export async function apiFromRustCrate(parsers: Parsers, source: CrateSource): Promise<PassageDraft[]> {
  const items: Item[] = [];
  const reexported = new Set<string>();
  const globbed = new Set<string>();
  const visited = new Set<string>();
  // Macros of the crate itself: `name!()` with a `() => { items }` rule is expanded (serde's `crate_root!()`), and a
  // wrapper whose rule puts docs in front of `$item` lends them to the item it wraps (tokio's `doc! { select! … }`).
  type Expansion = { text: string; file: string; row: number };
  const localMacros = new Map<string, { unit?: Expansion; body?: Expansion; passThrough: boolean; wrapper?: Attached }>();

  const readInclude = (fromFile: string, node: SyntaxNode): string | undefined => {
    if (node.type !== 'macro_invocation' || node.childForFieldName('macro')?.text !== 'include_str') return undefined;
    const literal = node.descendantsOfType('string_literal')[0];
    if (!literal) return undefined;
    return source.files.get(path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), unquote(literal))));
  };

  /** Docs and attributes in front of an item (or inner ones of a module), in source order. */
  const attach = (nodes: SyntaxNode[], file: string): Attached => {
    const found: Attached = { doc: [], hidden: false, macroExport: false, deprecated: false };
    for (const node of nodes) {
      if (node.type === 'line_comment' || node.type === 'block_comment') {
        const doc = node.childForFieldName('doc');
        if (!doc) continue;
        const text = node.type === 'line_comment' ? doc.text.replace(/\n$/, '').replace(/^ /, '')
          : doc.text.split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join('\n').trim();
        found.doc.push(text);
        continue;
      }
      const attribute = namedChildren(node).find((c) => c.type === 'attribute');
      const name = attribute?.namedChildren[0]?.text;
      const value = attribute?.childForFieldName('value');
      if (name === 'doc' && value) {
        const text = value.type === 'string_literal' ? unquote(value) : readInclude(file, value);
        if (text !== undefined) found.doc.push(text.replace(/\n$/, ''));
      } else if (name === 'doc' && /\bhidden\b/.test(attribute?.childForFieldName('arguments')?.text ?? '')) {
        found.hidden = true;
      } else if (name === 'macro_export') {
        found.macroExport = true;
      } else if (name === 'deprecated') {
        found.deprecated = true;
      } else if (name === 'path' && value?.type === 'string_literal') {
        found.pathAttr = unquote(value);
      } else if (name === 'cfg' && /^\(\s*not\s*\(\s*(docsrs|doc)\s*\)\s*\)$/.test(attribute?.childForFieldName('arguments')?.text ?? '')) {
        found.notForDocs = true; // rustdoc (and docs.rs) builds the `cfg(doc)` twin instead
        found.cfgs = [...(found.cfgs ?? []), attribute?.childForFieldName('arguments')?.text.slice(1, -1) ?? ''];
      } else if (name === 'cfg') {
        found.cfgs = [...(found.cfgs ?? []), attribute?.childForFieldName('arguments')?.text.slice(1, -1) ?? ''];
      } else if (name === 'cfg_attr') {
        // docs.rs builds with `docsrs`: serde points its modules elsewhere with `cfg_attr(docsrs, path = "…")`.
        const literal = /\bpath\s*=\s*("(?:[^"\\]|\\.)*")/.exec(attribute?.childForFieldName('arguments')?.text ?? '');
        if (literal) found.pathAttr ??= JSON.parse(literal[1]!) as string;
      }
    }
    return found;
  };

  const signatureOf = (node: SyntaxNode): string => {
    const body = node.childForFieldName('body');
    let text = node.text;
    const keepBody = body && (bodyKept(node) || node.type === 'enum_variant');
    if (body && !keepBody) text = text.slice(0, body.startIndex - node.startIndex);
    if (node.type === 'macro_definition') text = `macro_rules! ${node.childForFieldName('name')?.text ?? ''}`;
    text = text.replace(/\s+/g, ' ').trim();
    return cutText(text, MAX_SIGNATURE);
  };

  const emit = (node: SyntaxNode, module: Module, attached: Attached, owner: { name: string; traitImpl: boolean } | undefined, lineOffset: number) => {
    const doc = attached.doc.join('\n').trim();
    // An exported macro is documented at the crate root even when the module defining it is hidden.
    if ((!doc && !source.undocumented) || attached.hidden || (module.hidden && node.type !== 'macro_definition')) return;
    const rawName = node.childForFieldName('name')?.text;
    if (!rawName) return;
    const name = node.type === 'macro_definition' ? `${rawName}!` : rawName;
    // An exported macro lives at the crate root, whatever module defines it.
    const base = node.type === 'macro_definition' ? [source.crate] : module.path;
    const symbol = [...base, ...(owner ? [owner.name] : []), name].join('::');
    const line = lineOf(node) + lineOffset;
    const signature = signatureOf(node);
    const chunks = splitLong(`\`\`\`rust\n${signature}\n\`\`\`\n\n${doc}`);
    chunks.forEach((content, i) => items.push({
      draft: {
        url: source.locate(module.file, { line }), title: symbol, headings: [module.path.join('::'), owner ? `${owner.name}::${name}` : name],
        content: i === 0 ? content : `\`\`\`rust\n${signature}\n\`\`\`\n\n${content}`, source: module.file, symbol,
        identifiers: [symbol.toLowerCase(), name.replace(/!$/, '').toLowerCase(), ...(owner ? [`${owner.name}::${name}`.toLowerCase()] : [])],
        importance: 0, deprecated: attached.deprecated || /^\s*#\[deprecated/m.test(node.text.slice(0, 200)),
      },
      name: owner?.name ?? rawName, privateNames: node.type === 'macro_definition' ? [] : module.privateNames, depth: base.length + (owner ? 1 : 0),
      kind: owner?.traitImpl ? 'trait_impl' : owner ? 'member' : node.type,
    }));
  };

  /**
   * The documented variants and `pub` fields of a type whose body is too long to stand in its signature: rustdoc shows
   * each under the type (`#variant.Io`, `#structfield.timeout`), so each is a member passage (`Error::Io`). A short
   * body stays in the type's signature, its docs with it, and gets none.
   */
  const emitFields = (node: SyntaxNode, module: Module, file: string, lineOffset: number) => {
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    if (!name || !body) return;
    const memberKind = node.type === 'enum_item' ? 'enum_variant' : 'field_declaration';
    let pending: SyntaxNode[] = [];
    for (const child of namedChildren(body)) {
      if (child.type === 'line_comment' || child.type === 'block_comment' || child.type === 'attribute_item') {
        if (child.type === 'attribute_item' || child.childForFieldName('outer')) pending.push(child);
        continue;
      }
      const attached = attach(pending, file);
      pending = [];
      if (child.type !== memberKind || !attached.doc.length) continue;
      if (memberKind === 'field_declaration' && !isPub(child)) continue;
      const target = source.target;
      if (target ? attached.cfgs?.some((c) => !cfgHolds(c, target)) : attached.notForDocs) continue;
      emit(child, module, attached, { name, traitImpl: false }, lineOffset);
    }
  };

  const moduleDocs = (module: Module, doc: string[], line: number) => {
    const text = doc.join('\n').trim();
    if (text.replace(/\s/g, '').length < 40 || module.hidden) return;
    const title = module.path.join('::');
    for (const draft of chunkByHeadings(text, { pageTitle: title, fixedTitle: true, source: module.file, locate: (where) => source.locate(module.file, where.anchor ? { anchor: where.anchor } : { line }) })) {
      items.push({ draft: { ...draft, symbol: title, importance: 0 }, name: module.path[module.path.length - 1] ?? source.crate, privateNames: module.privateNames, depth: module.path.length - 1, kind: 'module' });
    }
  };

  const learnMacro = (node: SyntaxNode, file: string, lineOffset: number) => {
    const name = node.childForFieldName('name')?.text;
    if (!name) return;
    const learned: { unit?: Expansion; body?: Expansion; passThrough: boolean; wrapper?: Attached } = { passThrough: false };
    for (const rule of namedChildren(node).filter((c) => c.type === 'macro_rule')) {
      const left = rule.childForFieldName('left');
      const right = rule.childForFieldName('right');
      if (!left || !right) continue;
      const expansion = { text: right.text.slice(1, -1), file, row: lineOffset + right.startPosition.row };
      if (left.text.replace(/\s/g, '') === '()') learned.unit ??= expansion;
      learned.body ??= expansion;
      // `($($item:item)*) => { $(#[cfg(…)] $item)* }` passes its input through: its input holds the items.
      if (/:\s*(item|tt)\b/.test(left.text)) learned.passThrough = true;
      const leading: SyntaxNode[] = [];
      for (const child of namedChildren(right)) {
        if (child.type === 'line_comment' && child.childForFieldName('outer')) leading.push(child);
        else break;
      }
      if (leading.length && /:\s*item\b/.test(left.text)) {
        learned.wrapper ??= { ...attach(leading, file), macroExport: /#\s*\[\s*macro_export\s*\]/.test(right.text) };
      }
    }
    localMacros.set(name, learned);
  };

  const walkItems = (nodes: SyntaxNode[], module: Module, file: string, lineOffset: number, macroDepth: number, owner?: { name: string; traitImpl: boolean; trait: boolean }, wrapper?: Attached) => {
    let pending: SyntaxNode[] = [];
    const inner: SyntaxNode[] = [];
    for (const raw of nodes) {
      // `crate_root!();` at item level parses as a statement around the invocation.
      const node = raw.type === 'expression_statement' && raw.namedChildren[0]?.type === 'macro_invocation' ? raw.namedChildren[0] : raw;
      if ((node.type === 'line_comment' || node.type === 'block_comment')) {
        if (node.childForFieldName('inner')) inner.push(node);
        else if (node.childForFieldName('outer')) pending.push(node);
        continue;
      }
      if (node.type === 'inner_attribute_item') { inner.push(node); continue; }
      if (node.type === 'attribute_item') { pending.push(node); continue; }
      let attached = attach(pending, file);
      pending = [];
      if (wrapper && !attached.doc.length) attached = { ...attached, doc: wrapper.doc, macroExport: attached.macroExport || wrapper.macroExport };
      const target = source.target;
      if (target ? attached.cfgs?.some((c) => !cfgHolds(c, target)) : attached.notForDocs) continue;
      if (node.type === 'mod_item') {
        const name = node.childForFieldName('name')?.text;
        if (!name) continue;
        const pub = isPub(node);
        const child: Module = {
          path: pub ? [...module.path, name] : module.path,
          privateNames: pub ? module.privateNames : [...module.privateNames, name], hidden: module.hidden || attached.hidden,
          file: module.file, dir: `${module.dir}/${name}`,
        };
        const body = node.childForFieldName('body');
        if (body) {
          walkItems(namedChildren(body), child, file, lineOffset, macroDepth);
        } else {
          const candidates = attached.pathAttr ? [path.posix.normalize(path.posix.join(module.dir, attached.pathAttr))]
            : [`${module.dir}/${name}.rs`, `${module.dir}/${name}/mod.rs`];
          const found = candidates.find((c) => source.files.has(c));
          if (found) visitFile(found, { ...child, file: found, dir: found.endsWith('/mod.rs') || attached.pathAttr ? path.posix.dirname(found) : found.replace(/\.rs$/, '') });
        }
        if (attached.doc.length && pub) moduleDocs({ ...child, file: module.file }, attached.doc, lineOf(node) + lineOffset);
        continue;
      }
      if (node.type === 'use_declaration' && isPub(node)) {
        const argument = node.childForFieldName('argument');
        for (const id of argument?.descendantsOfType(['identifier', 'type_identifier']) ?? []) if (id) reexported.add(id.text);
        if (argument?.type === 'use_wildcard') globbed.add(argument.text.replace(/::\*$/, '').split('::').pop() ?? '');
        continue;
      }
      if (node.type === 'macro_invocation' && macroDepth < MAX_MACRO_DEPTH) {
        // `cfg_rt! { pub fn spawn … }`: the token tree holds ordinary items; parse it as a file of its own.
        const tokens = namedChildren(node).find((c) => c.type === 'token_tree');
        const name = node.childForFieldName('macro')?.text ?? '';
        const local = localMacros.get(name);
        // Built for a target, a `cfg_if!` chain keeps one branch: the first whose predicate holds there.
        const branch = target && tokens ? cfgBranch(tokens, target) : undefined;
        if (branch !== undefined) {
          if (branch) parsers.parse('rust', branch.text.slice(1, -1), (root) => walkItems(namedChildren(root), module, file, lineOffset + branch.startPosition.row, macroDepth + 1, owner));
          continue;
        }
        const empty = Boolean(tokens && /^[({]\s*[)}]$/.test(tokens.text));
        const expansion = local && !local.wrapper && !local.passThrough ? (empty ? local.unit : local.body) : undefined;
        if (expansion) {
          // A crate-local macro that stamps out items (serde's `declare_error_trait!(…)`): its rule body, unsubstituted.
          parsers.parse('rust', expansion.text, (root) => walkItems(namedChildren(root), module, expansion.file, expansion.row, macroDepth + 1, owner));
        } else if (tokens && name !== 'macro_rules') {
          // Any delimiter: another crate's item macro takes its items in parentheses too (RustCrypto's
          // `digest::buffer_fixed!( /// MD5 hasher state. pub struct Md5(…); oid: …; )`); what does not parse as an item
          // (`oid: …`) is an error node the walk skips, and only documented `pub` items become passages.
          const text = tokens.text.slice(1, -1);
          parsers.parse('rust', text, (root) => walkItems(namedChildren(root), module, file, lineOffset + tokens.startPosition.row, macroDepth + 1, owner, local?.wrapper));
        }
        continue;
      }
      if (node.type === 'impl_item') {
        const type = node.childForFieldName('type')?.text.replace(/<[\s\S]*$/, '').split('::').pop();
        const body = node.childForFieldName('body');
        if (type && body && !attached.hidden) {
          walkItems(namedChildren(body), module, file, lineOffset, macroDepth, { name: type, traitImpl: Boolean(node.childForFieldName('trait')), trait: false });
        }
        continue;
      }
      if (node.type === 'macro_definition') learnMacro(node, file, lineOffset);
      if (!ITEM_KINDS.has(node.type)) continue;
      const visible = owner?.trait || owner?.traitImpl || (node.type === 'macro_definition' ? attached.macroExport : isPub(node));
      if (!visible) continue;
      emit(node, module, attached, owner, lineOffset);
      if (!owner && !attached.hidden && ['struct_item', 'enum_item', 'union_item'].includes(node.type) && !bodyKept(node)) {
        emitFields(node, module, file, lineOffset);
      }
      if (node.type === 'trait_item' && !attached.hidden) {
        const body = node.childForFieldName('body');
        const name = node.childForFieldName('name')?.text;
        if (body && name) walkItems(namedChildren(body), module, file, lineOffset, macroDepth, { name, traitImpl: false, trait: true });
      }
    }
    if (inner.length && !owner) {
      const attached = attach(inner, file);
      if (attached.hidden && macroDepth === 0) return;
      moduleDocs(module, attached.doc, lineOf(inner[0]!) + lineOffset);
    }
  };

  function visitFile(file: string, module: Module): void {
    if (visited.has(file)) return;
    visited.add(file);
    const text = source.files.get(file);
    if (text === undefined) return;
    parsers.parse('rust', text, (root) => walkItems(namedChildren(root), module, file, 0, 0));
  }

  const lib = source.libPath ?? (source.files.has('src/lib.rs') ? 'src/lib.rs' : undefined);
  if (lib) {
    visitFile(lib, { path: [source.crate], privateNames: [], hidden: false, file: lib, dir: path.posix.dirname(lib) });
  } else {
    // No library target (a binary crate): every source file, its path as the module path.
    for (const file of [...source.files.keys()].filter((f) => f.startsWith('src/') && f.endsWith('.rs')).sort()) {
      const segments = file.replace(/^src\//, '').replace(/\.rs$/, '').split('/').filter((s) => !['main', 'mod'].includes(s));
      visitFile(file, { path: [source.crate, ...segments], privateNames: [], hidden: false, file, dir: file.replace(/\.rs$/, '') });
    }
  }

  // Importance: the crate root first, then shallow public items; an item of a private module that nothing
  // re-exports is internal and sinks (it stays findable when nothing public answers).
  const hiddenIn = (name: string, privateNames: string[]) => privateNames.length > 0 && !reexported.has(name) && !privateNames.some((m) => globbed.has(m));
  // Methods follow their type, wherever the `impl` block lives: anyhow's `impl Error` sits in the private module
  // `error` while `Error` itself is public in lib.rs, and rustdoc shows those methods on `anyhow::Error`.
  const publicTypes = new Set(items.filter((i) => TYPE_KINDS.has(i.kind) && !hiddenIn(i.name, i.privateNames)).map((i) => i.name));
  return items.map(({ draft, name, privateNames, depth, kind }) => {
    const member = kind === 'member' || kind === 'trait_impl';
    const internal = hiddenIn(name, privateNames) && !(member && publicTypes.has(name));
    let importance = kind === 'module' ? 0.95 - 0.08 * depth : kind === 'trait_impl' ? TRAIT_IMPL_IMPORTANCE : 0.8 - 0.05 * depth;
    if (internal) importance = Math.min(importance, 0.2);
    if (draft.deprecated) importance -= 0.3;
    return { ...draft, importance, internal: internal || undefined };
  });
}
