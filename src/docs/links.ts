// Guide ↔ API links: which API items a guide or README section uses in its code, and, the other way, which sections
// show an item in use. Read with a CommonMark lexer (marked): only code blocks and code spans count, never prose, so
// "get" in a sentence links nothing while `session.get(url)` in an example links `Session.get`. An answer to "how do
// I X" can then show the section together with the item it calls, and the item together with the section that shows
// it. Pure: passages in, links out; built once per package index.
import { marked, type Token, type Tokens } from 'marked';

export interface LinkablePassage {
  content: string; symbol: string | null; title: string | null; headings: string[]; internal: boolean; deprecated?: boolean; importance: number; url: string;
}

export interface PassageLinks {
  /** For a guide section: the API items its code uses (passage positions), best resolved first. */
  uses: number[];
  /** For an API item: the guide sections whose code uses it (passage positions), in the package's order. */
  usedIn: number[];
}

/**
 * Links shown on one answer passage, at most (each the item's symbol or the section's trail, and its url): about 25
 * tokens each, so under a 2,000-token budget three a passage cost half a passage per answer (tuning: 5.4 → 4.9 whole).
 * A bench may change it (BENCH_LINKS=0 measures answers without links).
 */
export const LINKS = { perPassage: 2 };

/** Items a section may link, at most: a long tutorial calls dozens; the first ones it shows are what it is about. */
const MAX_USES = 6;
const MAX_USED_IN = 4;
/** A bare name (`get`, `new`) matching more items than this, with no qualifier to tell them apart, links nothing. */
const MAX_AMBIGUOUS = 3;

