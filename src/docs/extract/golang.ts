// apiFromGo: the package comment and the doc comments of exported identifiers of a Go source file.
import type { LocateFn, PassageDraft } from './types.ts';

const DECL = /^(?:func\s+(?:\(\s*\w*\s*\*?([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*)?|type\s+|var\s+|const\s+)([A-Z]\w*)/;

export function apiFromGo(text: string, options: { source: string; importPath: string; locate: LocateFn }): PassageDraft[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const passages: PassageDraft[] = [];
  let doc: string[] = [];
  let docStart = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('//')) {
      if (!doc.length) docStart = i + 1;
      doc.push(line.replace(/^\/\/ ?/, ''));
      continue;
    }
    if (/^package\s+\w+/.test(line) && doc.length && /^Package\s/.test(doc[0] ?? '')) {
      passages.push({
        url: options.locate({ line: docStart, anchor: 'pkg-overview' }), title: options.importPath, headings: [options.importPath, 'Overview'],
        content: doc.join('\n').trim(), source: options.source, identifiers: [],
      });
    }
    const decl = DECL.exec(line);
    if (decl && doc.length && !/^\s*Deprecated:/.test(doc[0] ?? '')) {
      const name = decl[1] ? `${decl[1]}.${decl[2]}` : decl[2]!;
      const signature = line.replace(/\s*\{\s*$/, '').trim();
      passages.push({
        url: options.locate({ line: i + 1, anchor: name }),
        title: name,
        headings: [options.importPath, name],
        content: `\`\`\`go\n${signature}\n\`\`\`\n\n${doc.join('\n').trim()}`,
        source: options.source,
        identifiers: [name.toLowerCase(), decl[2]!.toLowerCase()],
      });
    }
    doc = [];
  }
  return passages;
}
