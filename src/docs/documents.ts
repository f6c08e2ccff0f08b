// passagesFromArtifact: turns the files of one published artifact into passages: README and guides, then the public API
// (TypeScript declarations, Python, Rust and Go sources through real parsers), de-duplicated, and the per-package cap
// filled by importance. Pure apart from CPU: files in, passages out; nothing in the artifact is run.
import { createHash } from 'node:crypto';
import { parse as parseToml } from 'smol-toml';
import { textOf, type ArchiveFile } from './archive.ts';
import { apiFromNpmPackage, loadCompiler } from './extract/dts.ts';
import { apiFromGoModule } from './extract/golang.ts';
import { labelDeprecatedInProse } from './extract/deprecation.ts';
import { hasExplanation } from './extract/evidence.ts';
import { cutText } from '../text-cut.ts';
import { apiFromJavaScript } from './extract/jsdoc.ts';
import { chunkByHeadings, frontMatterTitle } from './extract/markdown.ts';
import { apiFromPythonPackage } from './extract/python.ts';
import { rstToMarkdown } from './extract/rst.ts';
import { apiFromRustCrate } from './extract/rust.ts';
import { docsRsCfgNames, docsRsTarget } from './extract/rust-cfg.ts';
import { loadParsers } from './extract/treesitter.ts';
import type { PassageDraft } from './extract/types.ts';
import { passageParts, type CodeBlock } from './passage-parts.ts';
import { ownMetadata, topLevelPackages } from './sources/pypi.ts';
import type { Artifact } from './sources/types.ts';

export const MAX_PASSAGES = 4000;
/** Source bytes handed to the parsers per package: bounds the first question's wait on very large packages. */
const MAX_SOURCE_BYTES = 12 * 1024 * 1024;

export interface ArtifactPassages {
  passages: PassageDraft[];
  /** Distinct passages found before the cap; more than `passages.length` means the package was not indexed whole. */
  found: number;
  /** Source files left unparsed because the package is larger than the parse budget. */
  skippedSources: number;
}

const isReadme = (path: string) => /^readme(\.[a-z]+)?$/i.test(path);
const isDoc = (path: string) => /\.(md|mdx|markdown|rst)$/i.test(path);
/**
 * Sphinx sources written as `.txt` in a docs folder (lxml's `doc/*.txt`, `source_suffix = '.txt'`): read as
 * reStructuredText, and a guide only when the reader finds a section title in it and a line of prose (not a
 * `docs/requirements.txt`, nor a spelling word list whose `----` line reads as an underline).
 */
