// What the sentence encoder reads of a passage: its name, its heading and its first sentence of prose. Passages keep
// their markup (Markdown, reStructuredText, mkdocs admonitions, HTML anchors) for the agent that reads them; the
// encoder gets the words a person would read, because a summary whose "first sentence" is `!!!`, `..` or
// `<a id="testing"></a>` (8% of the prose passages of the bench's packages) compares with nothing.
import type { IndexedPassage } from './rank.ts';

/** Markup that carries no words of its own, removed whole. */
const DROPPED: RegExp[] = [
  /```[\s\S]*?```/g, // fenced code
  /<!--[\s\S]*?-->/g, // HTML comments
  /^\s*\.\. [\w:-]+::.*$/gm, // reST directive lines (`.. versionadded:: 3.0`, `.. currentmodule:: click`)
  /^\s*\.\. _[^:]+:\s*$/gm, // reST link targets (`.. _index_toplevel:`)
  /^\s*:(orphan|sorted|tags|meta|members|undoc-members|noindex):.*$/gm, // reST options of a document or directive
  /^\s*(>>>|\.\.\.)( .*)?$/gm, // doctest lines
  /^\s*(!!!|\?\?\?\+?)\s*\w+(\s+"[^"]*")?\s*$/gm, // mkdocs admonition openers (`!!! abstract "Usage Documentation"`)
  /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, // Markdown table rules
];

/** Markup around words, replaced by the words. */
const UNWRAPPED: Array<[RegExp, string]> = [
  [/!\[([^\]]*)\]\([^)]*\)/g, ''], // images
  [/\[([^\]]+)\]\([^)]*\)/g, '$1'], // Markdown links
  [/\[([^\]]+)\]\[[^\]]*\]/g, '$1'], // reference links
  [/`([^`<]+?)\s*<[^>]+>`_{1,2}/g, '$1'], // reST links `text <url>`_
  [/:[\w.-]+:`~?\.?([^`]+)`/g, '$1'], // reST roles (:class:`.Session`, :paramref:`.Engine.dispose.close`)
  [/<[^>]+>/g, ' '], // HTML tags
  [/(\*\*|__)(.+?)\1/g, '$2'], // bold
  [/`+([^`]+)`+/g, '$1'], // inline code
  [/^\s*(#{1,6}|>|[-*+]|\d+\.)\s+/gm, ''], // headings, quotes, list markers at line starts
  [/\|/g, ' '], // table cells
  [/::(\s|$)/g, ':$1'], // reST's literal-block marker (`Usage::`)
];

/** The words of a passage's text, its markup removed. */
export function plainProse(markup: string): string {
  let text = markup;
  for (const pattern of DROPPED) text = text.replace(pattern, ' ');
  for (const [pattern, replacement] of UNWRAPPED) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The first sentence that says something: three words or more (a numbered step's "2." or an answer's "No." is not
 * one), at most 300 characters.
 */
export function firstSentence(prose: string): string {
  let rest = prose, taken = '';
  while (rest) {
    // Up to a full stop, question or exclamation mark that ends a word (`z.string()` and `1.x` go on).
    const sentence = /^.*?[.!?](\s|$)/.exec(rest)?.[0] ?? rest;
    taken = `${taken} ${sentence.trim()}`.trim();
    rest = rest.slice(sentence.length);
    if (taken.split(' ').filter((word) => /[a-z]/i.test(word)).length >= 3) break;
  }
  return taken.slice(0, 300);
}

/** What a passage is about, in a few words: its name, its heading and its first sentence of prose. */
export function passageSummary(p: Pick<IndexedPassage, 'title' | 'symbol' | 'headings' | 'content'>): string {
  const name = (p.symbol ?? p.title ?? '').split(/::|\.|\//).pop() ?? '';
  return `${name.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')}. ${p.headings[p.headings.length - 1] ?? ''}. ${firstSentence(plainProse(p.content))}`;
}
