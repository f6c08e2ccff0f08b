// Collects usage-example candidates from a package version's own files: fenced blocks of the README and docs
// (Markdown, reStructuredText), doctests in doc comments and docstrings, Go Example functions, whole example files.
import type { Ecosystem } from '../catalog/index.ts';
import { parse as parseToml } from 'smol-toml';
import { textOf } from '../docs/archive.ts';
import { rstToMarkdown } from '../docs/extract/rst.ts';
import type { ExampleFiles } from './artifact.ts';
import { declaredApiCandidates, declaredLibSample } from './programs/npm-api.ts';
import { GO_SAMPLE, goMethodPrograms } from './programs/go-api.ts';
import { exampleDeclarations } from './programs/go-examples.ts';
import { descendants, parseCode, type Grammar, type SyntaxNode } from './parse.ts';
import { DATA_LANGUAGE, type DataBlock } from './fixtures.ts';
import { pythonApiCandidates } from './python-api.ts';
import { resultsAfterPrompts } from './programs/python-results.ts';
import { ipythonAsDoctest } from './programs/python.ts';
import { docsCall, docsOnlyText, docsText, docsValues, NO_DOCS_VALUES, type DocsValues } from './docs-values.ts';
import { rustApiCandidates } from './rust-api.ts';
import type { Candidate, CandidateOrigin } from './types.ts';

const MAX_CANDIDATE_CHARS = 6000;
const MAX_CANDIDATES = 200;

interface Fence { info: string; code: string; line: number }

/** Fenced code blocks of a Markdown text (CommonMark fences: ``` or ~~~, closed by a fence at least as long). */
export function fencedBlocks(markdown: string): Fence[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s{0,3})(`{3,}|~{3,})\s*([^`\n]*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '```', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^\s{0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!.trimStart());
    }
    blocks.push({ info: info.trim(), code: body.join('\n'), line: i + 2 });
    i = j;
  }
  return blocks;
}

const LANGUAGE_OF: Record<Ecosystem, RegExp> = {
  npm: /^(js|javascript|ts|typescript|jsx|tsx|mjs|cjs|node|es6)$/i,
  pypi: /^(python|py|python3|pycon|pyconsole|ipython|doctest)$/i,
  crates: /^(rust|rs)$/i,
  go: /^(go|golang)$/i,
  rubygems: /^(ruby|rb|irb)$/i,
};

/** Rustdoc fence attributes that mean "not a runnable doctest". */
const RUST_SKIP = /\b(ignore|compile_fail|should_panic|text|toml|sh|bash|console|json|yaml|ini|shell|plain|no_compile)\b/;

function languageOfFence(ecosystem: Ecosystem, info: string, inRustDoc: boolean): string | undefined {
  const words = info.toLowerCase().split(/[\s,{}.]+/).filter(Boolean);
  if (inRustDoc) {
    if (RUST_SKIP.test(info.toLowerCase())) return undefined;
    if (words.every((w) => /^(rust|no_run|edition\d+|should_run|allow_fail)$/.test(w))) return words.includes('no_run') ? 'rust-no-run' : 'rust';
    return undefined;
  }
  const first = words[0] ?? '';
  return LANGUAGE_OF[ecosystem].test(first) ? first : undefined;
}

const GRAMMAR: Record<Ecosystem, Grammar> = { npm: 'javascript', pypi: 'python', crates: 'rust', go: 'go', rubygems: 'ruby' };

/**
 * An untagged fence is taken as the ecosystem's language when that language's parser reads it without an error
 * (Go fragments as a function body); shell lines (`go get …`, `$ pip install …`) and output do not parse.
 */
async function parsesAs(ecosystem: Ecosystem, code: string): Promise<boolean> {
  if (ecosystem === 'go') {
    for (const wrapped of [code, `package main\n${code}`, `package main\nfunc main() {\n${code}\n}`]) {
      if (!(await parseCode('go', wrapped)).hasError) return true;
    }
    return false;
  }
  const root = await parseCode(GRAMMAR[ecosystem], code);
  return !root.hasError && root.namedChildren.length > 0;
}

