// passageParts: reads a passage's Markdown with a CommonMark lexer (marked) and says what in it is code, what is prose a
// reader sees, and what is prose a reader never sees (HTML comments, hidden elements, `[//]: #` notes). Pure; no I/O.
import { marked, type Token, type Tokens } from 'marked';

export interface CodeBlock { language: string; code: string }

export interface PassageParts {
  /** Fenced or indented code blocks, in order, exactly as written. */
  code: CodeBlock[];
  /** Prose a reader of the rendered page sees (headings, paragraphs, lists, tables, link and image text), code spans left out. */
  prose: string[];
  /** Prose a reader of the rendered page does not see: HTML comments, `hidden`/`display:none` elements, `[//]: #` notes, invisible characters. */
  hidden: string[];
  /** The Markdown without its code blocks (the item's documentation, for symbol answers). */
  withoutCode: string;
}

const HIDDEN_ELEMENT = /<([a-z][\w-]*)\b[^>]*\b(hidden\b|aria-hidden\s*=\s*["']?true|style\s*=\s*["'][^"']*(display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?![.\d])))[^>]*>([\s\S]*?)<\/\1\s*>/gi;
const COMMENT = /<!--([\s\S]*?)(-->|$)/g;
// The same as a lone opening tag: inline HTML comes from the lexer one tag at a time (`<span hidden>`, text, `</span>`).
const HIDDEN_OPEN = /^<([a-z][\w-]*)\b[^>]*\b(hidden\b|aria-hidden\s*=\s*["']?true|style\s*=\s*["'][^"']*(display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?![.\d])))[^>]*>$/i;
// Unicode tag characters (U+E0000–E007F) spell ASCII invisibly ("ASCII smuggling"); zero-width and bidi controls hide text too.
const TAG_RUN = /[\u{E0000}-\u{E007F}]{2,}/gu;

/** The text hidden in one HTML fragment, and what a reader sees of it (its tags stripped). */
function readHtml(html: string, hidden: string[]): string {
  for (const match of html.matchAll(COMMENT)) hidden.push(match[1]!.trim());
  let visible = html.replace(COMMENT, ' ');
  visible = visible.replace(HIDDEN_ELEMENT, (_all, _tag, _attr, _style, inner: string) => {
    hidden.push(inner.replace(/<[^>]+>/g, ' ').trim());
    return ' ';
  });
  return visible.replace(/<[^>]+>/g, ' ');
}

/** ASCII spelled in Unicode tag characters, decoded, so what it says can be read. */
function smuggled(text: string, hidden: string[]): void {
  for (const match of text.matchAll(TAG_RUN)) hidden.push([...match[0]].map((c) => String.fromCodePoint(c.codePointAt(0)! - 0xe0000)).join(''));
}

export function passageParts(markdown: string): PassageParts {
  const parts: PassageParts = { code: [], prose: [], hidden: [], withoutCode: '' };
  const kept: string[] = [];
  // Inline elements opened hidden and not closed yet: text inside them goes to `hidden`.
  const hiddenTags: string[] = [];
  const visit = (tokens: Token[] | undefined, inline: string[]) => {
    for (const token of tokens ?? []) {
      if (token.type === 'html' && !(token as Tokens.HTML).block) {
        const tag = (token as Tokens.HTML).text.trim();
        const open = HIDDEN_OPEN.exec(tag);
        if (open) { hiddenTags.push(open[1]!.toLowerCase()); continue; }
        if (hiddenTags.length && new RegExp(`^</${hiddenTags[hiddenTags.length - 1]}\\s*>$`, 'i').test(tag)) { hiddenTags.pop(); continue; }
      }
      if (hiddenTags.length && token.type !== 'html') {
        parts.hidden.push(('text' in token && typeof token.text === 'string' ? token.text : token.raw).trim());
        continue;
      }
      switch (token.type) {
        case 'code': parts.code.push({ language: (token as Tokens.Code).lang?.split(/\s/)[0] ?? '', code: (token as Tokens.Code).text }); break;
        case 'codespan': inline.push(' '); break;
        case 'html': inline.push(readHtml((token as Tokens.HTML).text, parts.hidden)); break;
        case 'def': {
          const def = token as Tokens.Def;
          // `[//]: # (a note)` and its kin: a link definition nothing refers to, the Markdown idiom for a comment.
          if (def.title) parts.hidden.push(def.title);
          break;
        }
        case 'text': case 'escape':
          if ('tokens' in token && token.tokens?.length) visit(token.tokens, inline); else inline.push((token as Tokens.Text).text);
          break;
        default:
          if ('tokens' in token && token.tokens) visit(token.tokens, inline);
          if (token.type === 'list') for (const item of (token as Tokens.List).items) visit(item.tokens, inline);
          if (token.type === 'table') {
            const table = token as Tokens.Table;
            for (const cell of [...table.header, ...table.rows.flat()]) visit(cell.tokens, inline);
          }
          if ('title' in token && typeof token.title === 'string' && token.title) inline.push(` ${token.title}`);
      }
    }
  };
  for (const block of marked.lexer(markdown)) {
    if (block.type !== 'code') kept.push(block.raw);
    const inline: string[] = [];
    visit([block], inline);
    const text = inline.join('').replace(/[ \t]+/g, ' ').trim();
    if (text) parts.prose.push(text);
  }
  smuggled(markdown, parts.hidden);
  parts.hidden = parts.hidden.filter(Boolean);
  parts.withoutCode = kept.join('').replace(/\n{3,}/g, '\n\n').trim();
  return parts;
}
