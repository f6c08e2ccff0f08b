// Rust programs written from a crate's public API (as the docs capability extracts it) when its docs show no example
// that runs: constants read, functions and methods called with plain values, each printed; and what to say instead
// when a crate has nothing to call on its own (a procedural-macro crate, a crate of traits).
import { parse as parseToml } from 'smol-toml';
import { textOf } from '../docs/archive.ts';
import { apiFromRustCrate } from '../docs/extract/rust.ts';
import { hostTarget } from '../docs/extract/rust-cfg.ts';
import { loadParsers } from '../docs/extract/treesitter.ts';
import type { PassageDraft } from '../docs/extract/types.ts';
import type { ExampleFiles } from './artifact.ts';
import { namedChildren, parseCode, type SyntaxNode } from './parse.ts';
import { RUST_SAMPLE } from './programs/rust-items.ts';
import type { Candidate } from './types.ts';

/** Types whose values `{:?}` prints as they are (no crate type, whose Debug is unknown, and no function). */
const PRINTABLE = /^(&('static )?)?(str|String|bool|char|[ui](8|16|32|64|128|size)|f32|f64|((std|core)::ffi::)?c_(u?(char|short|int|long|longlong)|schar|float|double))$/;
const WRAPPED = /^(Option|Vec|Box)<(.+)>$/;
/** Calls with effects a reader would not try blind (blocking, global state, process control). */
const EFFECTFUL = /^(set|reset|clear|init|register|close|stop|start|run|serve|listen|exit|abort|panic|spawn|block|park|unpark|lock|unlock|wait|sleep|yield|forget|leak|read|write|flush|shutdown|kill|drop)(_|$)/;

/** Whether `{:?}` prints a value of the type as it is; the crate's own aliases (`type size_t = usize`) are followed. */
function printable(type: string, aliases: Map<string, string>, depth = 0): boolean {
  const t = type.replace(/\s+/g, ' ').trim();
  const wrapped = WRAPPED.exec(t);
  if (wrapped) return printable(wrapped[2]!, aliases, depth);
  if (/^\(.*\)$/.test(t) && t !== '()') return t.slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean).every((p) => printable(p, aliases, depth));
  const alias = aliases.get(t.replace(/^(crate|self)::/, ''));
  if (alias && depth < 5) return printable(alias, aliases, depth + 1);
  return PRINTABLE.test(t);
}

interface ApiItem { symbol: string; owner?: string; signature: string; importance: number; url: string; file: string }

interface Written { code: string; rank: number; item: ApiItem }

const signatureOf = (draft: PassageDraft) => /^```rust\n([^\n]*)\n```/.exec(draft.content)?.[1];

/** The crate's public items, from the docs capability's extraction (the same reading rustdoc's pages are built from). */
async function publicItems(artifact: ExampleFiles): Promise<ApiItem[]> {
  const files = new Map(artifact.files.filter((f) => /\.(rs|md)$/.test(f.path)).map((f) => [f.path, textOf(f)] as const));
  const manifest = artifact.files.find((f) => f.path === 'Cargo.toml');
  let cargo: { lib?: { path?: string }; features?: Record<string, string[]> } = {};
  try { cargo = manifest ? parseToml(textOf(manifest)) as typeof cargo : {}; } catch { cargo = {}; }
  const libPath = cargo.lib?.path?.replace(/^\.\//, '');
  // Read as the program will build it: on this machine's target, default features on, undocumented items included.
  const drafts = await apiFromRustCrate(await loadParsers(['rust']), {
    crate: artifact.importName, files, ...(libPath ? { libPath } : {}), locate: (file, where) => artifact.fileUrl(file, where.line),
    target: hostTarget(defaultFeatures(cargo.features ?? {})), undocumented: true,
  });
  const items: ApiItem[] = [];
  for (const draft of drafts) {
    const signature = signatureOf(draft);
    if (!signature || !draft.symbol || draft.internal || draft.deprecated) continue;
    const member = draft.headings[1]?.includes('::') ? draft.headings[1].split('::')[0] : undefined;
    items.push({ symbol: draft.symbol, ...(member ? { owner: member } : {}), signature, importance: draft.importance ?? 0, url: draft.url, file: draft.source });
  }
  return items;
}

/** The features a plain dependency on the crate enables: `default` and what it enables, transitively. */
export function defaultFeatures(features: Record<string, string[]>): string[] {
  const on = new Set<string>();
  const visit = (name: string) => {
    if (on.has(name) || !(name in features)) return;
    on.add(name);
    for (const next of features[name] ?? []) if (!/[:/]/.test(next)) visit(next);
  };
  visit('default');
  return [...on].filter((f) => f !== 'default');
}

/** Plain arguments for a function's parameters (its receiver aside), or undefined when one needs more than that. */
function argumentsOf(fn: SyntaxNode): { args: string[]; receiver?: string } | undefined {
  const args: string[] = [];
  let receiver: string | undefined;
  for (const param of namedChildren(fn.childForFieldName('parameters') ?? fn)) {
    if (param.type === 'self_parameter') { receiver = param.text; continue; }
    if (param.type !== 'parameter') return undefined;
    const sample = RUST_SAMPLE[param.childForFieldName('type')?.text.replace(/\s+/g, '') ?? ''];
    if (!sample) return undefined;
    args.push(sample);
  }
  return { args, ...(receiver ? { receiver } : {}) };
}

async function parseSignature(signature: string): Promise<SyntaxNode | undefined> {
  const root = await parseCode('rust', /\bfn\b/.test(signature) ? `${signature.replace(/;\s*$/, '')} {}` : signature);
  const item = namedChildren(root).find((n) => /^(function_item|const_item|static_item)$/.test(n.type));
  return item && !root.hasError ? item : undefined;
}

/** An expression as a label inside a format string: each value printed says what it is (`STDIN_FILENO = 0`). */
const shown = (expression: string) => expression.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\{/g, '{{').replace(/\}/g, '}}');

/** A plain function (not unsafe, async or generic, no `impl Trait` argument) and its modifiers in the signature. */
function plainFunction(fn: SyntaxNode): boolean {
  const modifiers = namedChildren(fn).find((n) => n.type === 'function_modifiers')?.text ?? '';
  return !/\b(unsafe|async|extern)\b/.test(modifiers) && !fn.childForFieldName('type_parameters') && !/\bimpl\s/.test(fn.childForFieldName('parameters')?.text ?? '');
}

/**
 * Programs from the public API, best first: a value made with a type's argument-free constructor and a method of it
 * called with plain values (`SpinWait::new()` then `.spin()`); free functions called with plain values; constants
 * read. Only what prints as it is (numbers, strings, their options and vectors) is printed.
 */
export async function rustApiPrograms(artifact: ExampleFiles): Promise<Written[]> {
  const items = await publicItems(artifact);
  const written: Written[] = [];
  const aliases = new Map<string, string>();
  for (const item of items) {
    const alias = /^pub type (\w+)\s*=\s*([^;<]+(?:<[^;]*>)?);$/.exec(item.signature);
    if (alias && !item.owner) aliases.set(alias[1]!, alias[2]!.trim());
  }
  const constructors = new Map<string, ApiItem>();
  const parsed = new Map<ApiItem, SyntaxNode>();
  for (const item of items) {
    const node = await parseSignature(item.signature);
    if (!node) continue;
    parsed.set(item, node);
    const name = node.childForFieldName('name')?.text ?? '';
    if (item.owner && node.type === 'function_item' && plainFunction(node) && /^(new|default)$/.test(name)) {
      const found = argumentsOf(node);
      const returns = node.childForFieldName('return_type')?.text ?? '';
      // `new()` over `default()` when a type has both: it is what its docs call.
      const made = found && !found.receiver && !found.args.length && (returns === 'Self' || returns === item.owner);
      if (made && (name === 'new' || !constructors.has(item.owner))) constructors.set(item.owner, item);
    }
  }
  for (const [item, node] of parsed) {
    const name = node.childForFieldName('name')?.text ?? '';
    if (node.type === 'const_item' || node.type === 'static_item') {
      if (!item.owner && printable(node.childForFieldName('type')?.text ?? '', aliases) && !/\bmut\b/.test(node.text.split('=')[0]!)) {
        written.push({ code: `println!("${shown(item.symbol)} = {:?}", ${item.symbol});`, rank: 0 + item.importance, item });
      }
      continue;
    }
    if (!plainFunction(node) || EFFECTFUL.test(name) || !printable(node.childForFieldName('return_type')?.text ?? '', aliases)) continue;
    const found = argumentsOf(node);
    if (!found) continue;
    const call = `${name}(${found.args.join(', ')})`;
    if (item.owner && found.receiver) {
      const constructor = constructors.get(item.owner);
      if (!constructor) continue;
      written.push({ code: `let mut value = ${constructor.symbol}();\nprintln!("${shown(`${constructor.symbol}().${call}`)} = {:?}", value.${call});`, rank: 3 + item.importance, item });
    } else if (!found.receiver) {
      written.push({ code: `println!("${shown(`${item.symbol}(${found.args.join(', ')})`)} = {:?}", ${item.symbol}(${found.args.join(', ')}));`, rank: (found.args.length ? 2 : 1) + item.importance, item });
    }
  }
  written.push(...methodPrograms(parsed, constructors, aliases));
  return written.sort((a, b) => b.rank - a.rank);
}

/** Method calls a value-use program makes at most: a few writes and the reads that show them. */
const MAX_METHOD_CALLS = 5;

/**
 * A value used, as Go's and npm's method programs do (the r10-r11 raters' "only prints the empty default value",
 * "notifies nothing and dumps it"): the type's argument-free constructor, then its methods that take plain data
 * (writes, as statements: `value.push_str("example");`, `value.update(b"example");`), then the reads that show what
 * they did (no arguments, a printable result), each printed with its call. Methods that take `self` by value (they
 * consume it) and effectful names are never called; one program per type with at least one write and one read.
 */
function methodPrograms(parsed: Map<ApiItem, SyntaxNode>, constructors: Map<string, ApiItem>, aliases: Map<string, string>): Written[] {
  const byOwner = new Map<string, Array<{ item: ApiItem; name: string; args: string[]; reads: boolean }>>();
  for (const [item, node] of parsed) {
    if (!item.owner || !constructors.has(item.owner) || node.type !== 'function_item' || !plainFunction(node)) continue;
    const name = node.childForFieldName('name')?.text ?? '';
    if (EFFECTFUL.test(name) || /^(new|default|clone|into_\w+|as_mut\w*|iter_mut|drain)$/.test(name)) continue;
    const found = argumentsOf(node);
    // `&self`/`&mut self` only: a method taking `self` ends the value.
    if (!found?.receiver || !/^&/.test(found.receiver)) continue;
    const returns = node.childForFieldName('return_type')?.text ?? '';
    const reads = !found.args.length && printable(returns, aliases);
    const writes = found.args.length > 0 && /^&\s*mut\b/.test(found.receiver);
    if (!reads && !writes) continue;
    const list = byOwner.get(item.owner) ?? [];
    list.push({ item, name, args: found.args, reads });
    byOwner.set(item.owner, list);
  }
  const out: Written[] = [];
  for (const [owner, methods] of byOwner) {
    const writes = methods.filter((m) => !m.reads).sort((a, b) => b.item.importance - a.item.importance || b.args.length - a.args.length).slice(0, 2);
    const reads = methods.filter((m) => m.reads).sort((a, b) => b.item.importance - a.item.importance).slice(0, MAX_METHOD_CALLS - writes.length);
    if (!writes.length || !reads.length) continue;
    const constructor = constructors.get(owner)!;
    const lines = [
      `let mut value = ${constructor.symbol}();`,
      ...writes.map((w) => `value.${w.name}(${w.args.join(', ')});`),
      ...reads.map((r) => `println!("${shown(`${r.name}()`)} = {:?}", value.${r.name}());`),
    ];
    // Hand rank, as the builder's others: above the one-method program (3), the methods' importance added.
    const importance = Math.max(...[...writes, ...reads].map((m) => m.item.importance));
    out.push({ code: lines.join('\n'), rank: 4 + importance, item: writes[0]!.item });
  }
  return out;
}

/** API programs as candidates (origin `api`, tried after every real example): at most three. */
export async function rustApiCandidates(artifact: ExampleFiles): Promise<Candidate[]> {
  const written = await rustApiPrograms(artifact);
  const seen = new Set<string>();
  return written.filter((w) => !seen.has(w.code) && seen.add(w.code)).slice(0, 3).map((w) => ({
    code: w.code, language: 'rust', origin: 'api', path: w.item.file, source: w.item.url,
  }));
}

/**
 * A procedural-macro crate (`[lib] proc-macro = true`) and the crate it is used through: named by its description
 * (`Implementation detail of the \`thiserror\` crate`), else its own name without `-impl`, `-macro`, `-derive`….
 * Undefined for any other crate.
 */
export function proceduralMacroCrate(artifact: ExampleFiles, name: string): { facade?: string } | undefined {
  const manifest = artifact.files.find((f) => f.path === 'Cargo.toml');
  let cargo: { lib?: Record<string, unknown>; package?: { description?: string } } = {};
  try { cargo = manifest ? parseToml(textOf(manifest)) as typeof cargo : {}; } catch { cargo = {}; }
  if (cargo.lib?.['proc-macro'] !== true && cargo.lib?.proc_macro !== true) return undefined;
  const described = /`([a-z][a-z0-9_-]*)`/.exec(cargo.package?.description ?? '')?.[1];
  const stripped = name.replace(/[-_](impl|internals?|macros?|derive|codegen)$/, '');
  const facade = described && described !== name ? described : stripped !== name ? stripped : undefined;
  return facade ? { facade } : {};
}

/**
 * Why a crate with no example has nothing to run on its own, when that is so: a procedural-macro crate is used through
 * the crate that re-exports its macros (named by its description, else by its own name without `-impl`/`-macro`…);
 * a crate whose public API is traits is implemented and used by other crates. Undefined otherwise.
 */
export async function nothingToCall(artifact: ExampleFiles, name: string): Promise<string | undefined> {
  const macros = proceduralMacroCrate(artifact, name);
  if (macros) {
    const facade = macros.facade;
    return `a procedural-macro crate: its macros are meant to be used through ${facade ? `\`${facade}\`` : "the crate that re-exports them"}, not on their own, and its docs show no example`;
  }
  const items = (await publicItems(artifact)).filter((i) => !i.owner);
  const traits = items.filter((i) => /^pub\s+(unsafe\s+)?trait\s/.test(i.signature));
  if (traits.length && traits.length >= 0.6 * items.length && !(await rustApiPrograms(artifact)).length) {
    const names = traits.slice(0, 4).map((t) => t.symbol.split('::').pop()).join(', ');
    return `its public API is traits (${names}${traits.length > 4 ? ', …' : ''}) for other crates to implement and use, with nothing to call on plain values, and its docs show no example`;
  }
  return undefined;
}
