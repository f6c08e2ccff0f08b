// Where a parser failed, as a 1-based line: parsers report an offset, a line, or a message that names one.
export function lineAtOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < Math.min(offset, text.length); i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The line of a JSON.parse failure: Node 20 says "at position N", newer versions "(line L column C)". */
export function jsonErrorLine(text: string, error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const line = /line (\d+)/i.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/i.exec(message);
  return position ? lineAtOffset(text, Number(position[1])) : undefined;
}