async function fromMarkdown(ecosystem: Ecosystem, markdown: string, path: string, origin: CandidateOrigin, url: (line: number) => string, lineOffset = 0, inRustDoc = false): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for (const block of fencedBlocks(markdown)) {
    let code = block.code.replace(/\s+$/, '');
    // An IPython session is a doctest transcript with other prompts (programs/python.ts ipythonAsDoctest): Python
    // whatever its fence says (an rst literal block `::` has none).
    const ipython = ecosystem === 'pypi' ? ipythonAsDoctest(code) : undefined;
    if (ipython) code = ipython;
    // A Python block whose `>>>` lines show the results of the lines before them is a script, not a transcript.
    if (ecosystem === 'pypi' && code.includes('>>>')) code = (await resultsAfterPrompts(code)) ?? code;
    if (!/[A-Za-z0-9]/.test(code) || code.length > MAX_CANDIDATE_CHARS) continue;
    let language = languageOfFence(ecosystem, block.info, inRustDoc) ?? (ipython ? 'pycon' : undefined);
    if (!language && !block.info && !inRustDoc && /\n/.test(code) && await parsesAs(ecosystem, code)) language = GRAMMAR[ecosystem];
    if (language) found.push({ code, language, origin, path, source: url(block.line + lineOffset) });
  }
  return found;
}

/** Data blocks (ini, YAML, JSON…) of the README and docs pages: what the docs show as the content of a file. */
export async function collectDataBlocks(artifact: ExampleFiles): Promise<DataBlock[]> {
  const pages: Array<{ path: string; markdown: string }> = [];
  if (artifact.readme && !artifact.files.some((f) => isReadme(f.path))) {
    pages.push({ path: 'README', markdown: artifact.readme.markdown ? artifact.readme.text : rstToMarkdown(artifact.readme.text) });
  }
  for (const file of artifact.files) {
    const lower = file.path.toLowerCase();
    if (/\.(md|mdx|markdown)$/.test(lower) || (isReadme(file.path) && !lower.endsWith('.rst'))) pages.push({ path: file.path, markdown: textOf(file) });
    else if (lower.endsWith('.rst')) pages.push({ path: file.path, markdown: rstToMarkdown(textOf(file)) });
  }
  return pages.flatMap((page) => fencedBlocks(page.markdown).map((b) => ({ path: page.path, language: b.info.toLowerCase().split(/\s+/)[0] ?? '', code: b.code.replace(/\s+$/, '') + '\n' }))
    .filter((b) => DATA_LANGUAGE.test(b.language) && b.code.trim() && b.code.length <= MAX_CANDIDATE_CHARS));
}

/** Code files a page may include whole, by ecosystem, with their language. */
const INCLUDED_CODE: Partial<Record<Ecosystem, [RegExp, string]>> = { pypi: [/\.py$/, 'python'], npm: [/\.(m?js|cjs|ts)$/, 'js'], rubygems: [/\.rb$/, 'ruby'] };
/** literalinclude options that show part of the file only: the whole file is then not the example the page shows. */
const PARTIAL_INCLUDE = /^:(lines|pyobject|start-after|end-before|start-at|end-at|diff|emphasize-lines-only):/;

/**
 * Example files a reStructuredText page shows with `.. literalinclude:: snippets/tasks/task_group.py` (anyio keeps
 * every example of its docs in such files): the file, when the artifact has it, is short, and is shown whole.
 */
export function includedExamples(ecosystem: Ecosystem, text: string, path: string, artifact: ExampleFiles): Candidate[] {
  const kind = INCLUDED_CODE[ecosystem];
  if (!kind || !text.includes('literalinclude')) return [];
  const lines = text.split('\n');
  const found: Candidate[] = [];
  lines.forEach((line, i) => {
    const directive = /^(\s*)\.\.\s+literalinclude::\s*(\S+)\s*$/.exec(line);
    if (!directive || !kind[0].test(directive[2]!)) return;
    const options: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s+:/.test(lines[j]!) && lines[j]!.search(/\S/) > directive[1]!.length; j++) options.push(lines[j]!.trim());
    if (options.some((o) => PARTIAL_INCLUDE.test(o))) return;
    // Relative to the page, or (`/snippets/x.py`) to the docs' source folder: the page's top folder.
    const target = directive[2]!;
    const base = target.startsWith('/') ? (path.includes('/') ? path.slice(0, path.indexOf('/')) : '') : path.slice(0, Math.max(0, path.lastIndexOf('/')));
    const parts: string[] = [];
    for (const part of `${base}/${target.replace(/^\//, '')}`.split('/')) {
      if (part === '..') parts.pop();
      else if (part && part !== '.') parts.push(part);
    }
    const resolved = parts.join('/');
    const file = artifact.files.find((f) => f.path === resolved);
    const code = file ? textOf(file).trim() : '';
    if (!code || code.split('\n').length > 80) return;
    found.push({ code, language: kind[1], origin: 'docs', path: resolved, source: artifact.fileUrl(resolved, 1) });
  });
  return found;
}