// A use in code: `qualifier.name(`, `Type::name(`, `name!(`, `name::<T>(`, or `qualifier.name` reached as a value.
const CALL = /(?:([A-Za-z_$][\w$]*)\s*(?:\?\.|\.|::))?([A-Za-z_$][\w$]*)\s*(?=!?\(|::<)|([A-Za-z_$][\w$]*)\s*(?:\.|::)([A-Za-z_$][\w$]*)/g;
// A code span that is one name or path (`Session.mount`, `tokio::time::timeout`, `debounce`, `WithLeeway()`).
const PATH_SPAN = /^([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)(?:\(\))?!?$/;

export interface CodeUse { qualifier?: string; name: string }

/**
 * The code of a Markdown passage: its code blocks and code spans, as a reader of the rendered page sees them. A README
 * that documents its API in prose writes the name in bold and its parameters as code (acorn's
 * "**getLineInfo**`(input, offset)`"): that bold name counts as a code span of its own.
 */
export function codeOf(markdown: string): { blocks: string[]; spans: string[] } {
  const blocks: string[] = [];
  const spans: string[] = [];
  const visit = (tokens: Token[] | undefined) => {
    for (const [i, token] of (tokens ?? []).entries()) {
      const next = tokens![i + 1];
      if (token.type === 'code') blocks.push((token as Tokens.Code).text);
      else if (token.type === 'codespan') spans.push((token as Tokens.Codespan).text);
      else if (token.type === 'strong' && next?.type === 'codespan' && (next as Tokens.Codespan).text.startsWith('(')) spans.push(`${(token as Tokens.Strong).text}()`);
      if ('tokens' in token && token.tokens) visit(token.tokens);
      if (token.type === 'list') for (const item of (token as Tokens.List).items) visit(item.tokens);
      if (token.type === 'table') for (const cell of [...(token as Tokens.Table).header, ...(token as Tokens.Table).rows.flat()]) visit(cell.tokens);
    }
  };
  visit(marked.lexer(markdown));
  return { blocks, spans };
}

// A heading that names an API item, as READMEs document their API: `### expand(str)`, `` ## `parse(text, [options])` ``,
// `### new Parser(options)`, `### .extend(namespace)`, `## debug.enable(namespaces)`.
const HEADING_NAME = /^(?:new\s+|\.)?([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)\s*(?:\(|<|\[|$)/;

/** The item a section's heading names, if it names one (its last heading, code marks dropped). */
export function headingUse(heading: string | undefined): CodeUse | undefined {
  const match = heading ? HEADING_NAME.exec(heading.replace(/`/g, '').trim()) : null;
  if (!match || !/[(<[]|`/.test(heading!) && !/[._:#]|[a-z][A-Z]/.test(match[1]!)) return undefined; // "Usage" is no item
  const segments = match[1]!.split(/\.|::|#/);
  const name = segments[segments.length - 1]!;
  return segments.length > 1 ? { qualifier: segments[segments.length - 2]!, name } : { name };
}

/**
 * The names a passage's code uses, each with the qualifier written before it (`session` of `session.get(`); first the
 * item its heading names (`### expand(str)`), when it names one.
 */
export function codeUses(markdown: string, heading?: string): CodeUse[] {
  const named = headingUse(heading);
  if (!markdown.includes('`') && !/^( {4}|\t)\S/m.test(markdown)) return named ? [named] : [];
  const { blocks, spans } = codeOf(markdown);
  const uses: CodeUse[] = named ? [named] : [];
  const seen = new Set<string>(named ? [`${named.qualifier ?? ''}\u0000${named.name}`] : []);
  const add = (name: string | undefined, qualifier: string | undefined) => {
    if (!name || name.length < 2) return;
    const key = `${qualifier ?? ''}\u0000${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    uses.push(qualifier ? { qualifier, name } : { name });
  };
  for (const code of [...spans, ...blocks]) {
    const path = PATH_SPAN.exec(code.trim());
    if (path) {
      const segments = path[1]!.split(/\.|::|#/);
      add(segments[segments.length - 1], segments[segments.length - 2]);
      continue;
    }
    for (const match of code.matchAll(CALL)) {
      if (match[2]) add(match[2], match[1]);
      else add(match[4], match[3]);
    }
  }
  return uses;
}

const segmentsOf = (symbol: string) => symbol.split(/::|\.|\/|#/).filter(Boolean);

/**
 * Links every guide section to the API items its code uses, and every item to the sections that use it. A name
 * resolves to the items whose last segment it is; several are told apart by the qualifier written before it (the
 * item's parent, case-insensitively: `session.get(` → `Session.get`), else the public, current, most important one —
 * unless more than MAX_AMBIGUOUS share the name, when the use says too little to link.
 */
export function linkPassages(passages: LinkablePassage[]): PassageLinks[] {
  const links: PassageLinks[] = passages.map(() => ({ uses: [], usedIn: [] }));
  const byName = new Map<string, number[]>();
  // One passage per item (its first chunk), so an item split in chunks is linked once.
  const firstOf = new Map<string, number>();
  passages.forEach((p, i) => {
    if (!p.symbol || firstOf.has(p.symbol)) return;
    firstOf.set(p.symbol, i);
    const name = segmentsOf(p.symbol).pop();
    if (name) byName.set(name, [...(byName.get(name) ?? []), i]);
  });
  if (!byName.size) return links;
  const preference = (i: number) => (passages[i]!.internal ? -2 : 0) + (passages[i]!.deprecated ? -1 : 0) + passages[i]!.importance;
  const resolve = (use: CodeUse): number | undefined => {
    const candidates = byName.get(use.name);
    if (!candidates?.length) return undefined;
    const qualifier = use.qualifier?.toLowerCase();
    const qualified = qualifier ? candidates.filter((i) => segmentsOf(passages[i]!.symbol!).slice(-2, -1)[0]?.toLowerCase() === qualifier) : [];
    const pool = qualified.length ? qualified : candidates;
    if (!qualified.length && pool.length > MAX_AMBIGUOUS) return undefined;
    return [...pool].sort((a, b) => preference(b) - preference(a) || a - b)[0];
  };
  passages.forEach((p, i) => {
    if (p.symbol) return; // an item's own examples are part of it, not a guide's use of it
    for (const use of codeUses(p.content, p.headings.length > 1 ? p.headings[p.headings.length - 1] : undefined)) {
      const item = resolve(use);
      if (item === undefined || links[i]!.uses.includes(item)) continue;
      links[i]!.uses.push(item);
      if (links[item]!.usedIn.length < MAX_USED_IN) links[item]!.usedIn.push(i);
      if (links[i]!.uses.length >= MAX_USES) break;
    }
  });
  return links;
}
