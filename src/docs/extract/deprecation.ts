// Deprecation said in prose rather than with a tag: an item whose own doc says "This method is deprecated" or
// "Deprecated since 2.0, use X instead", and items a guide names as deprecated ("`CancelToken` is deprecated", a
// section headed "CancelToken 👎deprecated"). Such items are labelled deprecated and ranked down, as `@deprecated`
// and `#[deprecated]` items already are, so an agent is not steered to the retired way of doing something.
import type { PassageDraft } from './types.ts';

/** The importance a deprecated item loses (the same as a tagged `@deprecated` declaration). */
const DEPRECATED_DROP = 0.4;

/**
 * Sentences that say their subject is deprecated. Only the statements themselves ("X is deprecated", "Deprecated:",
 * "deprecated since/in favour of"), not the adjective about something else ("replaces the deprecated `foo` option").
 */
const STATEMENT = /(^|[.!?]\s+|\n\s*)(deprecated\b[\s:.,(]|(this|the)\s+\w+\s+(is|was|has\s+been)\s+(now\s+)?deprecated\b)|\b(is|are|has\s+been|have\s+been)\s+(now\s+)?deprecated\b|\bdeprecated\s+(since|as\s+of|in\s+favou?r\s+of)\b/i;

/** Prose outside code, where a statement about the item would be (not a string in an example). */
const proseOf = (content: string) => content.replace(/```[\s\S]*?(```|$)/g, ' ');

/** The first paragraph of an item's doc says the item is deprecated. */
export function docSaysDeprecated(content: string): boolean {
  const paragraphs = proseOf(content).split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  return paragraphs.slice(0, 2).some((p) => STATEMENT.test(p));
}

/** Code-like names (`CancelToken`, `axios.CancelToken`, `request_timeout`) a guide says are deprecated. */
export function namesSaidDeprecated(passage: Pick<PassageDraft, 'headings' | 'content' | 'deprecated'>): string[] {
  const names = new Set<string>();
  const codeLike = (word: string) => /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|_|\./.test(word) && word.length >= 4;
  if (passage.deprecated) {
    // A section its heading marks deprecated: the names its heading gives (`CancelToken 👎deprecated`).
    const heading = passage.headings[passage.headings.length - 1] ?? '';
    for (const word of heading.match(/[A-Za-z_$][\w$.]*/g) ?? []) if (codeLike(word)) names.add(word.split('.').pop()!);
  }
  // "`CancelToken` is deprecated", "The `timeout` option is deprecated": the code span right before the statement.
  for (const match of proseOf(passage.content).matchAll(/`([A-Za-z_$][\w$.]*)(?:\(\))?`(?:\s+\w+)?\s+(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?deprecated\b/gi)) {
    names.add(match[1]!.split('.').pop()!);
  }
  return [...names];
}

const segmentsOf = (symbol: string) => symbol.split(/::|\.|\//).slice(1);

/**
 * Labels deprecated what prose says is: API items whose own doc says so, and API items (and their members, and the
 * types named after them: `CancelTokenSource`, `cancelToken`) a guide section says are deprecated.
 */
export function labelDeprecatedInProse(passages: PassageDraft[]): PassageDraft[] {
  const named = new Set<string>();
  for (const p of passages) if (!p.symbol) for (const name of namesSaidDeprecated(p)) named.add(name);
  // The name itself (any case of its first letter: `cancelToken`), or a type named after it (`CancelToken` + `Source`).
  const matches = (segment: string, name: string): boolean => segment.slice(1) === name.slice(1) && segment[0]!.toLowerCase() === name[0]!.toLowerCase()
    || (segment.length > name.length && /^[A-Z]/.test(segment.charAt(name.length)) && matches(segment.slice(0, name.length), name));
  const namedByGuide = (symbol: string) => segmentsOf(symbol).some((s) => [...named].some((n) => matches(s, n)));
  return passages.map((p) => {
    if (!p.symbol || p.deprecated) return p;
    if (!docSaysDeprecated(p.content) && !(named.size && namedByGuide(p.symbol))) return p;
    return { ...p, deprecated: true, importance: (p.importance ?? 0.5) - DEPRECATED_DROP };
  });
}