/**
 * The definition whose docstring holds line `at` (`DataFrame.describe`): the enclosing `def`/`class` lines found going
 * up, each indented less than the one before. Undefined for a module docstring.
 */
export function docstringOwner(lines: string[], at: number, indent: number): string | undefined {
  const chain: string[] = [];
  let limit = indent;
  for (let k = at - 1; k >= 0 && limit > 0; k--) {
    const match = /^(\s*)(?:async\s+)?(?:def|class)\s+(\w+)/.exec(lines[k]!);
    if (!match || match[1]!.length >= limit) continue;
    chain.unshift(match[2]!);
    limit = match[1]!.length;
  }
  return chain.length ? chain.join('.') : undefined;
}

/** `>>>` transcripts in Python files (docstrings): the doctest module's own notion of an example block. */
function pythonDoctests(text: string, path: string, url: (line: number) => string): Candidate[] {
  const lines = text.split('\n');
  const found: Candidate[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*>>>\s/.test(lines[i]!)) continue;
    const indent = /^(\s*)/.exec(lines[i]!)?.[1]?.length ?? 0;
    const block: string[] = [];
    let j = i;
    for (; j < lines.length && lines[j]!.trim() && !/^\s*("""|''')/.test(lines[j]!); j++) block.push(lines[j]!.slice(indent));
    const owner = docstringOwner(lines, i, indent);
    if (block.length) found.push({ code: block.join('\n'), language: 'pycon', origin: 'doctest', path, source: url(i + 1), ...(owner ? { owner } : {}) });
    i = j;
  }
  return found;
}

/**
 * A doc attribute line: `#![doc = "…"]`, or `#![cfg_attr(feature = "x", doc = "```")]` (crates that gate a doctest on a
 * feature write its fence this way, with a `not(…)` twin that makes it "```ignore"). Its text is part of the doc
 * comment around it: without it the fences pair wrongly and the prose between two doctests is collected as code.
 * Of a feature-gated pair the gated branch is kept and the `not(…)` branch adds no line. The features it names are
 * what the doctest needs (ed25519-dalek's `rand_core` is not a default one: without it its doctests fail with "no
 * function `generate`"): the opening fence is followed by the dependency lines the program maker reads
 * (`// [dependencies]`, `// <crate> = { version = "*", features = [...] }`, see statedDependencies), which also tell a
 * reader of the quickstart how to turn the feature on.
 */
const DOC_ATTRIBUTE = /^\s*#!?\[\s*(?:cfg_attr\(\s*(.*?)\s*,\s*)?doc\s*=\s*"((?:[^"\\]|\\.)*)"\s*\)?\s*\]\s*$/;

/** The crate's package name, from its Cargo.toml (`[package] name`). */
function crateName(artifact: ExampleFiles): string | undefined {
  const cargo = artifact.files.find((f) => f.path === 'Cargo.toml');
  if (!cargo) return undefined;
  try { return ((parseToml(textOf(cargo)) as { package?: { name?: unknown } }).package?.name as string | undefined) ?? undefined; } catch { return undefined; }
}

const RUST_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'" };

/** The text of a Rust string literal's body: `\n`, `\t`, `\r`, `\0`, `\\`, `\"`, `\'`, `\x41`, `\u{…}`, and a line
 * continuation (a backslash before a line end skips the line end and the next line's leading whitespace). */
export function rustStringText(body: string): string {
  return body.replace(/\\(?:u\{([0-9A-Fa-f_]{1,8})\}|x([0-7][0-9A-Fa-f])|(\r?\n\s*)|(.))/g, (whole, unicode?: string, hex?: string, continuation?: string, char?: string) => {
    if (unicode !== undefined) { const code = parseInt(unicode.replace(/_/g, ''), 16); return code <= 0x10ffff ? String.fromCodePoint(code) : whole; }
    if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
    if (continuation !== undefined) return '';
    return RUST_ESCAPES[char!] ?? whole;
  });
}

/** Rust doc comments (`///`, `//!`, doc attributes) as Markdown, with the line each comment block starts on. */
function rustDocComments(text: string, crateName?: string): Array<{ markdown: string; line: number; injected: number[] }> {
  const lines = text.split('\n');
  const blocks: Array<{ markdown: string; line: number; injected: number[] }> = [];
  let current: string[] = [];
  // Markdown lines that are not the file's (the dependency lines): the line anchors of later blocks skip them.
  let injected: number[] = [];
  let start = 0;
  const inFence = () => current.filter((l) => /^\s*```/.test(l)).length % 2 === 1;
  lines.forEach((line, i) => {
    const match = /^\s*\/\/[/!]\s?(.*)$/.exec(line);
    const attribute = match ? undefined : DOC_ATTRIBUTE.exec(line);
    if (attribute) {
      if (!current.length) start = i;
      const condition = attribute[1] ?? '';
      if (/^not\s*\(/.test(condition)) return;
      const opening = /^\s*```/.test(attribute[2]!) && !inFence();
      // A string literal's escapes decoded as Rust does; a `\n` in it makes more markdown lines than the file has,
      // marked as not the file's so the line anchors of later blocks stay right.
      const [first, ...more] = rustStringText(attribute[2]!).split('\n');
      current.push(first!);
      for (const line of more) { injected.push(current.length); current.push(line); }
      const features = /\bnot\s*\(/.test(condition) ? [] : [...condition.matchAll(/\bfeature\s*=\s*"([^"]+)"/g)].map((m) => m[1]!);
      if (opening && crateName && features.length) injected.push(current.length, current.length + 1);
      if (opening && crateName && features.length) current.push('// [dependencies]', `// ${crateName} = { version = "*", features = [${features.map((f) => JSON.stringify(f)).join(', ')}] }`);
    } else if (match && !/^\s*\/\/\/\//.test(line)) {
      if (!current.length) start = i;
      current.push(match[1] ?? '');
    } else if (current.length) {
      blocks.push({ markdown: current.join('\n'), line: start, injected });
      current = [];
      injected = [];
    }
  });
  if (current.length) blocks.push({ markdown: current.join('\n'), line: start, injected });
  return blocks;
}

/** Whether Go code imports an `internal` package (`google.golang.org/grpc/internal/…`, `example.com/m/internal`). */
async function importsInternal(code: string): Promise<boolean> {
  if (!code.includes('internal')) return false;
  const root = await parseCode('go', code);
  return descendants(root, 'import_spec').some((spec) => /(^|\/)internal(\/|$)/.test(spec.childForFieldName('path')?.text.replace(/^["`]|["`]$/g, '') ?? ''));
}

/** `func ExampleXxx()` of example_test.go files, with the output they document. */
async function goExamples(text: string, path: string, url: (line: number) => string): Promise<Candidate[]> {
  const root = await parseCode('go', text);
  const imports = descendants(root, 'import_declaration').map((n) => n.text).join('\n');
  const goPackage = descendants(root, 'package_identifier')[0]?.text;
  const found: Candidate[] = [];
  for (const fn of descendants(root, 'function_declaration')) {
    const name = fn.childForFieldName('name')?.text ?? '';
    const body = fn.childForFieldName('body');
    if (!/^Example/.test(name) || !body) continue;
    const output = /\/\/\s*(Unordered output|Output):([\s\S]*)$/.exec(body.text.replace(/\}\s*$/, ''));
    const expected = output?.[2]?.split('\n').map((l) => l.replace(/^\s*\/\/ ?/, '')).join('\n').trim();
    // The other top-level declarations of the file (helpers, types) may be used by the example.
    // Only what the example uses of the file (programs/go-examples.ts): its Test functions are not part of it.
    const helpers = await exampleDeclarations(text, name);
    found.push({
      code: [imports, ...helpers, fn.text].filter(Boolean).join('\n\n'), language: 'go', origin: 'go-example', path,
      source: url(fn.startPosition.row + 1), exampleName: name, ...(goPackage ? { goPackage } : {}), ...(expected ? { expectedOutput: expected } : {}),
    });
  }
  return found;
}

/** JSDoc `@example` blocks in TypeScript declarations. */
function jsdocExamples(text: string, path: string, url: (line: number) => string): Candidate[] {
  const found: Candidate[] = [];
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = (comment[1] ?? '').split('\n').map((l) => l.replace(/^\s*\* ?/, ''));
    const at = body.findIndex((l) => /^@example\b/.test(l));
    if (at < 0) continue;
    const block: string[] = [];
    for (const line of body.slice(at + 1)) {
      if (/^@\w+/.test(line)) break;
      block.push(line);
    }
    const joined = block.join('\n');
    const fenced = fencedBlocks(joined);
    const code = (fenced.length ? fenced.map((f) => f.code).join('\n') : joined).trim();
    const line = text.slice(0, comment.index).split('\n').length;
    if (code && code.length <= MAX_CANDIDATE_CHARS) found.push({ code, language: path.endsWith('ts') ? 'ts' : 'js', origin: 'doc-comment', path, source: url(line) });
  }
  return found;
}

const VENDORED = /(^|\/)(_vendor|_vendored|vendored|vendor|extern|_extern|third_party|_third_party)\//i;

const isReadme = (path: string) => /^readme(\.(md|markdown|rst|txt|mdx))?$/i.test(path.split('/').pop() ?? '') && path.split('/').length <= 2;

/** Every candidate of the artifact, in file order (README first); scoring decides which are tried. */
export async function collectCandidates(ecosystem: Ecosystem, artifact: ExampleFiles): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const files = [...artifact.files].sort((a, b) => Number(!isReadme(a.path)) - Number(!isReadme(b.path)) || a.path.split('/').length - b.path.split('/').length);
  if (artifact.readme && !files.some((f) => isReadme(f.path))) {
    const markdown = artifact.readme.markdown ? artifact.readme.text : rstToMarkdown(artifact.readme.text);
    out.push(...await fromMarkdown(ecosystem, markdown, 'README', 'readme', () => artifact.fileUrl('')));
  }
  for (const file of files) {
    if (out.length >= MAX_CANDIDATES) break;
    const path = file.path;
    // Vendored copies of other projects (setuptools/_vendor/…): their examples show those projects, not this one.
    if (VENDORED.test(path)) continue;
    const lower = path.toLowerCase();
    const url = (line: number) => artifact.fileUrl(path, line);
    const origin: CandidateOrigin = isReadme(path) ? 'readme' : 'docs';
    if (/\.(md|mdx|markdown)$/.test(lower) || (isReadme(path) && !lower.endsWith('.rst'))) {
      out.push(...await fromMarkdown(ecosystem, textOf(file), path, origin, url));
    } else if (lower.endsWith('.rst')) {
      out.push(...await fromMarkdown(ecosystem, rstToMarkdown(textOf(file)), path, origin, () => url(1)));
      out.push(...includedExamples(ecosystem, textOf(file), path, artifact));
    } else if (ecosystem === 'pypi' && lower.endsWith('.py')) {
      const text = textOf(file);
      if (/(^|\/)examples?\//.test(lower) && text.split('\n').length <= 80 && !/\/__init__\.py$/.test(lower)) {
        out.push({ code: text.trim(), language: 'python', origin: 'example-file', path, source: url(1) });
      }
      out.push(...pythonDoctests(text, path, url));
    } else if (ecosystem === 'crates' && lower.endsWith('.rs')) {
      const text = textOf(file);
      if (/^examples\/[^/]+\.rs$/.test(path) && text.split('\n').length <= 120) {
        out.push({ code: text.trim(), language: 'rust', origin: 'example-file', path, source: url(1) });
        continue;
      }
      for (const block of rustDocComments(text, crateName(artifact))) {
        // A block's anchor is its first code line (fencedBlocks: fence index + 2); injected lines before it are not the file's.
        const anchor = (line: number) => url(line - block.injected.filter((q) => q < line - block.line - 2).length);
        out.push(...await fromMarkdown(ecosystem, block.markdown, path, 'doctest', anchor, block.line, true));
      }
    } else if (ecosystem === 'go' && lower.endsWith('_test.go')) {
      if (/(^|\/)internal\//.test(lower)) continue; // examples of an internal package: not importable from outside
      if (/(^|\/)example[^/]*_test\.go$/.test(lower) || /func Example/.test(textOf(file))) out.push(...await goExamples(textOf(file), path, url));
    } else if (ecosystem === 'go' && /(^|\/)_?examples?\/[^/]+\/main\.go$|(^|\/)_?examples?\/main\.go$/.test(lower)) {
      const text = textOf(file);
      if (text.split('\n').length <= 120) out.push({ code: text.trim(), language: 'go', origin: 'example-file', path, source: url(1) });
    } else if (ecosystem === 'npm' && /\.d\.(ts|mts|cts)$/.test(lower)) {
      out.push(...jsdocExamples(textOf(file), path, url));
    }
  }
  if (ecosystem === 'go') {
    // Go refuses imports of another module's internal packages, so a program outside the module cannot run an
    // example that imports them (grpc's Example functions of internal/xds/…): they are not candidates.
    const usable = [];
    for (const candidate of out) if (!(await importsInternal(candidate.code))) usable.push(candidate);
    // Programs that construct the main type and call its methods (programs/go-api.ts) before those that print one
    // function's result: among written programs, ties keep this order.
    const docs = await docsValues(ecosystem, usable);
    out.splice(0, out.length, ...usable, ...await goMethodPrograms(artifact, docs), ...await goApiCandidates(artifact, docs));
  }
  if (ecosystem === 'npm') {
    // The checker-based builder (programs/npm-api.ts) adds what this one misses: functions re-exported from other
    // files, and array, literal-union and object parameters. Tried after these (dedupe drops the same program twice).
    const docs = await docsValues(ecosystem, out);
    out.push(...await npmApiCandidates(artifact, docs), ...await declaredApiCandidates(artifact, docs));
  }
  if (ecosystem === 'crates') out.push(...await rustApiCandidates(artifact));
  if (ecosystem === 'pypi') out.push(...await pythonApiCandidates(artifact, await docsValues(ecosystem, out)));
  return dedupe(out).slice(0, MAX_CANDIDATES);
}

/**
 * For Go modules whose docs show no code: programs written from the root package's exported API, calling functions
 * that need no arguments (constructors first) and printing what they return. Marked `api`, tried after real examples.
 */
async function goApiCandidates(artifact: ExampleFiles, docs: DocsValues = NO_DOCS_VALUES): Promise<Candidate[]> {
  const root = await goApiCalls(artifact, (path) => /^[^/]+\.go$/.test(path), docs);
  // A module whose root has no such function (golang/protobuf keeps its code in proto/, ptypes/…): its packages one
  // directory down, which the program imports by their path like any sub-package.
  const found = root.length ? root : await goApiCalls(artifact, (path) => /^[^/]+\/[^/]+\.go$/.test(path) && !/^(_|\.|internal\/|cmd\/|examples?\/|testdata\/|vendor\/)/.test(path), docs);
  return found.sort((a, b) => b.rank - a.rank).slice(0, 3).map((f) => ({
    code: f.call, language: 'go', origin: 'api', path: f.path, source: artifact.fileUrl(f.path, f.line),
  }));
}

async function goApiCalls(artifact: ExampleFiles, inScope: (path: string) => boolean, docs: DocsValues): Promise<Array<{ call: string; rank: number; path: string; line: number }>> {
  const found: Array<{ call: string; rank: number; path: string; line: number }> = [];
  const files = artifact.files.filter((f) => inScope(f.path) && !f.path.endsWith('_test.go'));
  // Function types the package declares (`type RequestCallback func(*Request)`): a function that returns one gives
  // back a function, and a printed function is an address, never a result.
  const funcTypes = new Set<string>();
  for (const file of files) {
    for (const spec of descendants(await parseCode('go', textOf(file)), 'type_spec')) {
      if (spec.childForFieldName('type')?.type === 'function_type') funcTypes.add(spec.childForFieldName('name')?.text ?? '');
    }
  }
  for (const file of files) {
    const root = await parseCode('go', textOf(file));
    const pkg = descendants(root, 'package_identifier')[0]?.text;
    if (!pkg || pkg === 'main') continue;
    for (const fn of descendants(root, 'function_declaration')) {
      const name = fn.childForFieldName('name')?.text ?? '';
      const params = fn.childForFieldName('parameters');
      const result = fn.childForFieldName('result')?.text ?? '';
      if (!/^[A-Z]/.test(name) || !params || !result || result === 'error' || fn.childForFieldName('type_parameters')) continue;
      const args = sampleArguments(params, `${pkg}.${name}`, docs);
      if (args === undefined) continue;
      if (/^(Must|Set|Reset|Clear|Enable|Disable|Init|Register|Close|Stop|Start|Run|Serve|Listen|Main|Exit|Fatal|Panic)/.test(name)) continue;
      const results = result.replace(/^\(|\)$/g, '').split(',').map((r) => r.trim()).filter(Boolean);
      if (results.length > 2 || (results.length === 2 && results[1] !== 'error')) continue;
      if (/^func\b/.test(results[0]!) || funcTypes.has(results[0]!)) continue;
      // Bytes print as numbers: a function that returns text as bytes (blackfriday's `Run`) is printed as text.
      const shown = (value: string) => (results[0] === '[]byte' ? `string(${value})` : value);
      const call = results.length === 2
        ? `value, err := ${pkg}.${name}(${args})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(${shown('value')})`
        : `fmt.Println(${shown(`${pkg}.${name}(${args})`)})`;
      // A function the docs' examples call is what they show the package doing (blackfriday's `Run`, not `New`): it
      // outranks a constructor, before the cut to three. Every weight here is part of the hand score (the documented
      // selection order of written programs; the learned teach model is off): set by hand, not fitted. The +4 of a
      // docs-called function is chosen to exceed a constructor's +3, so such a function comes first among those kept.
      const rank = (/^New/.test(name) ? 3 : 0) + (args ? -1 : 0) + (/string|String/.test(result) ? 1 : 0) + (/^(Default|Version)/.test(name) ? 1 : 0) - (/func|chan|\*/.test(result) ? 2 : 0)
        + (docsCall(docs, name, [pkg]) ? 4 : 0);
      found.push({ call, rank, path: file.path, line: fn.startPosition.row + 1 });
    }
  }
  return found;
}

const TS_SAMPLE: Record<string, string> = { string: '"example"', number: '2', boolean: 'true' };

/**
 * For npm packages: programs written from the functions the package's own type declarations export (its index.d.ts),
 * those whose required parameters take plain values, called with plain values and printed. Marked `api`, tried
 * after every real example.
 */
async function npmApiCandidates(artifact: ExampleFiles, docs: DocsValues = NO_DOCS_VALUES): Promise<Candidate[]> {
  const found: Array<{ code: string; rank: number; path: string; line: number }> = [];
  const declared = declaredTypeEntries(artifact);
  for (const file of artifact.files) {
    // DefinitelyTyped's declarations, when the package ships none, sit under `@types/<name>/` in the artifact.
    if (!/^(@types\/[^/]+\/|(lib|dist|types|build)\/)?index\.d\.(ts|mts|cts)$/.test(file.path) && !declared.has(file.path)) continue;
    const root = await parseCode('typescript', textOf(file));
    const exported = new Set(descendants(root, 'export_specifier').map((s) => (s.childForFieldName('alias') ?? s.childForFieldName('name'))?.text ?? ''));
    for (const fn of descendants(root, ['function_signature', 'function_declaration'])) {
      const name = fn.childForFieldName('name')?.text ?? '';
      let isExported = exported.has(name);
      for (let p = fn.parent; p && !isExported; p = p.parent) if (p.type === 'export_statement') isExported = true;
      const returns = fn.childForFieldName('return_type')?.text.replace(/^:\s*/, '') ?? '';
      if (!isExported || !name || /^(void|never|undefined|Promise<void>)$/.test(returns) || fn.childForFieldName('type_parameters')) continue;
      const args: string[] = [];
      let plain = true;
      for (const param of descendants(fn.childForFieldName('parameters') ?? fn, ['required_parameter', 'optional_parameter'])) {
        if (!param.parent?.parent?.equals(fn)) continue;
        if (param.type === 'optional_parameter' || /^\.\.\./.test(param.text)) continue;
        const declared = param.childForFieldName('type')?.text.replace(/^:\s*/, '') ?? '';
        const sample = tsSample(declared);
        if (!sample) { plain = false; break; }
        const paramName = param.childForFieldName('pattern')?.text ?? '';
        // Text the docs give this function or bind to the parameter's name, where the sample is text; where a lib
        // type goes before text (`string | RegExp`), only the docs' own text does (a shape guessed from the name does not).
        const text = sample === TS_SAMPLE.string ? docsText(docs, name, paramName, args.length)
          : admitsText(declared) ? docsOnlyText(docs, name, paramName, args.length) : undefined;
        args.push(text === undefined ? sample : JSON.stringify(text));
      }
      if (!plain) continue;
      const rank = (/^(string|number|boolean)$/.test(returns) ? 1 : 0) + (/^(is|get|format|parse|to|create|from|make|normalize|validate)/.test(name) ? 1 : 0) + (args.length ? 0 : -1)
        // What the docs' examples call is what they show the package doing: first among the three kept. Hand score,
        // like the weights above (the documented selection order; the learned teach model is off): +4 is set by hand,
        // not fitted, to exceed the other cues' sum (at most +2 here).
        + (docsCall(docs, name) ? 4 : 0);
      found.push({ code: `import { ${name} } from '${artifact.importName}';\n\nconsole.log(${name}(${args.join(', ')}));`, rank, path: file.path, line: fn.startPosition.row + 1 });
    }
    found.push(...classCalls(root, exported, artifact.importName, file.path));
  }
  return found.sort((a, b) => b.rank - a.rank).slice(0, 3).map((f) => ({ code: f.code, language: 'js', origin: 'api', path: f.path, source: artifact.fileUrl(f.path, f.line) }));
}

/**
 * A plain value for a declared parameter type: `string`, `number`, `boolean`, a lib type's value (a regular
 * expression, a date, bytes: npm-api.ts declaredLibSample, which puts `RegExp` and `Date` before text in a union:
 * `source: string | RegExp` reads the text as a pattern, and the word "example" is none), or a union that admits a string.
 */
function tsSample(type: string): string | undefined {
  return TS_SAMPLE[type] ?? declaredLibSample(type) ?? (admitsText(type) ? TS_SAMPLE.string : undefined);
}

const admitsText = (type: string) => type.split('|').map((t) => t.trim()).includes('string');

/** The declaration files package.json names (`types`, `typings`, and `types` conditions of `exports`). */
function declaredTypeEntries(artifact: ExampleFiles): Set<string> {
  const manifest = artifact.files.find((f) => f.path === 'package.json');
  const entries = new Set<string>();
  if (!manifest) return entries;
  let pkg: { types?: unknown; typings?: unknown; exports?: unknown };
  try { pkg = JSON.parse(textOf(manifest)) as typeof pkg; } catch { return entries; }
  const add = (value: unknown) => { if (typeof value === 'string' && /\.d\.(ts|mts|cts)$/.test(value)) entries.add(value.replace(/^\.\//, '')); };
  add(pkg.types); add(pkg.typings);
  const walk = (value: unknown, key = '') => {
    if (key === 'types') add(value);
    if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  // Only the package's main entry: a sub-path's types are not what `import … from 'name'` gives.
  const root = pkg.exports && typeof pkg.exports === 'object' && '.' in pkg.exports ? (pkg.exports as Record<string, unknown>)['.'] : pkg.exports;
  walk(root);
  return entries;
}

/**
 * Exported classes whose constructor needs no argument, with a method that takes plain values:
 * `new XMLParser()` then `.parse("example")`, printed.
 */
function classCalls(root: SyntaxNode, exported: Set<string>, importName: string, path: string): Array<{ code: string; rank: number; path: string; line: number }> {
  const found: Array<{ code: string; rank: number; path: string; line: number }> = [];
  for (const cls of descendants(root, ['class_declaration', 'abstract_class_declaration'])) {
    const name = cls.childForFieldName('name')?.text ?? '';
    if (cls.type === 'abstract_class_declaration' || cls.childForFieldName('type_parameters') || !name) continue;
    let isExported = exported.has(name);
    for (let p = cls.parent; p && !isExported; p = p.parent) if (p.type === 'export_statement') isExported = true;
    if (!isExported) continue;
    const members = descendants(cls.childForFieldName('body') ?? cls, ['method_signature', 'method_definition']).filter((m) => m.parent?.parent?.equals(cls));
    const required = (m: SyntaxNode) => descendants(m.childForFieldName('parameters') ?? m, 'required_parameter').filter((p) => p.parent?.parent?.equals(m));
    const ctor = members.find((m) => m.childForFieldName('name')?.text === 'constructor');
    if (ctor && required(ctor).length) continue;
    for (const method of members) {
      const methodName = method.childForFieldName('name')?.text ?? '';
      if (!/^[a-z]\w*$/.test(methodName) || methodName === 'constructor' || /^(set|add|remove|delete|on|off|emit|close|destroy|listen)/.test(methodName)) continue;
      const returns = method.childForFieldName('return_type')?.text.replace(/^:\s*/, '') ?? '';
      if (/^(void|never|undefined|Promise<void>|this)$/.test(returns)) continue;
      const args = required(method).map((p) => tsSample(p.childForFieldName('type')?.text.replace(/^:\s*/, '') ?? ''));
      if (!args.length || args.some((a) => a === undefined)) continue;
      const local = name.replace(/^[A-Z]+(?=[A-Z][a-z])|^[A-Z]+$|^[A-Z]/, (m) => m.toLowerCase());
      found.push({
        code: `import { ${name} } from '${importName}';\n\nconst ${local} = new ${name}();\nconsole.log(${local}.${methodName}(${args.join(', ')}));`,
        rank: /^(parse|format|build|validate|convert|render|compile|transform|get|to)/.test(methodName) ? 1 : 0, path, line: method.startPosition.row + 1,
      });
      break;
    }
  }
  return found;
}


function sampleArguments(params: SyntaxNode, fn = '', docs: DocsValues = NO_DOCS_VALUES): string | undefined {
  const args: string[] = [];
  for (const param of params.namedChildren) {
    if (!param) continue;
    if (param.type === 'variadic_parameter_declaration') continue; // may be left out
    const type = param.childForFieldName('type')?.text ?? '';
    const sample = GO_SAMPLE[type];
    if (!sample) return undefined;
    const names = param.childrenForFieldName('name').filter(Boolean).map((n) => n!.text);
    for (const name of names.length ? names : ['']) {
      // Text the docs give this function or bind to this parameter's name, where the type takes text.
      const text = type === 'string' || type === '[]byte' ? docsText(docs, fn, name, args.length) : undefined;
      args.push(text === undefined ? sample : type === 'string' ? JSON.stringify(text) : `[]byte(${JSON.stringify(text)})`);
    }
  }
  return args.join(', ');
}

function dedupe(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const key = c.code.replace(/\s+/g, ' ').trim();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
