// chunkByHeadings: splits Markdown into passages along its heading hierarchy. Code blocks stay whole;
// long sections are split on block boundaries with one block of overlap. Pure text in, passages out.
import { cutText } from '../../text-cut.ts';
import type { LocateFn, PassageDraft } from './types.ts';

export const TARGET_CHARS = 1600;
const MAX_CODE_CHARS = 6000;

interface Section {
  trail: string[];
  anchor?: string;
  line: number;
  body: string[];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(text: string): string {
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ATX = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const HTML_HEADING = /^\s*<h([1-6])\b[^>]*>(.*?)<\/h\1>\s*$/i;

export function stripInline(text: string): string {
  return text
    .replace(/(?<!\\)<[^>]+>/g, '') // HTML tags, not escaped `\<T\>`
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1') // reference links: `[FastifyRequest][FastifyRequest]`
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1') // backslash escapes: `Promise\<void\>`, `\|`
    .replace(/[*_]{1,3}([^*_]+)[*_]{1,3}/g, '$1')
    .trim();
}

/**
 * A heading that marks its section deprecated: "CancelToken 👎deprecated", "`foo()` (deprecated)", "Deprecated: bar",
 * "Deprecated options". A heading that only mentions the word ("Removing deprecated APIs") does not.
 */
export const marksDeprecated = (heading: string) =>
  /(^|[\s(\[`👎~])deprecated[\s)\]`.!:~*]*$/i.test(heading) || /^[\s👎~*`]*deprecated\b/i.test(heading);

/** Lines that carry no prose for a reader or a ranker: badges, HTML comments, bare images. */
function isNoise(line: string): boolean {
  const text = line.trim();
  if (!text) return false;
  if (/^(\[?!\[[^\]]*\]\([^)]*\)\]?(\([^)]*\))?\s*)+$/.test(text)) return true;
  if (/^<\/?(p|div|img|br|a|picture|source|sup|sub|hr)\b[^>]*>$/i.test(text)) return true;
  if (/^<img\b/i.test(text) && /\/?>$/.test(text)) return true;
  return false;
}

export interface ChunkOptions {
  pageTitle: string;
  source: string;
  locate: LocateFn;
  /** MDX pages: drop top-level import/export lines. */
  mdx?: boolean;
  /** The page's own anchor for a heading (HTML ids), when it has one. */
  anchorFor?: (heading: string) => string | undefined;
  /**
   * The page title is the item the text documents (a module's doc comment): its first `# Heading` is a section of it
   * (rustdoc's `# Features`), not the page's title as a README's first heading is.
   */
  fixedTitle?: boolean;
}

export function chunkByHeadings(markdown: string, options: ChunkOptions): PassageDraft[] {
  const lines = stripFrontMatter(markdown.replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?-->/g, '')).split('\n');
  const sections: Section[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  let current: Section = { trail: [], line: 1, body: [] };
  let fence: string | undefined;
  let pageTitle = options.pageTitle;

  const startSection = (level: number, text: string, line: number) => {
    sections.push(current);
    while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
    stack.push({ level, text });
    if (!options.fixedTitle && level === 1 && sections.every((s) => s.trail.length === 0) && stack.length === 1) pageTitle = text || pageTitle;
    current = { trail: stack.map((h) => h.text), anchor: options.anchorFor?.(text) ?? headingAnchor(text), line, body: [] };
  };

  lines.forEach((line, index) => {
    const lineNo = index + 1;
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      current.body.push(line);
      if (fenceMatch && fenceMatch[1]![0] === fence[0] && fenceMatch[1]!.length >= fence.length && !line.trim().slice(fenceMatch[1]!.length).trim()) fence = undefined;
      return;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      current.body.push(line);
      return;
    }
    const atx = ATX.exec(line) ?? HTML_HEADING.exec(line);
    if (atx) {
      const level = atx[1]!.startsWith('#') ? atx[1]!.length : Number(atx[1]);
      startSection(level, stripInline(atx[2] ?? ''), lineNo);
      return;
    }
    const previous = current.body[current.body.length - 1];
    if (previous !== undefined && /^\s{0,3}(=+|-+)\s*$/.test(line) && isSetextCandidate(previous)) {
      current.body.pop();
      startSection(line.trim().startsWith('=') ? 1 : 2, stripInline(previous), lineNo - 1);
      return;
    }
    if (options.mdx && /^(import|export)\s/.test(line)) return;
    if (!isNoise(line)) current.body.push(line);
  });
  sections.push(current);

  const passages: PassageDraft[] = [];
  for (const section of sections) {
    const body = section.body.join('\n').replace(/\n{3,}/g, '\n\n').trim();
    if (body.replace(/\s/g, '').length < 20) continue;
    const trail = section.trail[0] === pageTitle ? section.trail : [pageTitle, ...section.trail];
    const url = options.locate({ anchor: section.anchor, line: section.line });
    // The README's title is the package's name, which may itself say "deprecated" (`eslint-plugin-deprecated`).
    const deprecated = section.trail.some((heading) => heading !== options.pageTitle && marksDeprecated(heading));
    for (const content of splitLong(body)) {
      passages.push({ url, title: trail[trail.length - 1], headings: trail, content, source: options.source, ...(deprecated ? { deprecated } : {}) });
    }
  }
  return passages;
}

function isSetextCandidate(line: string): boolean {
  const text = line.trim();
  return text.length > 0 && text.length < 120 && !/^([-*+>|]|\d+\.|```|~~~)/.test(text);
}

function stripFrontMatter(text: string): string {
  return text.replace(/^---\n[\s\S]*?\n---\n/, '');
}

/** Title from Markdown front matter (`title: …`), which doc sites use instead of an h1. */
export function frontMatterTitle(text: string): string | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const title = match ? /^title:\s*["']?(.+?)["']?\s*$/m.exec(match[1] ?? '') : null;
  return title?.[1];
}

/** Blocks are paragraphs, or whole fenced code blocks; a section longer than the target is packed into several. */
export function splitLong(body: string): string[] {
  if (body.length <= TARGET_CHARS) return [body];
  const blocks: string[] = [];
  let buffer: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    const text = buffer.join('\n').trim();
    if (text) blocks.push(cutText(text, MAX_CODE_CHARS, '\n…'));
    buffer = [];
  };
  for (const line of body.split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      buffer.push(line);
      if (fenceMatch && fenceMatch[1]![0] === fence[0]) {
        fence = undefined;
        flush();
      }
    } else if (fenceMatch) {
      flush();
      fence = fenceMatch[1];
      buffer.push(line);
    } else if (!line.trim()) {
      flush();
    } else {
      buffer.push(line);
    }
  }
  flush();
  const chunks: string[] = [];
  let chunk: string[] = [];
  let size = 0;
  for (const block of blocks) {
    if (size + block.length > TARGET_CHARS && chunk.length) {
      chunks.push(chunk.join('\n\n'));
      const last = chunk[chunk.length - 1]!;
      // One block of overlap keeps a sentence that introduces the next code block with it.
      chunk = last.length < TARGET_CHARS / 4 && !last.startsWith('```') ? [last] : [];
      size = chunk.reduce((n, b) => n + b.length, 0);
    }
    chunk.push(block);
    size += block.length;
  }
  if (chunk.length) chunks.push(chunk.join('\n\n'));
  return chunks;
}
