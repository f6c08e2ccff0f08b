// Which of a crate's item names only a non-default feature compiles, read from the crate's own source: a module,
// function, type, macro or re-export under `#[cfg(feature = "x")]` (postcard's `to_allocvec` under `alloc`, backoff's
// `future` module under `futures`, pollster's `main` under `macro`). A plain dependency builds the default features
// only, so an example that uses such a name fails with "unresolved import"; the program turns the feature on instead.
import { createHash } from 'node:crypto';
import { cfgHolds, cfgPredicate, hostTarget } from '../docs/extract/rust-cfg.ts';
import { withSyntaxTree, type SyntaxNode } from './parse.ts';
import { featuresToSatisfy } from './programs/rust-features.ts';

/**
 * The features a plain dependency turns on: `default` and what it enables, transitively, with the optional
 * dependencies those name (`dep:x`, and `x/feature`, which turns `x` on unless written `x?/feature`): k256's default
 * `ecdsa` enables `ecdsa-core/signing`, so items under `cfg(feature = "ecdsa-core")` are there by default.
 */
export function enabledByDefault(featureMap: Record<string, string[]>): string[] {
  const on = new Set<string>();
  const visit = (name: string) => {
    if (on.has(name)) return;
    on.add(name);
    for (const entry of featureMap[name] ?? []) {
      if (entry.startsWith('dep:')) on.add(entry.slice(4));
      else if (entry.includes('/')) { if (!entry.includes('?/')) on.add(entry.split('/')[0]!); }
      else visit(entry);
    }
  };
  if ('default' in featureMap) visit('default');
  on.delete('default');
  return [...on];
}

/** Bounds on what is read: the crate's own sources only, as much as a large crate's library. */
const MAX_FILES = 400;
const MAX_BYTES = 4_000_000;

/**
 * Item name → the features that compile it, for names no declaration gives with the default features on (a name also
 * declared ungated, or under a gate the defaults satisfy — `cfg(not(feature = "std"))` beside `cfg(feature = "std")` —
 * needs nothing). Only features the manifest declares; the first declaration's gate when there are several.
 */
export async function featureGatedNames(files: { path: string; text: string }[], declared: string[], defaults: string[]): Promise<Record<string, string[]>> {
  // Every verification of a crate version reads the same sources again (one parse of each gating file, seconds for a
  // large crate): the answer is kept per input, keyed by a digest of the files and features, so it is the same answer.
  const key = gatesKey(files, declared, defaults);
  const kept = GATES_SEEN.get(key);
  if (kept) return structuredClone(kept);
  const out = await readGatedNames(files, declared, defaults);
  GATES_SEEN.set(key, out);
  if (GATES_SEEN.size > GATES_KEPT) GATES_SEEN.delete(GATES_SEEN.keys().next().value!);
  return structuredClone(out);
}

/** How many crate versions' answers are kept (each a small name → features map), the oldest dropped first. */
const GATES_KEPT = 64;
const GATES_SEEN = new Map<string, Record<string, string[]>>();

function gatesKey(files: { path: string; text: string }[], declared: string[], defaults: string[]): string {
  const hash = createHash('sha256').update(JSON.stringify([declared, defaults]));
  for (const file of files) hash.update(`\0${file.path}\0${file.text.length}\0`).update(file.text);
  return hash.digest('hex');
}

