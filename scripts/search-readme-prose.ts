// A candidate README extract for the catalog's search text, read with a Markdown parser (marked's lexer): measured in
// round 13 against the shipped regular-expression excerpt (src/catalog/registries/archive.ts readmeExcerpt) by
// scripts/search-readme-sample.ts, and NOT wired into the catalog build: over 982 catalog tools whose READMEs this
// machine holds it moved 53 of 2,812 spent-set queries, −3 at hit@1 and −1 at hit@5 with the shipped weights (docs/search.md
// "Round 13"; a table of contents, which it drops, lists a README's topics). Kept for an operator build that can
// re-extract the whole catalog and judge it by leave-one-set-out (bench/search-harness.ts BENCH_README_FILE).
// What it addresses: the shipped excerpt keeps what survived its substitutions — heading words
// ("Installation", "Usage", "Table of contents"), admonition markers, list items that are only links (tables of
// contents, "Documentation · Discord · Changelog"), the sentences of licence and contributing sections, and the words
// around a removed URL ("Sign up at  for a key") — and it cut at 1,200 characters of that mix, so a tool whose opening
// was badges and an install section kept little of what it does. Here the document's structure decides: prose blocks
// (headings, paragraphs, prose list items, quotes) in reading order; code, HTML, tables, badge and link-only blocks
// out; the sections whose kind is setup or project housekeeping out (by their heading, see SKIPPED_SECTIONS).
// reStructuredText (many PyPI descriptions) has no parser in the project: its directives and field lists are dropped as
// lines before lexing, its underlined titles lex as Markdown setext headings and its `::` literal blocks as indented code.
import { Lexer, type Token, type Tokens } from 'marked';
import { NodeHtmlMarkdown } from 'node-html-markdown';
import { headOf } from '../src/text-cut.ts';

/**
 * Kinds of README section that say how to set up or run the project, not what the tool does: installation, licence,
 * contributing, changelog, tables of contents, sponsors, credits, authors, citation (kinds a tool's own purpose does not
 * share: "testing", "building" or "security" would drop what a test runner, a build tool or a scanner does). Matched against a
 * heading's words; the section runs to the next heading.
 */
const SKIPPED_SECTIONS = /\b(install(ation|ing)?|setup|licen[cs]e|licensing|copyright|contribut(e|ing|ors?|ion)|changelog|change log|release notes|table of contents|contents|toc|sponsors?|backers|funding|donat(e|ions?)|credits|acknowledg(e)?ments?|authors?|maintainers?|code of conduct|citation|citing)\b/i;

