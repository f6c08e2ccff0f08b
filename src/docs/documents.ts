// passagesFromArtifact: turns the files of one published artifact into passages, README first, then guides,
// then the API (TypeScript declarations, Python docstrings, Rust and Go doc comments). Pure: files in, passages out.
import { createHash } from 'node:crypto';
import { textOf, type ArchiveFile } from './archive.ts';
import { apiFromDeclarations } from './extract/dts.ts';
import { apiFromGo } from './extract/golang.ts';
import { chunkByHeadings, frontMatterTitle } from './extract/markdown.ts';
import { apiFromPython } from './extract/python.ts';
import { rstToMarkdown } from './extract/rst.ts';
import { apiFromRust } from './extract/rust.ts';
import type { PassageDraft } from './extract/types.ts';
import type { Artifact } from './sources/types.ts';

export const MAX_PASSAGES = 4000;
const MAX_API_PASSAGES = 2000;
const MAX_API_BYTES = 4 * 1024 * 1024;

const isReadme = (path: string) => /^readme(\.[a-z]+)?$/i.test(path);
const isDoc = (path: string) => /\.(md|mdx|markdown|rst)$/i.test(path);

function rank(path: string): number {
  if (isReadme(path)) return 0;
  if (/readme/i.test(path) && !path.includes('/')) return 1;
  if (isDoc(path)) return /^(docs?|guides?|documentation)\//i.test(path) ? 2 : 3;
  return 4;
}

export function passagesFromMarkdownish(text: string, path: string, pageTitle: string, locate: (where: { line?: number; anchor?: string }) => string): PassageDraft[] {
  const markdown = /\.rst$/i.test(path) ? rstToMarkdown(text) : text;
  return chunkByHeadings(markdown, {
    pageTitle: frontMatterTitle(text) ?? pageTitle, source: path, locate, mdx: /\.mdx$/i.test(path),
  });
}

export function passagesFromArtifact(artifact: Artifact, tool: { ecosystem: string; name: string }): PassageDraft[] {
  const files = [...artifact.files].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  const passages: PassageDraft[] = [];
  const importName = artifact.facts.importName ?? tool.name;
  let apiBytes = 0;
  let apiCount = 0;
  if (!files.some((f) => isReadme(f.path)) && artifact.readme) {
    const path = artifact.readme.markdown ? 'README.md' : 'README.rst';
    passages.push(...passagesFromMarkdownish(artifact.readme.text, path, tool.name, () => artifact.fileUrl('')));
  }
  for (const file of files) {
    if (passages.length >= MAX_PASSAGES) break;
    const locate = (where: { line?: number; anchor?: string }) => artifact.fileUrl(file.path, where);
    if (isDoc(file.path) || isReadme(file.path)) {
      const title = isReadme(file.path) ? tool.name : titleFromPath(file.path);
      passages.push(...passagesFromMarkdownish(textOf(file), file.path, title, locate));
      continue;
    }
    if (apiBytes > MAX_API_BYTES || apiCount >= MAX_API_PASSAGES) continue;
    const api = apiPassages(file, tool.ecosystem, importName, locate);
    if (api.length) {
      apiBytes += file.bytes.byteLength;
      apiCount += api.length;
      passages.push(...api);
    }
  }
  return dedupe(passages).slice(0, MAX_PASSAGES);
}

function apiPassages(file: ArchiveFile, ecosystem: string, importName: string, locate: (where: { line?: number; anchor?: string }) => string): PassageDraft[] {
  const path = file.path;
  if (/\.d\.(ts|mts|cts)$/.test(path)) {
    return apiFromDeclarations(textOf(file), { source: path, pageTitle: `${importName} API`, locate, maxPassages: 500 });
  }
  if (ecosystem === 'pypi' && path.endsWith('.py') && !/(^|\/)(setup|conftest|conf)\.py$|(^|\/)docs?\//.test(path)) {
    // Packages define their API in private modules and re-export it (httpx/_client.py → httpx.AsyncClient):
    // private module segments are dropped from the name, private symbols are still skipped by the extractor.
    const module = path.replace(/^src\//, '').replace(/\.py$/, '').replace(/\/__init__$/, '').split('/')
      .filter((part, i) => i === 0 || !part.startsWith('_')).join('.');
    if (module.startsWith('_') || /(^|\.)(tests?|testing|conftest)(\.|$)/.test(module)) return [];
    return apiFromPython(textOf(file), { source: path, module, locate });
  }
  if (ecosystem === 'crates' && path.endsWith('.rs') && path.startsWith('src/')) {
    const module = [importName, ...path.replace(/^src\//, '').replace(/\.rs$/, '').split('/').filter((p) => !['lib', 'mod', 'main'].includes(p))].join('::');
    return apiFromRust(textOf(file), { source: path, module, locate });
  }
  if (ecosystem === 'go' && path.endsWith('.go')) {
    const dir = path.includes('/') ? `/${path.slice(0, path.lastIndexOf('/'))}` : '';
    return apiFromGo(textOf(file), { source: path, importPath: `${importName}${dir}`, locate });
  }
  return [];
}

function titleFromPath(path: string): string {
  const base = (path.split('/').pop() ?? path).replace(/\.(md|mdx|markdown|rst)$/i, '');
  return base === 'index' ? path.split('/').slice(-2, -1)[0] ?? base : base.replace(/[-_]/g, ' ');
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
