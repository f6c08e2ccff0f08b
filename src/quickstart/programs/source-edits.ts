// Rewrites of an example's source found on its syntax tree: byte ranges and their replacement text.

export interface SourceEdit { start: number; end: number; text: string }

/** The code with each edit's range replaced, applied last first so earlier offsets stay valid (ranges do not overlap). */
export function spliceEdits(code: string, edits: readonly SourceEdit[]): string {
  let out = code;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}