/** reStructuredText lines that are markup, not prose: directives (`.. image::`), their indented options, field lists, substitutions. */
function withoutRstMarkup(text: string): string {
  const out: string[] = [];
  const lines = text.split('\n');
  // An rst title's underline (or overline) is a run of one punctuation character at least as long as the title: as
  // Markdown, `~~~` opens a code fence and `***` is a rule, so each becomes a setext underline, an overline nothing.
  const adornment = (line: string | undefined) => line !== undefined && /^([=\-~^"'`#*+:._<>])\1{2,}\s*$/.test(line);
  const isTitle = (line: string | undefined) => line !== undefined && line.trim() !== '' && !adornment(line) && !/^\s/.test(line);
  let fence = ''; // inside a Markdown code fence: its opening run (```, ~~~~), and no line in it is an adornment
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const run = line.match(/^\s{0,3}(`{3,}|~{3,})/)?.[1];
    if (fence) {
      if (run && run[0] === fence[0] && run.length >= fence.length && line.trim() === run) fence = '';
      continue;
    }
    const underline = adornment(line) && isTitle(lines[i - 1]) && line.trim().length >= lines[i - 1]!.trim().length;
    if (underline) lines[i] = '-'.repeat(line.trim().length);
    else if (adornment(line) && isTitle(lines[i + 1]) && adornment(lines[i + 2])) lines[i] = '';
    else if (run) fence = run;
  }
  text = lines.join('\n');
  let inDirective = false;
  for (const line of text.split('\n')) {
    if (/^\.\.\s/.test(line)) { inDirective = true; continue; }
    if (inDirective && (/^\s+\S/.test(line) || line.trim() === '')) { if (line.trim() === '') inDirective = false; continue; }
    inDirective = false;
    if (/^\s*(:\w[\w ]*:|\|[^|]+\|\s)/.test(line)) continue;
    out.push(line);
  }
  return out.join('\n');
}

/** The words an inline run shows a reader: link text kept, images, raw HTML and URLs left out. */
function inlineText(tokens: Token[] | undefined): string {
  if (!tokens) return '';
  return tokens.map((t) => {
    switch (t.type) {
      case 'image': case 'html': return ' ';
      case 'br': return ' ';
      case 'codespan': return ` ${(t as Tokens.Codespan).text} `;
      case 'link': {
        const link = t as Tokens.Link;
        const text = inlineText(link.tokens);
        return /^(https?:\/\/|www\.)/i.test(text.trim()) ? ' ' : text; // a bare URL as its own text
      }
      default: {
        const nested = (t as { tokens?: Token[] }).tokens;
        return nested ? inlineText(nested) : 'text' in t ? String((t as { text: string }).text) : '';
      }
    }
  }).join('');
}

/** Whether an inline run is only links, images and separators (badges, "Docs | Discord | Changelog", a bare link). */
function onlyLinks(tokens: Token[] | undefined): boolean {
  if (!tokens?.length) return true;
  return tokens.every((t) => t.type === 'image' || t.type === 'link' || t.type === 'br' || t.type === 'html'
    || (t.type === 'text' && !(t as Tokens.Text).tokens && !/\p{L}{2,}/u.test((t as Tokens.Text).text)));
}

/**
 * Whether a list item's run only navigates: badges, or links into the page itself (a table of contents). A list item
 * that is one outside link keeps its words: feature and algorithm lists link each entry ("- [Levenshtein]").
 */
function navigates(tokens: Token[] | undefined): boolean {
  if (!onlyLinks(tokens)) return false;
  const links = (tokens ?? []).filter((t) => t.type === 'link') as Tokens.Link[];
  return (tokens ?? []).some((t) => t.type === 'image' || (t.type === 'link' && (t as Tokens.Link).tokens?.some((x) => x.type === 'image')))
    || links.every((l) => l.href.startsWith('#'));
}

/** GitHub's admonition marker ("[!NOTE]") opening a quote: a label, not prose. */
const ADMONITION = /^\s*\[!\w+\]\s*/;

const html = new NodeHtmlMarkdown({ ignore: ['picture', 'source', 'svg', 'script', 'style'] });

/** The prose of an HTML block: translated to Markdown, then read as Markdown blocks are (headings included). */
function htmlProse(text: string): string[] {
  let markdown: string;
  try { markdown = html.translate(text); } catch { return []; }
  return new Lexer({ gfm: true }).lex(markdown)
    .flatMap((t) => (t.type === 'heading' ? [inlineText((t as Tokens.Heading).tokens)] : blockProse(t, true)));
}

/** Prose of one block, in reading order; '' for what is not prose. */
function blockProse(token: Token, nested = false): string[] {
  switch (token.type) {
    case 'paragraph': {
      const p = token as Tokens.Paragraph;
      return onlyLinks(p.tokens) ? [] : [inlineText(p.tokens).replace(ADMONITION, ' ')];
    }
    case 'text': {
      const t = token as Tokens.Text;
      return onlyLinks(t.tokens ?? [t]) ? [] : [inlineText(t.tokens ?? [t])];
    }
    case 'blockquote': return (token as Tokens.Blockquote).tokens.flatMap((t) => blockProse(t, nested));
    // A README's HTML block (a centred title and tagline, <p align="center">…</p>) read as Markdown by an HTML parser:
    // its prose stays, its badges and link rows are images and links like any other. Once: no HTML inside HTML.
    case 'html': return nested ? [] : htmlProse((token as Tokens.HTML).text);
    case 'list': return (token as Tokens.List).items.flatMap((item) => item.tokens.flatMap((t) => {
      const run = t.type === 'text' || t.type === 'paragraph' ? ((t as Tokens.Text).tokens ?? [t]) : undefined;
      if (run) return navigates(run) ? [] : [inlineText(run)];
      return blockProse(t, nested);
    }));
    default: return []; // code, html, table, hr, def, space
  }
}

/**
 * The opening prose of a README for search text, at most `maxChars` characters: headings and prose blocks in order,
 * sections of setup and housekeeping left out.
 */
export function readmeProse(readme: string, maxChars = 1200): string {
  let tokens: Token[];
  try {
    tokens = new Lexer({ gfm: true }).lex(withoutRstMarkup(readme.replace(/\r\n?/g, '\n')));
  } catch {
    return '';
  }
  const parts: string[] = [];
  let length = 0;
  let skipping = false; // inside a section of setup or housekeeping
  for (const token of tokens) {
    if (token.type === 'heading') {
      const heading = token as Tokens.Heading;
      // A skipped section ends at the next heading of any depth: READMEs nest their real sections under a "Table of
      // contents" heading often enough that a depth rule dropped what the tool does.
      skipping = SKIPPED_SECTIONS.test(inlineText(heading.tokens));
      if (skipping) continue;
    }
    if (skipping) continue;
    // A heading of a kept section stays: a title's tagline ("NIST P-384 elliptic curve") and a section's topic
    // ("Tables", "Progress bars") are words of what the tool does.
    const blocks = token.type === 'heading' ? [inlineText((token as Tokens.Heading).tokens)] : blockProse(token);
    for (const prose of blocks) {
      const clean = prose.replace(/https?:\/\/\S+/g, ' ').replace(/\s+/g, ' ').trim();
      if (!/\p{L}{3,}/u.test(clean)) continue;
      parts.push(clean);
      length += clean.length + 1;
    }
    if (length >= maxChars) break;
  }
  return headOf(parts.join(' '), maxChars);
}
