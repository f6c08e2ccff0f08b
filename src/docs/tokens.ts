// Code-aware tokens: splits camelCase, PascalCase, snake_case, kebab and dotted identifiers so that
// "requiredOption", "required option" and "program.requiredOption()" meet in the full-text index.

const IDENTIFIER = /[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*/g;

/** `requiredOption` → [required, option]; `HTTPServer` → [http, server]; `z.string` → [z, string]. */
export function splitIdentifier(token: string): string[] {
  return token
    .split(/[.:#>\-_$]+/)
    .flatMap((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(' '))
    .map((part) => part.toLowerCase())
    .filter(Boolean);
}

/** A token that is more than a plain word: it has inner capitals, dots, underscores or `::`. */
export function isCompoundIdentifier(token: string): boolean {
  return /[a-z0-9][A-Z]|[A-Za-z0-9][._:#][A-Za-z_]|_[a-z]/.test(token) && splitIdentifier(token).length > 1;
}

/** The text plus the parts of each compound identifier in it, for indexing and for queries alike. */
export function expandCodeTokens(text: string): string {
  const extra: string[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    const token = match[0];
    if (isCompoundIdentifier(token)) extra.push(splitIdentifier(token).join(' '));
    // `foo.bar` reads as a host name to the English parser; also index the joined parts as words.
    if (/[.:#]/.test(token)) extra.push(token.split(/[.:#>]+/).join(' '));
  }
  return extra.length ? `${text}\n${extra.join(' ')}` : text;
}

/** Identifiers a passage is about (its symbol, inline code), lower-cased, for the exact-identifier boost. */
export function identifiersIn(text: string, limit = 40): string[] {
  const found = new Set<string>();
  for (const code of text.matchAll(/`([^`\n]{1,80})`/g)) {
    for (const match of (code[1] ?? '').matchAll(IDENTIFIER)) addIdentifier(found, match[0]);
  }
  for (const match of text.matchAll(IDENTIFIER)) if (isCompoundIdentifier(match[0])) addIdentifier(found, match[0]);
  return [...found].slice(0, limit);
}

function addIdentifier(found: Set<string>, token: string): void {
  if (token.length < 3) return;
  found.add(token.toLowerCase());
  const last = token.split(/\.|::|#|->/).pop();
  if (last && last !== token && last.length >= 3) found.add(last.toLowerCase());
}

// Question filler that says nothing about the passage wanted; the English config drops the rest of the stop words.
const FILLER = new Set([
  'how', 'do', 'does', 'i', 'we', 'you', 'can', 'could', 'should', 'would', 'what', 'which', 'when', 'where', 'why',
  'is', 'are', 'the', 'a', 'an', 'to', 'of', 'in', 'on', 'for', 'with', 'and', 'or', 'my', 'me', 'it', 'its', 'this',
  'that', 'there', 'way', 'possible', 'want', 'need', 'use', 'using', 'example', 'please', 'show', 'tell', 'about',
  'library', 'package', 'module', 'crate', 'gem', 'docs', 'documentation', 'be', 'by', 'from', 'as', 'at', 'if',
]);

export interface QueryTerms {
  /** Distinct lower-case words ([a-z0-9]), code parts included, filler removed. */
  terms: string[];
  /** Identifiers written in the question (camelCase, dotted, backticked), lower-cased. */
  identifiers: string[];
}

export function queryTerms(question: string, maxTerms = 16): QueryTerms {
  const identifiers = new Set<string>();
  for (const match of question.matchAll(IDENTIFIER)) if (isCompoundIdentifier(match[0])) addIdentifier(identifiers, match[0]);
  for (const code of question.matchAll(/`([^`]{1,80})`/g)) {
    for (const match of (code[1] ?? '').matchAll(IDENTIFIER)) addIdentifier(identifiers, match[0]);
  }
  const words = expandCodeTokens(question).toLowerCase().split(/[^a-z0-9]+/).filter((word) => word && !FILLER.has(word));
  const terms = [...new Set(words)].slice(0, maxTerms);
  return { terms: terms.length ? terms : [...new Set(question.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean))].slice(0, maxTerms), identifiers: [...identifiers] };
}
