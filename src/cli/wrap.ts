// Fitting text to the terminal for human output: prose wrapped at spaces, code broken only between tokens
// (continuation lines indented), URLs shortened in the middle. Pure: strings and a width in, lines out.

/** A URL that fits `max` characters: scheme dropped, then the middle of the path elided, host and tail kept. */
export function shortenUrl(url: string, max: number): string {
  if (url.length <= max) return url;
  const bare = url.replace(/^https?:\/\//, '');
  if (bare.length <= max) return bare;
  const slash = bare.indexOf('/');
  const host = slash < 0 ? bare : bare.slice(0, slash);
  const tailStart = bare.lastIndexOf('/');
  const tail = tailStart > slash ? bare.slice(tailStart) : '';
  const candidate = `${host}/…${tail}`;
  if (candidate.length <= max) return candidate;
  // Still too long (a long host or last segment): keep both ends of the whole thing.
  const keep = Math.max(1, max - 1);
  const head = Math.ceil(keep * 0.6);
  return `${bare.slice(0, head)}…${bare.slice(bare.length - (keep - head))}`;
}

/** Prose wrapped at spaces to `width`; a single word longer than the width is cut with an ellipsis. */
export function wrapProse(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const raw of text.split(/\s+/).filter(Boolean)) {
    const word = raw.length > width ? (/^https?:\/\//.test(raw) ? shortenUrl(raw, width) : `${raw.slice(0, width - 1)}…`) : raw;
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

// Where a line of code may break: after a space, a comma, an opening bracket, or before an arrow or operator.
const BREAK_AFTER = /[ ,([{]/;

/** A code line broken between tokens, continuation lines indented four more spaces than the line itself. */
export function wrapCode(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const continuation = `${indent}    `;
  const out: string[] = [];
  let rest = line;
  let prefix = '';
  while (prefix.length + rest.length > width) {
    const room = width - prefix.length;
    let cut = -1;
    for (let i = Math.min(room, rest.length) - 1; i > Math.floor(room / 3); i--) {
      if (BREAK_AFTER.test(rest[i]!)) {
        cut = i + 1;
        break;
      }
    }
    if (cut < 0) {
      // One token longer than the line: show its start rather than split it over lines.
      out.push(`${prefix}${rest.slice(0, room - 1)}…`);
      return out;
    }
    out.push(`${prefix}${rest.slice(0, cut).trimEnd()}`);
    rest = rest.slice(cut).trimStart();
    prefix = continuation;
  }
  out.push(`${prefix}${rest}`);
  return out;
}

/** Markdown-ish passage text fitted to `width`: fenced and indented code via wrapCode, the rest via wrapProse
 * (paragraph breaks and list items kept). */
export function fitPassage(text: string, width: number): string[] {
  const out: string[] = [];
  let inFence = false;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(...wrapProse(paragraph.join(' '), width));
    paragraph = [];
  };
  for (const line of text.replace(/\t/g, '    ').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      inFence = !inFence;
      out.push(...wrapCode(line, width));
    } else if (inFence || /^( {4}|\s*[|>])/.test(line)) {
      flush();
      out.push(...wrapCode(line, width));
    } else if (!line.trim()) {
      flush();
      if (out.length && out[out.length - 1] !== '') out.push('');
    } else if (/^\s*([-*+]|\d+[.)]|#+)\s/.test(line)) {
      // A list item or heading starts its own block; its continuation lines hang under its text.
      flush();
      const marker = /^\s*([-*+]|\d+[.)]|#+)\s+/.exec(line)?.[0] ?? '';
      const hang = ' '.repeat(marker.length);
      wrapProse(line.slice(marker.length), width - marker.length).forEach((part, i) => out.push(`${i === 0 ? marker : hang}${part}`));
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  while (out.length && out[out.length - 1] === '') out.pop();
  return out;
}
