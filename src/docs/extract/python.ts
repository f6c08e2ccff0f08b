// apiFromPython: module, class and function docstrings of a Python source file, one passage per public symbol.
// Reads text only; nothing is imported or run.
import type { LocateFn, PassageDraft } from './types.ts';

const DEF = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z]\w*)\s*([(:])/;

function docstringAt(lines: string[], index: number): { text: string; end: number } | undefined {
  let i = index;
  while (i < lines.length && !lines[i]!.trim()) i++;
  const first = lines[i];
  const open = first ? /^\s*[rRuUbB]?("""|''')/.exec(first) : null;
  if (!first || !open) return undefined;
  const quote = open[1]!;
  const rest = first.slice(first.indexOf(quote) + 3);
  if (rest.includes(quote)) return { text: rest.slice(0, rest.indexOf(quote)).trim(), end: i };
  const body = [rest];
  for (let j = i + 1; j < lines.length && j < i + 400; j++) {
    const line = lines[j]!;
    if (line.includes(quote)) {
      body.push(line.slice(0, line.indexOf(quote)));
      return { text: dedentDoc(body), end: j };
    }
    body.push(line);
  }
  return undefined;
}

function dedentDoc(lines: string[]): string {
  const rest = lines.slice(1).filter((l) => l.trim());
  const cut = rest.length ? Math.min(...rest.map((l) => (/^(\s*)/.exec(l)?.[1] ?? '').length)) : 0;
  return [lines[0]!.trim(), ...lines.slice(1).map((l) => l.slice(cut))].join('\n').trim();
}

export function apiFromPython(text: string, options: { source: string; module: string; locate: LocateFn }): PassageDraft[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const passages: PassageDraft[] = [];
  const moduleDoc = docstringAt(lines.map((l) => (/^\s*#/.test(l) ? '' : l)), 0);
  if (moduleDoc && moduleDoc.text.length > 40) {
    passages.push({ url: options.locate({ line: 1 }), title: options.module, headings: [options.module], content: moduleDoc.text, source: options.source, identifiers: [options.module.toLowerCase()] });
  }
  const classes: Array<{ indent: number; name: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const match = DEF.exec(lines[i]!);
    if (!match) continue;
    const indent = match[1]!.length;
    while (classes.length && classes[classes.length - 1]!.indent >= indent) classes.pop();
    const [, , kind, name] = match;
    const owner = classes[classes.length - 1];
    if (kind === 'class') classes.push({ indent, name: name! });
    if (name!.startsWith('_') || (owner && owner.name.startsWith('_'))) continue;
    if (indent > 0 && !owner) continue; // nested helper functions are not public API
    let end = i;
    while (end < lines.length - 1 && !/:\s*(#.*)?$/.test(lines[end]!) && end - i < 30) end++;
    const signature = lines.slice(i, end + 1).map((l) => l.trim()).join(' ').replace(/:\s*(#.*)?$/, '');
    const doc = docstringAt(lines, end + 1);
    if (!doc) continue;
    const qualified = owner ? `${owner.name}.${name}` : name!;
    passages.push({
      url: options.locate({ line: i + 1, anchor: qualified }),
      title: `${options.module}.${qualified}`,
      headings: [options.module, qualified],
      content: `\`\`\`python\n${signature}\n\`\`\`\n\n${doc.text}`,
      source: options.source,
      identifiers: [qualified.toLowerCase(), name!.toLowerCase()],
    });
  }
  return passages;
}