async function readGatedNames(files: { path: string; text: string }[], declared: string[], defaults: string[]): Promise<Record<string, string[]>> {
  const sources = files.filter((f) => f.path.endsWith('.rs') && !/(^|\/)(tests|benches|examples|fuzz)\//.test(f.path) && !/(^|\/)build\.rs$/.test(f.path)).slice(0, MAX_FILES);
  const read: Declared = { items: [], modules: [] };
  const perFile = new Map<string, Declared>();
  let bytes = 0;
  const parse = async (file: { path: string; text: string }) => {
    bytes += file.text.length;
    if (bytes > MAX_BYTES) return;
    const found: Declared = { items: [], modules: [] };
    await withSyntaxTree('rust', file.text, (root) => collect(root, [], found, moduleOf(file.path)));
    perFile.set(file.path, found);
    read.modules.push(...found.modules);
  };
  // Files that gate something themselves, then the files of modules declared under a gate (`#[cfg(feature = "batch")]
  // mod batch;`), whose items are all gated even where the file says nothing of features.
  for (const file of sources) if (/\bfeature\s*=/.test(file.text)) await parse(file);
  const gatedModules = new Map<string, string[]>();
  for (const module of read.modules) {
    const all = read.modules.filter((m) => m.name === module.name);
    if (all.every((m) => m.predicates.length)) gatedModules.set(module.name, all[0]!.predicates);
  }
  for (const file of sources) if (!perFile.has(file.path) && gatedModules.has(moduleOf(file.path) ?? '')) await parse(file);
  const gates = new Map<string, string[][]>();
  for (const [file, found] of perFile) {
    const outer = gatedModules.get(moduleOf(file) ?? '') ?? [];
    for (const item of found.items) gates.set(item.name, [...(gates.get(item.name) ?? []), [...outer, ...item.predicates]]);
  }
  const target = hostTarget(defaults);
  const known = new Set(declared);
  const out: Record<string, string[]> = {};
  for (const [name, declarations] of gates) {
    if (declarations.some((predicates) => predicates.every((p) => cfgHolds(p, target)))) continue;
    const features = [...new Set(declarations[0]!.flatMap((p) => featuresToSatisfy(p, defaults)))].filter((f) => known.has(f) && !defaults.includes(f));
    // Only when the features make it hold: not under `cfg(test)`, another target, or a feature the crate lacks.
    const withThem = hostTarget([...defaults, ...features]);
    if (features.length && declarations[0]!.every((p) => cfgHolds(p, withThem))) out[name] = features;
  }
  return out;
}

interface Declared { items: { name: string; predicates: string[] }[]; modules: { name: string; predicates: string[] }[] }

/** The module a source file holds: `src/batch.rs` and `src/batch/mod.rs` are `batch`; a crate root none. */
function moduleOf(path: string): string | undefined {
  const parts = path.replace(/\.rs$/, '').split('/');
  const name = parts.at(-1) === 'mod' ? parts.at(-2) : parts.at(-1);
  return name && !/^(lib|main)$/.test(name) ? name : undefined;
}

/**
 * Module-level declarations of a file or an inline module, each with the feature gates above it and its modules'; in
 * a module also as `module::name`, since one name may be declared plainly in one module and gated in another (backoff's
 * `retry`, and `future::retry` under `any(feature = "tokio", feature = "async-std")`).
 */
function collect(container: SyntaxNode, outer: string[], found: Declared, module?: string): void {
  let pending: string[] = [];
  for (const node of container.namedChildren) {
    if (!node || /comment$/.test(node.type)) continue;
    if (node.type === 'attribute_item') {
      const predicate = cfgPredicate(node.namedChildren.find((c) => c?.type === 'attribute')?.text ?? '');
      if (predicate) pending.push(predicate);
      continue;
    }
    const predicates = [...outer, ...pending];
    pending = [];
    for (const name of declaredNames(node)) {
      found.items.push({ name, predicates });
      if (module) found.items.push({ name: `${module}::${name}`, predicates });
    }
    const body = node.type === 'mod_item' ? node.childForFieldName('body') : null;
    if (body) collect(body, predicates, found, node.childForFieldName('name')?.text);
    else if (node.type === 'mod_item') found.modules.push({ name: node.childForFieldName('name')?.text ?? '', predicates });
  }
}

const NAMED_ITEM = /^(mod|function|struct|enum|union|trait|type|const|static|macro_definition)(_item)?$|^macro_definition$/;

/**
 * The public names an item declares at module level: its own name, or what a `pub use` brings in (the alias where it
 * renames); macros by `macro_rules!` (exported by attribute, not `pub`). Private helpers and tests name nothing a
 * reader uses.
 */
function declaredNames(node: SyntaxNode): string[] {
  const visibility = node.namedChildren.find((c) => c?.type === 'visibility_modifier')?.text;
  if (node.type !== 'macro_definition' && visibility !== 'pub') return [];
  if (node.type === 'use_declaration') {
    const argument = node.childForFieldName('argument');
    return argument ? useNames(argument) : [];
  }
  if (!NAMED_ITEM.test(node.type)) return [];
  const name = node.childForFieldName('name')?.text;
  return name ? [name] : [];
}

function useNames(node: SyntaxNode): string[] {
  switch (node.type) {
    case 'identifier': return [node.text];
    case 'scoped_identifier': return [node.childForFieldName('name')?.text ?? ''].filter((n) => n && n !== 'self');
    case 'use_as_clause': return [node.childForFieldName('alias')?.text ?? ''].filter(Boolean);
    case 'scoped_use_list': { const list = node.childForFieldName('list'); return list ? useNames(list) : []; }
    case 'use_list': return node.namedChildren.flatMap((c) => (c ? useNames(c) : []));
    default: return [];
  }
}
