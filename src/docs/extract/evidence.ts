// What a passage offers a reader beyond a declaration: prose that explains, a code example. Shared by ranking (a
// passage that explains outranks a bare declaration) and by the coverage bench (an API item counts as covered only
// when a passage explains it).

/** Words of prose outside code fences and inline code (an inline code span counts as one word). */
function proseWords(content: string): number {
  const prose = content.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`[^`\n]*`/g, ' x ');
  return (prose.match(/[\p{L}\p{N}_]+/gu) ?? []).length;
}

/** A passage explains when it says something in prose beyond its code: at least three words outside code. */
export function hasExplanation(content: string): boolean {
  return proseWords(content) >= 3;
}
