// Rust examples as programs: doctests keep their hidden `# ` lines (they are part of the program) and get the `fn main`
// rustdoc would give them; asserted values are printed; the crates, features and companions the code uses are added.
import { parse as parseToml } from 'smol-toml';
import { descendants, namedChildren, parseCode, type SyntaxNode } from '../parse.ts';
import { callableFunctions, exerciseTypes, printPlaceholders } from './rust-items.ts';
import { printRustAsserts } from './rust-asserts.ts';
import { featuresForGatedNames, resolveFeatureGates } from './rust-features.ts';
import { unhideDoctest } from './rustdoc.ts';
import { SHOW_MODULE, showBindings, usesShows } from './rust-bindings.ts';

export { unhideDoctest };

export interface RustDep { version: string; features: string[]; package?: string }
export interface RustProgram { main: string; deps: Record<string, RustDep> }

/** Companion crates examples often use without saying, with the features their usual code needs. */
const COMPANIONS: Record<string, RustDep> = {
  serde: { version: '1', features: ['derive'] },
  serde_json: { version: '1', features: [] },
  tokio: { version: '1', features: ['macros', 'rt-multi-thread'] },
  reqwest: { version: '0.12', features: ['json'] },
  tracing_subscriber: { version: '0.3', features: ['env-filter'], package: 'tracing-subscriber' },
  anyhow: { version: '1', features: [] },
  futures: { version: '0.3', features: [] },
  env_logger: { version: '0.11', features: [] },
};

const NOT_CRATES = new Set(['std', 'core', 'alloc', 'self', 'super', 'crate', 'Self', 'proc_macro', 'test',
  'u8', 'u16', 'u32', 'u64', 'u128', 'usize', 'i8', 'i16', 'i32', 'i64', 'i128', 'isize', 'f16', 'f32', 'f64', 'f128', 'bool', 'char', 'str']);

