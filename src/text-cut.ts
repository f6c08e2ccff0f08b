// cutText: the one way tooldex shortens stored text at a length (docs extraction, catalog descriptions). JavaScript
// strings are UTF-16, so `slice(0, n)` at a length can end between the two halves of a surrogate pair (an emoji, a CJK
// extension or mathematical letter) and leave a lone surrogate: the store turns it into U+FFFD (it is not valid UTF-8
// or JSON for PostgreSQL), so the reader sees a corrupted character. The cut here never ends inside a pair: it steps
// back one code unit instead.

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The first `max` UTF-16 units of `text` or fewer, never ending between the halves of a surrogate pair. */
export function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, Math.floor(max));
  if (end > 0 && isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end))) end--;
  return text.slice(0, end);
}

/**
 * `text` whole when it has at most `max` units; else its head (code-point safe, see `headOf`) and `marker`
 * (` …`, `\n…`): what extractors write when a signature, a summary or a code block is too long.
 */
export function cutText(text: string, max: number, marker = ' …'): string {
  return text.length > max ? `${headOf(text, max)}${marker}` : text;
}
