// apiFromRust: `//!` module docs (chunked as Markdown) and `///` item docs with their signatures from a Rust file.
import { chunkByHeadings } from './markdown.ts';
import type { LocateFn, PassageDraft } from './types.ts';

const ITEM = /^\s*pub(?:\([^)]*\))?\s+(?:async\s+|const\s+|unsafe\s+|extern\s+"[^"]*"\s+)*(fn|struct|enum|trait|type|const|static|mod|union)\s+([A-Za-z_]\w*)/;
const MACRO = /^\s*macro_rules!\s*([A-Za-z_]\w*)/;

export function apiFromRust(text: string, options: { source: string; module: string; locate: LocateFn }): PassageDraft[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const passages: PassageDraft[] = [];
  const inner = lines.filter((l) => /^\s*\/\/!/.test(l)).map((l) => l.replace(/^\s*\/\/! ?/, ''));
  if (inner.join('').trim().length > 40) {
    passages.push(...chunkByHeadings(inner.join('\n'), { pageTitle: options.module, source: options.source, locate: options.locate }));
  }
  let doc: string[] = [];
  let implOf: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^impl\b/.test(line)) implOf = /^impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?([A-Za-z_]\w*)/.exec(line)?.[1];
    else if (/^\S/.test(line) && !/^(#|\/\/|})/.test(line)) implOf = undefined;
    if (/^\s*\/\/\/(?!\/)/.test(line)) { doc.push(line.replace(/^\s*\/\/\/ ?/, '')); continue; }
    if (/^\s*#\[/.test(line) || !line.trim()) continue; // attributes between docs and item
    const item = ITEM.exec(line);
    const macro = MACRO.exec(line);
    if ((item || macro) && doc.length) {
      const name = item?.[2] ?? `${macro![1]}!`;
      const qualified = implOf && /^\s+/.test(line) ? `${implOf}::${name}` : name;
      let signature = line.trim();
      for (let j = i + 1; j < lines.length && !/[{;]\s*$/.test(signature) && j - i < 12; j++) signature += ` ${lines[j]!.trim()}`;
      signature = signature.replace(/\s*\{\s*$/, '').replace(/\s+/g, ' ');
      passages.push({
        url: options.locate({ line: i + 1, anchor: qualified }),
        title: `${options.module}::${qualified}`,
        headings: [options.module, qualified],
        content: `\`\`\`rust\n${signature}\n\`\`\`\n\n${doc.join('\n').trim()}`,
        source: options.source,
        identifiers: [qualified.toLowerCase(), name.toLowerCase()],
      });
    }
    doc = [];
  }
  return passages;
}