/** Crate names the code refers to at its top: `use x::…`, `x::path`, `extern crate x`, `#[x::main]`. */
export function cratesUsed(root: SyntaxNode): Set<string> {
  const crates = new Set<string>();
  const local = new Set(descendants(root, 'mod_item').map((m) => m.childForFieldName('name')?.text ?? ''));
  // Names a `use` brings in (`use base64::{engine::general_purpose, …}` → `general_purpose::STANDARD`) are paths of
  // that crate, not crates: every identifier of a use declaration but its first.
  for (const use of descendants(root, 'use_declaration')) {
    for (const id of descendants(use, 'identifier').slice(1)) local.add(id.text);
  }
  const add = (name: string | undefined) => {
    if (name && !NOT_CRATES.has(name) && !local.has(name) && /^[a-z_][a-z0-9_]*$/.test(name)) crates.add(name);
  };
  for (const node of descendants(root, ['scoped_identifier', 'scoped_type_identifier', 'scoped_use_list'])) {
    if (/^scoped/.test(node.parent?.type ?? '') && node.parent?.childForFieldName('path')?.equals(node)) continue;
    let head: SyntaxNode | null = node;
    while (head && /^scoped/.test(head.type)) head = head.childForFieldName('path');
    if (head?.type === 'identifier') add(head.text);
  }
  for (const use of descendants(root, 'use_declaration')) {
    const argument = use.childForFieldName('argument');
    if (argument?.type === 'identifier') add(argument.text);
    if (argument?.type === 'use_as_clause') add(argument.childForFieldName('path')?.text.split('::')[0]);
  }
  for (const extern of descendants(root, 'extern_crate_declaration')) {
    // `extern crate jpeg_decoder as jpeg;`: the crate is the name, the alias a local name of it.
    const alias = extern.childForFieldName('alias')?.text;
    if (alias) { local.add(alias); crates.delete(alias); }
    add(extern.childForFieldName('name')?.text);
  }
  // Macro arguments are token trees, not paths: `serde_json::to_string(…)` inside println!(…) is identifier, `::`.
  for (const tree of descendants(root, 'token_tree')) {
    const children = tree.children.filter((c): c is SyntaxNode => c !== null);
    children.forEach((child, i) => {
      // Not a method's turbofish (`kv.get_value::<String>()`), nor a generic one (`parse::<u8>`): a path has a name after `::`.
      if (child.type === 'identifier' && children[i + 1]?.type === '::' && children[i - 1]?.type !== '::' && children[i - 1]?.type !== '.' && children[i + 2]?.type === 'identifier') add(child.text);
    });
  }
  if (/#\[derive\([^)]*\b(Serialize|Deserialize)\b/.test(root.text)) crates.add('serde');
  return crates;
}

const PRINTS = /\b(e?println!|e?print!|dbg!|writeln!\s*\(\s*(std::)?io::stdout)|\bassert_(eq|ne)!/;

/** Wraps a doctest or fragment in the `fn main` rustdoc would give it, async and fallible bodies included. */
function wrapMain(code: string, root: SyntaxNode): string {
  const lines = code.split('\n');
  // Crate-level lines stay at the crate root: inner attributes, `extern crate`, and the outer attributes on an
  // `extern crate` (`#[macro_use] extern crate im;`, on its line or the line before): inside `fn main` rustc refuses
  // them ("an `extern crate` loading macros must be at the crate root").
  const atRoot = lines.map((l) => /^\s*(#!\[|(#\[[^\]]*\]\s*)*extern crate\s)/.test(l));
  for (let i = lines.length - 2; i >= 0; i--) if (atRoot[i + 1] && /^\s*#\[[^\]]*\]\s*$/.test(lines[i]!)) atRoot[i] = true;
  const head = lines.filter((_, i) => atRoot[i]).map((l) => l.trim());
  let body = lines.filter((_, i) => !atRoot[i]).join('\n').trim();
  const topLevelAwait = descendants(root, 'await_expression').some((n) => !ancestor(n, 'function_item') && !ancestor(n, 'async_block') && !ancestor(n, 'closure_expression'));
  const topLevelTry = descendants(root, 'try_expression').some((n) => !ancestor(n, 'function_item') && !ancestor(n, 'closure_expression'));
  const endsWithOk = /(^|\n)\s*Ok::<[^\n]*>\s*\(\s*\(\s*\)\s*\)\s*;?\s*$/.test(body);
  const asyncKw = topLevelAwait ? 'async ' : '';
  const attr = topLevelAwait ? '#[tokio::main]\n' : '';
  let main: string;
  if (endsWithOk) {
    body = body.replace(/;\s*$/, '');
    main = `${attr}${asyncKw}fn main() -> Result<(), Box<dyn std::error::Error>> {\n    let result = ${topLevelAwait ? 'async' : '(||'} {\n${indent(body, 8)}\n    }${topLevelAwait ? '.await' : ')()'};\n    result.map_err(|e| format!("{e:?}").into())\n}\n`;
  } else if (topLevelTry) {
    main = `${attr}${asyncKw}fn main() -> Result<(), Box<dyn std::error::Error>> {\n${indent(body, 4)}\n    Ok(())\n}\n`;
  } else {
    main = `${attr}${asyncKw}fn main() {\n${indent(body, 4)}\n}\n`;
  }
  return [...head, main].join('\n');
}

/** `tracing` events and spans: its macros, `#[instrument]`, or a path through the crate. */
const TRACING = /\btracing::|#\[(tracing::)?instrument\b|\buse tracing\b/;
/** The `log` facade's macros or paths. */
const LOG = /\blog::|\buse log\b|#\[macro_use\]\s*extern crate log\b/;
/** The example installs a logger or subscriber of its own: it is what it shows, and a second one would refuse to start. */
const OWN_LOGGER = /set_logger|set_boxed_logger|impl\s+(log::)?Log\s+for|set_global_default|tracing_subscriber|with_default|Subscriber|env_logger|simple_logger|fern::|log4rs/;

/**
 * A program that prints nothing but logs through a facade (`log::info!`, `tracing::info!`, `#[instrument]`): with no
 * logger or subscriber installed, every record is dropped and the run shows nothing, though the example works — the
 * reader's application installs one. The program installs the usual one first (tracing-subscriber's fmt, env_logger),
 * at the most verbose level and on stdout, where the run's output is read. Not when the example installs its own, or
 * when the crate is such a logger itself (its examples show it).
 */
export function withLogOutput(code: string, importName: string): string {
  const own = importName.replace(/-/g, '_');
  // Read without comments: prose ("will be available for Subscribers") installs nothing.
  const uncommented = code.replace(/\/\/[^\n]*/g, '');
  if (OWN_LOGGER.test(uncommented) || /^(tracing_subscriber|env_logger)$/.test(own)) return code;
  const tracing = TRACING.test(uncommented) || own.startsWith('tracing');
  const log = !tracing && (LOG.test(uncommented) || own === 'log');
  if (!tracing && !log) return code;
  const line = tracing
    // As the global default, not fmt().try_init(): that also installs tracing-log's LogTracer as the `log` logger, and
    // an example that installs it itself (`LogTracer::init()?`) would then fail.
    // Spans too, where they open and close: an `#[instrument]`ed function logs nothing else (its arguments show there).
    ? 'let _ = tracing::subscriber::set_global_default(tracing_subscriber::fmt().with_max_level(tracing::Level::TRACE).with_span_events(tracing_subscriber::fmt::format::FmtSpan::NEW | tracing_subscriber::fmt::format::FmtSpan::CLOSE).with_writer(std::io::stdout).finish()); // tooldex: show the events'
    : 'let _ = env_logger::Builder::new().filter_level(log::LevelFilter::Trace).target(env_logger::Target::Stdout).try_init(); // tooldex: show the records';
  // The first line of `fn main`'s body, whatever its signature and attributes.
  const opening = /^(\s*(?:#\[[^\]]*\]\s*)*(?:async\s+)?fn main\s*\([^)]*\)[^{]*\{)[ \t]*\n/m.exec(code);
  if (!opening) return code;
  const at = opening.index + opening[0].length;
  return `${code.slice(0, at)}    ${line}\n${code.slice(at)}`;
}

const indent = (text: string, n: number) => text.split('\n').map((l) => (l ? ' '.repeat(n) + l : l)).join('\n');

function ancestor(node: SyntaxNode, type: string): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) if (p.type === type) return p;
  return undefined;
}

function hasMain(root: SyntaxNode): boolean {
  return namedChildren(root).some((n) => n.type === 'function_item' && n.childForFieldName('name')?.text === 'main');
}

/** The program and the crates it needs (name → version/features), from the crate's own manifest where it says. */
export async function rustProgram(code: string, origin: string, crate: { name: string; importName: string; version: string; deps: Record<string, RustDep>; features: string[]; gatedNames?: Record<string, string[]> }): Promise<RustProgram> {
  let source = origin === 'doctest' || origin === 'readme' || origin === 'docs' ? unhideDoctest(code) : code;
  // Before anything reads what the example prints: code under a feature gate is part of the example.
  const gated = await resolveFeatureGates(source, crate.features);
  source = gated.code;
  let root = await parseCode('rust', source);
  const silent = !PRINTS.test(source);
  // Read before the lines added below print anything: an example that prints its own results keeps its checks.
  const printsOwn = /\b(e?println!|e?print!|dbg!)/.test(source);
  if (silent) {
    // Definitions left to the reader print what they stand for; a `fn main() {}` stub gets the calls it leaves out.
    source = printPlaceholders(source);
    root = await parseCode('rust', source);
    if (hasMain(root)) source = exerciseInEmptyMain(root, source);
  }
  // Nothing printed and nothing checked: the values it computes are its result (see rust-bindings.ts).
  if (silent && !/\bassert(_eq|_ne)?!/.test(source)) {
    source = await showBindings(source);
    root = await parseCode('rust', source);
  }
  if (!hasMain(root)) {
    // Only definitions (a `fn` that does the work, the README's `fn write_temp_folder() -> io::Result<()>`): rustdoc
    // would wrap them in a `fn main` that never calls them, printing or not; the program calls them.
    if (onlyDefinitions(root)) source = withExercise(root, source);
    root = await parseCode('rust', source);
    source = wrapMain(source, root);
  }
  if (usesShows(source)) source = `${source.replace(/\s+$/, '')}\n${SHOW_MODULE}`;
  if (!printsOwn) source = await printRustAsserts(source);
  if (silent) source = withLogOutput(source, crate.importName);
  root = await parseCode('rust', source);
  // The features the example's own gates name, and those that compile the crate's names it uses (`to_allocvec`).
  const features = [...new Set([...gated.features, ...await featuresForGatedNames(source, crate.importName, crate.gatedNames ?? {})])].sort();
  const deps: Record<string, RustDep> = { [crate.name]: { version: `=${crate.version}`, features } };
  // The runtime the `#[tokio::main]` needs; when the crate is that runtime itself, it stays pinned and gains the features.
  if (/#\[tokio::main\]/.test(source)) deps.tokio = mergeDep(deps.tokio ?? crate.deps.tokio ?? COMPANIONS.tokio!, COMPANIONS.tokio!);
  for (const used of cratesUsed(root)) {
    if (used === crate.importName) continue;
    const manifestKey = Object.keys(crate.deps).find((key) => key.replace(/-/g, '_') === used);
    const known = manifestKey ? crate.deps[manifestKey] : undefined;
    const companion = COMPANIONS[used];
    const dep = known && companion ? mergeDep(known, companion) : known ?? companion ?? { version: '*', features: [] };
    const key = manifestKey ?? companion?.package ?? used;
    if (key === crate.name || dep.package === crate.name) continue;
    deps[key] = dep;
  }
  if (/#\[derive\([^)]*\b(Serialize|Deserialize)\b/.test(source) && deps.serde) deps.serde = mergeDep(deps.serde, COMPANIONS.serde!);
  // What the example says it needs, in its own words (`// syn = { version = "3", features = ["full"] }`), wins.
  for (const [key, stated] of Object.entries(statedDependencies(source))) {
    if (key === crate.name) deps[key] = mergeDep(deps[key]!, { version: deps[key]!.version, features: stated.features });
    else deps[key] = deps[key] && stated.version === '*' ? mergeDep(deps[key], stated) : stated;
  }
  return { main: source.trim() + '\n', deps };
}

/**
 * The dependencies an example states in a comment, as a Cargo.toml excerpt (`// [dependencies]` then
 * `// quote = "1"`, `// syn = { version = "3", features = ["fold", "full"] }`); empty when it states none.
 */
export function statedDependencies(code: string): Record<string, RustDep> {
  const lines = code.split('\n');
  const start = lines.findIndex((l) => /^\s*\/\/\s*\[(dev-)?dependencies\]\s*$/.test(l));
  if (start < 0) return {};
  const entries: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const entry = /^\s*\/\/\s*([A-Za-z0-9_-]+\s*=.*)$/.exec(line)?.[1];
    if (!entry) break;
    entries.push(entry);
  }
  let table: Record<string, unknown>;
  try { table = parseToml(entries.join('\n')); } catch { return {}; }
  const out: Record<string, RustDep> = {};
  for (const [key, raw] of Object.entries(table)) {
    const dep = typeof raw === 'string' ? { version: raw } : raw as { version?: string; features?: string[]; package?: string };
    if (typeof dep !== 'object' || dep === null) continue;
    out[key] = { version: typeof dep.version === 'string' ? dep.version : '*', features: Array.isArray(dep.features) ? dep.features.filter((f) => typeof f === 'string') : [],
      ...(typeof dep.package === 'string' ? { package: dep.package } : {}) };
  }
  return out;
}

function mergeDep(a: RustDep, b: RustDep): RustDep {
  return { ...a, features: [...new Set([...a.features, ...b.features])] };
}

/** A doctest with no statements of its own: items and `use` lines only. */
function onlyDefinitions(root: SyntaxNode): boolean {
  const top = namedChildren(root).filter((n) => !/comment$/.test(n.type));
  return top.length > 0 && top.every((n) => /_item$/.test(n.type) || n.type === 'use_declaration');
}

/** The definitions, then the lines that exercise them (unchanged when there is nothing plain to call or build). */
function withExercise(root: SyntaxNode, code: string): string {
  const lines = exercise(root);
  return lines.length ? `${code.replace(/\s+$/, '')}\n${lines.join('\n')}\n` : code;
}

/** What an example that only defines things leaves to its reader: calls of its functions, values of its types. */
function exercise(root: SyntaxNode): string[] {
  const calls = callableFunctions(root).map((f) => (f.returns ? `println!("{:?}", ${f.name}());` : `${f.name}();`));
  return [...calls, ...exerciseTypes(root)];
}

/** `fn main() {}` (rustdoc's hidden stub under an example that only defines things): main exercises the definitions. */
function exerciseInEmptyMain(root: SyntaxNode, code: string): string {
  const main = namedChildren(root).find((n) => n.type === 'function_item' && n.childForFieldName('name')?.text === 'main');
  const body = main?.childForFieldName('body');
  if (!main || !body || namedChildren(body).some((n) => !/comment$/.test(n.type)) || main.childForFieldName('return_type')) return code;
  const lines = exercise(root);
  if (!lines.length) return code;
  return `${code.slice(0, body.startIndex)}{\n${lines.map((l) => `    ${l}`).join('\n')}\n}${code.slice(body.endIndex)}`;
}

/**
 * The optional dependencies that features enable (`macros = ["tokio-macros"]`, `dep:x`, transitively through other
 * features), as `name@requirement` packages: the sandbox vendors what a plain dependency on the crate resolves, so a
 * feature the program turns on needs its crates listed too.
 */
export function optionalDependencies(features: string[], featureMap: Record<string, string[]>, deps: Record<string, RustDep>): string[] {
  const seen = new Set<string>();
  const crates = new Set<string>();
  const visit = (feature: string) => {
    if (seen.has(feature)) return;
    seen.add(feature);
    for (const entry of featureMap[feature] ?? []) {
      const name = entry.replace(/^dep:/, '').split(/\??\//)[0]!;
      if (deps[name] && (entry.startsWith('dep:') || !(name in featureMap) || entry.includes('/'))) crates.add(name);
      if (!entry.startsWith('dep:') && !entry.includes('/')) visit(entry);
    }
  };
  features.forEach(visit);
  return [...crates].filter((name) => /^[=^~<>]*[0-9][0-9A-Za-z.*+-]*$/.test(deps[name]!.version)).map((name) => `${deps[name]!.package ?? name}@${deps[name]!.version}`);
}

/** Cargo.toml of the sandbox project: the crate pinned exactly, companions with the features the code needs. */
/** The program's manifest; `edition` 2021 unless a repair asked for an older one (see repairFor). */
export function cargoManifest(deps: Record<string, RustDep>, edition = '2021'): string {
  const lines = ['[package]', 'name = "quickstart"', 'version = "0.1.0"', `edition = "${edition}"`, 'publish = false', '', '[dependencies]'];
  for (const [name, dep] of Object.entries(deps).sort(([a], [b]) => a.localeCompare(b))) {
    const fields = [`version = ${JSON.stringify(dep.version)}`];
    if (dep.package && dep.package !== name) fields.push(`package = ${JSON.stringify(dep.package)}`);
    if (dep.features.length) fields.push(`features = [${dep.features.map((f) => JSON.stringify(f)).join(', ')}]`);
    lines.push(`${name} = { ${fields.join(', ')} }`);
  }
  // Every verification builds its dependencies afresh in its own target directory, and nobody debugs it: without
  // debug info a build needs a fraction of the memory (the sandbox's limit stopped futures-channel) and link time.
  lines.push('', '[profile.dev]', 'debug = false');
  return lines.join('\n') + '\n';
}