const TEXT_GUIDE = /(^|\/)docs?\/(.+\/)?[^/]+\.txt$/i;
function isTextGuide(path: string, text: () => string): boolean {
  if (!TEXT_GUIDE.test(path)) return false;
  const lines = rstToMarkdown(text()).split('\n');
  return lines.some((line) => /^#{1,6} \S/.test(line)) && lines.some((line) => !/^\s*(#|\.\.|[-*+|])/.test(line) && line.trim().split(/\s+/).length >= 6);
}

/** README first, then guides (docs/ before elsewhere, shallow before deep), agent skill files like guides. */
function docImportance(path: string): number {
  if (isReadme(path)) return 1;
  const depth = path.split('/').length - 1;
  if (/readme/i.test(path) && !path.includes('/')) return 0.95;
  if (/^(docs?|guides?|documentation|site\/content)\//i.test(path) || /(^|\/)\.agents\/skills\//.test(path)) return Math.max(0.6, 0.92 - 0.04 * depth);
  return Math.max(0.4, 0.75 - 0.05 * depth);
}

export function passagesFromMarkdownish(text: string, path: string, pageTitle: string, locate: (where: { line?: number; anchor?: string }) => string): PassageDraft[] {
  const markdown = /\.rst$/i.test(path) || TEXT_GUIDE.test(path) ? rstToMarkdown(text) : text;
  return chunkByHeadings(markdown, {
    pageTitle: frontMatterTitle(text) ?? pageTitle, source: path, locate, mdx: /\.mdx$/i.test(path),
  });
}

function titleFromPath(path: string): string {
  const base = (path.split('/').pop() ?? path).replace(/\.(md|mdx|markdown|rst|txt)$/i, '');
  return base === 'index' ? path.split('/').slice(-2, -1)[0] ?? base : base.replace(/[-_]/g, ' ');
}

/** A prose passage at its file's importance, less when its section is marked deprecated (as the API extractors do). */
const withImportance = (p: PassageDraft, importance: number): PassageDraft => ({ ...p, importance: p.deprecated ? importance - 0.3 : importance });

/** Files whose docs only matter where another file includes them (a crate's examples/, read by `include_str!`). */
const includeOnly = (ecosystem: string, path: string) => ecosystem === 'crates' && /^(examples|benches)\//.test(path);

/**
 * A package's older API kept inside it (zod/v3 in zod 4, pydantic.v1 in pydantic 2, `deprecated`/`legacy` modules) and
 * names its authors mark as internal (`$ZodType`, `_default`) rank below the current public API. The older API is
 * marked deprecated, and underscored names internal (`$` names are zod's core classes, public to library authors).
 */
export function demoteLegacy(passages: PassageDraft[], version: string | undefined): PassageDraft[] {
  const major = Number(/^v?(\d+)/.exec(version ?? '')?.[1] ?? NaN);
  return passages.map((p) => {
    if (!p.symbol) return p;
    const segments = p.symbol.split(/::|\.|\//);
    const legacy = segments.some((s) => {
      const old = /^v(\d+)$/.exec(s);
      return (old && Number(old[1]) < major) || /^_?(deprecated|legacy|compat)$/i.test(s);
    });
    const marked = segments.slice(1).some((s) => /^[$_]/.test(s));
    if (!legacy && !marked) return p;
    const underscored = segments.slice(1).some((s) => /^_/.test(s));
    return { ...p, importance: (p.importance ?? 0.5) - (legacy ? 0.4 : 0) - (marked ? 0.2 : 0), deprecated: p.deprecated || legacy || undefined,
      internal: p.internal || underscored || undefined };
  });
}

export async function passagesFromArtifact(artifact: Artifact, tool: { ecosystem: string; name: string; version?: string }, maxPassages = MAX_PASSAGES): Promise<ArtifactPassages> {
  const files = [...artifact.files].sort((a, b) => docImportance(b.path) - docImportance(a.path) || a.path.localeCompare(b.path));
  const passages: PassageDraft[] = [];
  const importName = artifact.facts.importName ?? tool.name;
  if (!files.some((f) => isReadme(f.path)) && artifact.readme) {
    const path = artifact.readme.markdown ? 'README.md' : 'README.rst';
    for (const p of passagesFromMarkdownish(artifact.readme.text, path, tool.name, () => artifact.fileUrl(''))) passages.push(withImportance(p, 1));
  }
  for (const file of files) {
    if (!(isDoc(file.path) || isReadme(file.path) || isTextGuide(file.path, () => textOf(file))) || includeOnly(tool.ecosystem, file.path) || typesFolder(file.path)) continue;
    const title = isReadme(file.path) ? tool.name : titleFromPath(file.path);
    const importance = docImportance(file.path);
    const locate = (where: { line?: number; anchor?: string }) => artifact.fileUrl(file.path, where);
    for (const p of passagesFromMarkdownish(textOf(file), file.path, title, locate)) passages.push(withImportance(p, importance));
  }
  const { api, skippedSources } = await apiPassages(artifact, tool, importName);
  passages.push(...demoteLegacy(api, tool.version));
  const distinct = dedupe(labelDeprecatedInProse(passages));
  // A package with no README, no guide and no documented item (a proc-macro crate such as thiserror-impl) still says
  // what it is: its manifest's description and links, so no package answers an empty list.
  if (!distinct.length) distinct.push(...metadataPassage(artifact, tool));
  return { passages: fillByImportance(distinct, maxPassages), found: distinct.length, skippedSources };
}

/** The manifest each ecosystem publishes a package's description in, for the metadata passage's source and URL. */
const MANIFEST: Record<string, string[]> = {
  npm: ['package.json'], pypi: ['PKG-INFO', 'pyproject.toml', 'setup.cfg'], crates: ['Cargo.toml'], go: ['go.mod'], rubygems: ['metadata.gz'],
};

/** One passage from the package's published metadata (description, links, license, entry points). */
export function metadataPassage(artifact: Artifact, tool: { ecosystem: string; name: string; version?: string }): PassageDraft[] {
  const { facts } = artifact;
  const manifest = (MANIFEST[tool.ecosystem] ?? []).find((name) => artifact.files.some((f) => f.path === name)) ?? MANIFEST[tool.ecosystem]?.[0] ?? '';
  const lines = [
    facts.description ? facts.description.trim() : `${tool.name} publishes no description, README or documented API in this version.`,
    '',
    ...(facts.importName && facts.importName !== tool.name ? [`- Imported as \`${facts.importName}\``] : []),
    ...(facts.entryPoints.length ? [`- Entry points: ${facts.entryPoints.slice(0, 10).map((e) => `\`${e}\``).join(', ')}`] : []),
    ...(facts.license ? [`- License: ${facts.license}`] : []),
    ...(facts.homepage ? [`- Homepage: ${facts.homepage}`] : []),
    ...(facts.repository ? [`- Repository: ${facts.repository}`] : []),
    ...(facts.docsUrl ? [`- Documentation: ${facts.docsUrl}`] : []),
  ];
  return [{
    url: artifact.fileUrl(manifest), title: tool.name, headings: [tool.name, 'Package metadata'], content: lines.join('\n').trim(),
    source: manifest, importance: 0.5,
  }];
}

/** Starts loading what extraction of this ecosystem needs (the TypeScript compiler, the grammars) while the artifact downloads. */
export function prepareExtraction(ecosystem: string): void {
  const grammar = ({ pypi: 'python', crates: 'rust', go: 'go' } as const)[ecosystem as 'pypi' | 'crates' | 'go'];
  const loading = ecosystem === 'npm' ? loadCompiler() : grammar ? loadParsers([grammar]) : undefined;
  loading?.catch(() => undefined); // a failure surfaces when extraction awaits it
}

/**
 * Where a passage goes when the cap binds: guides and items that explain themselves first, then members (fields) that
 * do, then declarations with no prose. Measured over the Go top 100 (docs/docs-search.md, round 11): by importance
 * alone, shallow fields and undocumented declarations took the places of deeper documented types and methods
 * (go-github kept 419 fields and 18 bare declarations while 1,379 documented items fell out).
 */
const fillTier = (p: PassageDraft): number => (p.symbol && !hasExplanation(p.content) ? 2 : p.member ? 1 : 0);

/** The `max` passages to keep, by tier then importance, in their original order (README first, then guides, then API). */
export function fillByImportance(passages: PassageDraft[], max: number): PassageDraft[] {
  if (passages.length <= max) return passages;
  const keep = new Set(passages.map((p, i) => ({ i, tier: fillTier(p), score: p.importance ?? 0.5 }))
    .sort((a, b) => a.tier - b.tier || b.score - a.score || a.i - b.i).slice(0, max).map((x) => x.i));
  return passages.filter((_, i) => keep.has(i));
}

/** The files of one kind, most likely public first, within the parse budget. */
function budgeted(files: ArchiveFile[], keep: (path: string) => boolean, rank: (path: string) => number): { texts: Map<string, string>; skipped: number } {
  const chosen = files.filter((f) => keep(f.path)).sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  const texts = new Map<string, string>();
  let bytes = 0;
  let skipped = 0;
  for (const file of chosen) {
    if (bytes + file.bytes.byteLength > MAX_SOURCE_BYTES) { skipped++; continue; }
    bytes += file.bytes.byteLength;
    texts.set(file.path, textOf(file));
  }
  return { texts, skipped };
}

const depthOf = (path: string) => path.split('/').length + (/(^|\/)_/.test(path) ? 5 : 0);

async function apiPassages(artifact: Artifact, tool: { ecosystem: string; name: string }, importName: string): Promise<{ api: PassageDraft[]; skippedSources: number }> {
  const locate = (file: string, where: { line?: number; anchor?: string }) => artifact.fileUrl(file, where);
  switch (tool.ecosystem) {
    case 'npm':
      return npmApiPassages(artifact, tool.name, locate);
    case 'pypi': {
      const { texts, skipped } = budgeted(artifact.files, (p) => /\.pyi?$/.test(p), depthOf);
      // The distribution's own top_level.txt, not a vendored project's (setuptools/_vendor/*.dist-info/top_level.txt).
      const topLevel = ownMetadata(artifact.files, 'top_level.txt');
      const names = topLevel ? textOf(topLevel).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('_')) : [];
      // Without top_level.txt (hatch, flit and maturin wheels have none), every public top-level package the
      // distribution ships is its API, not only the one named like it: attrs defines everything in `attr` and
      // re-exports it from `attrs`, and reading `attrs` alone found no API at all.
      const packages = names.length ? names : [...new Set([importName, ...topLevelPackages(artifact.files.map((f) => f.path))])];
      // Private top-level packages (`_pytest`) are read for the names a public one re-exports from them.
      const privateNames = [...new Set([
        ...(topLevel ? textOf(topLevel).split('\n').map((l) => l.trim()).filter((l) => /^_[A-Za-z]\w*$/.test(l)) : []),
        ...artifact.files.map((f) => /^(?:src\/|lib\/)?(_[A-Za-z]\w*)\/__init__\.pyi?$/.exec(f.path)?.[1]).filter((d): d is string => Boolean(d)),
      ])];
      const parsers = await loadParsers(['python']);
      return { api: await apiFromPythonPackage(parsers, { files: texts, importNames: packages, privateNames, locate }), skippedSources: skipped };
    }
    case 'crates': {
      const { texts, skipped } = budgeted(artifact.files, (p) => /\.(rs|md)$/.test(p), (p) => (p.startsWith('src/') ? depthOf(p) : 20));
      const cargo = artifact.files.find((f) => f.path === 'Cargo.toml');
      let manifest: { lib?: { path?: string }; package?: { metadata?: { docs?: { rs?: Record<string, unknown> } } } } = {};
      try { manifest = cargo ? parseToml(textOf(cargo)) as typeof manifest : {}; } catch { manifest = {}; }
      const parsers = await loadParsers(['rust']);
      // Read as docs.rs documents it (x86_64 Linux, `docsrs`): `cfg_if!` branches are followed, other platforms' twins dropped.
      const target = docsRsTarget(docsRsCfgNames(manifest.package?.metadata?.docs?.rs));
      return { api: await apiFromRustCrate(parsers, { crate: importName, files: texts, libPath: manifest.lib?.path?.replace(/^\.\//, ''), locate, target }), skippedSources: skipped };
    }
    case 'go': {
      const { texts, skipped } = budgeted(artifact.files, (p) => p.endsWith('.go'), depthOf);
      const parsers = await loadParsers(['go']);
      return { api: await apiFromGoModule(parsers, { module: importName, files: texts, locate }), skippedSources: skipped };
    }
    default:
      return { api: [], skippedSources: 0 };
  }
}

const typesFolder = (path: string) => /^@types\/[^/]+\//.exec(path)?.[0];

/**
 * An npm package's API: its own declarations; else DefinitelyTyped's (`@types/<name>/` in the artifact, passages
 * labelled as coming from there) and the JSDoc of its JavaScript, which documents many packages' whole API (lodash).
 */
async function npmApiPassages(artifact: Artifact, name: string, locate: (file: string, where: { line?: number; anchor?: string }) => string): Promise<{ api: PassageDraft[]; skippedSources: number }> {
  const own = artifact.files.filter((f) => !typesFolder(f.path));
  const declarations = (files: ArchiveFile[]) => budgeted(files, (p) => /\.d\.(ts|mts|cts)$|^package\.json$/.test(p), (p) => (p === 'package.json' ? -1 : /chunks?\//.test(p) ? 50 : depthOf(p)));
  const manifestOf = (texts: Map<string, string>): Record<string, unknown> => {
    try { return JSON.parse(texts.get('package.json') ?? '{}') as Record<string, unknown>; } catch { return {}; }
  };
  const { texts, skipped } = declarations(own);
  const manifest = manifestOf(texts);
  // One walk of `exports`, read by both paths below: per subpath, its JavaScript targets ranked by condition.
  const subpaths = exportTargets(manifest.exports);
  if ([...texts.keys()].some((p) => p !== 'package.json')) {
    const declared = await apiFromNpmPackage({ name, files: texts, manifest, locate });
    // One module per subpath is enough to find an export's JSDoc: the other conditions' builds (browser, node,
    // react-native, cjs and esm copies) repeat it, and each costs a parse. Small targets are read as well (a wrapper
    // costs nothing to parse, and what it loads is followed).
    // With `exports`, Node reads only it (`main` is a fallback for old resolvers, often another copy).
    const sizes = new Map(own.map((f) => [f.path, f.bytes.length]));
    const byExports = preferredJsEntries(subpaths, (target) => sizes.get(target.replace(/^\.\//, '')));
    const firstEntries = (byExports.length ? byExports : [manifest.main, manifest.module, 'index.js']).filter((m): m is string => typeof m === 'string');
    const { api, skippedSources } = await withSourceDocs(declared, own, name, firstEntries, locate);
    return { api, skippedSources: skipped + skippedSources };
  }
  const api: PassageDraft[] = [];
  const folder = artifact.files.map((f) => typesFolder(f.path)).find(Boolean);
  if (folder) {
    const typed = declarations(artifact.files.filter((f) => f.path.startsWith(folder)).map((f) => ({ ...f, path: f.path.slice(folder.length) })));
    const label = `${folder.slice(0, -1)} (DefinitelyTyped)`;
    for (const p of await apiFromNpmPackage({ name, files: typed.texts, manifest: manifestOf(typed.texts), locate: (file, where) => locate(folder + file, where) })) {
      api.push({ ...p, source: folder + p.source, headings: [label, ...p.headings.slice(1)] });
    }
  }
  // Without declarations the JavaScript is the API: every entry the manifest names is followed.
  const entries = [...subpaths.flat().sort((a, b) => a.order - b.order).map((t) => t.target), manifest.main, manifest.module, 'index.js'].filter((m): m is string => typeof m === 'string');
  const scripts = budgeted(own, (p) => /\.(c|m)?js$/.test(p), depthOf);
  api.push(...await apiFromJavaScript({ name, files: scripts.texts, entries, locate }));
  return { api, skippedSources: skipped + scripts.skipped };
}

/**
 * Declarations without a comment whose JavaScript documents them: many packages generate or hand-write bare `.d.ts`
 * files while their JSDoc stays in the `.js` they ship (the API is typed in one file and explained in another). The
 * JSDoc of each declared item that has no explanatory text of its own is folded into its declaration's passage, so the
 * item is answered with its type and its explanation together. A declared item explained but without a code example
 * takes the `@example` blocks its JavaScript's JSDoc gives it (a reader asking "how do I" is answered with the call).
 * Items only the JavaScript names are not added: the declarations say what is public. The JavaScript is parsed only
 * when some declaration is bare or has no example.
 */
async function withSourceDocs(declared: PassageDraft[], own: ArchiveFile[], name: string, entries: string[],
  locate: (file: string, where: { line?: number; anchor?: string }) => string): Promise<{ api: PassageDraft[]; skippedSources: number }> {
  const explained = new Set(declared.filter((p) => p.symbol && hasExplanation(p.content)).map((p) => p.symbol!));
  const bare = new Set(declared.filter((p) => p.symbol && !explained.has(p.symbol)).map((p) => p.symbol!));
  const illustrated = new Set(declared.filter((p) => p.symbol && examplesIn(p.content).length).map((p) => p.symbol!));
  const wanting = new Set(declared.filter((p) => p.symbol && (bare.has(p.symbol) || !illustrated.has(p.symbol))).map((p) => p.symbol!));
  if (!wanting.size) return { api: declared, skippedSources: 0 };
  const scripts = budgeted(own, (p) => /\.(c|m)?js$/.test(p), depthOf);
  if (!scripts.texts.size) return { api: declared, skippedSources: scripts.skipped };
  // Per item, the chunks of its first documented definition in the JavaScript (a long JSDoc is split, its examples
  // often in the last chunk).
  const definitions = new Map<string, PassageDraft[]>();
  for (const p of await apiFromJavaScript({ name, files: scripts.texts, entries, locate })) {
    if (!p.symbol || !wanting.has(p.symbol)) continue;
    const chunks = definitions.get(p.symbol);
    if (!chunks) definitions.set(p.symbol, [p]);
    else if (chunks[0]!.url === p.url) chunks.push(p);
  }
  if (!definitions.size) return { api: declared, skippedSources: scripts.skipped };
  const folded = new Set<string>();
  const api = declared.map((p) => {
    const chunks = p.symbol && !folded.has(p.symbol) ? definitions.get(p.symbol) : undefined;
    if (!chunks) return p;
    const examples = chunks.flatMap((c) => examplesIn(c.content)).filter((code) => !p.content.includes(code.code));
    const doc = chunks[0]!;
    if (bare.has(p.symbol!) && hasExplanation(doc.content)) {
      folded.add(p.symbol!);
      // The JavaScript passage opens with its own signature in a fence; the typed one stays, the prose is added, and
      // the examples of the definition's later chunks after it.
      const prose = doc.content.replace(/^```js\n[\s\S]*?\n```\n*/, '').trim();
      const later = examples.filter((code) => !prose.includes(code.code));
      return {
        ...p, content: `${p.content}\n\n${prose}${fenced(later)}`, importance: Math.max(p.importance ?? 0, Math.min(doc.importance ?? 0, (p.importance ?? 0) + 0.3)),
        deprecated: p.deprecated || doc.deprecated || undefined,
      };
    }
    if (!examples.length) return p;
    folded.add(p.symbol!);
    return { ...p, content: `${p.content}${fenced(examples)}` };
  });
  return { api, skippedSources: scripts.skipped };
}

/** Most example code folded into one declaration's passage: whole blocks while they fit, the first one always. */
const MAX_FOLDED_EXAMPLE_CHARS = 1600;

/** A passage's code examples: its code blocks after the first, which is the item's signature. */
function examplesIn(content: string): CodeBlock[] {
  return passageParts(content).code.slice(1).filter((block) => block.code.trim());
}

function fenced(examples: CodeBlock[]): string {
  let size = 0;
  const kept = examples.filter((block, i) => {
    size += block.code.length;
    return i === 0 || size <= MAX_FOLDED_EXAMPLE_CHARS;
  });
  return kept.map((block) => `\n\n\`\`\`${block.language || 'js'}\n${cutText(block.code, MAX_FOLDED_EXAMPLE_CHARS, '\n…')}\n\`\`\``).join('');
}

interface ExportTarget { target: string; rank: number; order: number }

/**
 * The JavaScript files package.json `exports` names, per subpath (`"."`, `"./fp"`), each ranked by the conditions on
 * its way: a `require` target 0, an `import`/`module` one 2, the rest (`default`, `node`, …) 1; `order` is the order
 * written over the whole field. Patterns (`./*`) and `types` are left out. A bare string or array is one subpath.
 */
function exportTargets(exportsField: unknown): ExportTarget[][] {
  let order = 0;
  const walk = (value: unknown, keys: string[], out: ExportTarget[]): ExportTarget[] => {
    if (typeof value === 'string') {
      if (/\.(c|m)?js$/.test(value)) {
        const rank = keys.includes('require') ? 0 : keys.some((k) => k === 'import' || k === 'module') ? 2 : 1;
        out.push({ target: value, rank, order: order++ });
      }
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, keys, out);
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
        if (!key.includes('*') && key !== 'types') walk(inner, [...keys, key], out);
      }
    }
    return out;
  };
  if (!exportsField || typeof exportsField !== 'object' || Array.isArray(exportsField)) return [walk(exportsField, [], [])];
  const entries = Object.entries(exportsField as Record<string, unknown>);
  // A map of subpaths (`".", "./fp"`) or, without any, one subpath's map of conditions.
  if (!entries.some(([key]) => key.startsWith('.'))) return [walk(exportsField, [], [])];
  return entries.filter(([key]) => key.startsWith('.') && !key.includes('*')).map(([, value]) => walk(value, [], []));
}

/** A target this small is a wrapper or a stub: it is read beside the preferred one, as it costs next to nothing. */
const SMALL_TARGET = 4096;

/**
 * Per `exports` subpath, one JavaScript target to read the JSDoc from: a `require` target first, then `default`,
 * `node` and the other conditions in the order written, an `import`/`module` target last. An ESM entry is often a
 * thin wrapper around the CommonJS build, or a bundle whose comments were stripped, while the CommonJS build keeps
 * the JSDoc; where the two are the same file nothing changes. The subpath's other targets are read too when small.
 */
function preferredJsEntries(subpaths: ExportTarget[][], sizeOf: (target: string) => number | undefined): string[] {
  return subpaths.flatMap((list) => {
    const targets = [...list].sort((a, b) => a.rank - b.rank || a.order - b.order);
    const first = targets[0]?.target;
    if (!first) return [];
    const small = targets.filter((t) => t.target !== first && (sizeOf(t.target) ?? Infinity) <= SMALL_TARGET).map((t) => t.target);
    return [...new Set([first, ...small])];
  });
}

/** The same text under two paths (cjs/ and esm/ declarations, README copied into docs/) is indexed once. */
export function dedupe(passages: PassageDraft[]): PassageDraft[] {
  const seen = new Set<string>();
  return passages.filter((p) => {
    const key = createHash('sha1').update(`${p.title ?? ''}\n${p.content}`).digest('base64');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
