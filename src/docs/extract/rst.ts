// rstToMarkdown: just enough reStructuredText → Markdown for chunking: section titles become headings
// (levels in order of first appearance, as rst defines them) and literal/code blocks become fenced code.

const ADORNMENT = /^([=\-~^"'`#*+:.!_])\1{2,}\s*$/;

export function rstToMarkdown(rst: string): string {
  const lines = rst.replace(/\r\n?/g, '\n').split('\n');
  const levels: string[] = [];
  const out: string[] = [];
  const levelOf = (key: string) => {
    if (!levels.includes(key)) levels.push(key);
    return Math.min(6, levels.indexOf(key) + 1);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1] ?? '';
    const after = lines[i + 2] ?? '';
    // Overlined title: ===== / Title / =====
    if (ADORNMENT.test(line) && next.trim() && ADORNMENT.test(after) && after.trim()[0] === line.trim()[0]) {
      out.push(`${'#'.repeat(levelOf(`o${line.trim()[0]}`))} ${next.trim()}`);
      i += 2;
      continue;
    }
    if (line.trim() && !/^\s/.test(line) && ADORNMENT.test(next) && next.trim().length >= line.trim().length - 1) {
      out.push(`${'#'.repeat(levelOf(`u${next.trim()[0]}`))} ${line.trim()}`);
      i += 1;
      continue;
    }
    const directive = /^(\s*)\.\.\s+(code-block|code|sourcecode|doctest)::\s*(\S*)/.exec(line);
    const literal = !directive && /::\s*$/.test(line) && !/^\s*\.\./.test(line);
    if (directive || literal) {
      if (literal) out.push(line.replace(/::\s*$/, ':').replace(/^\s*:$/, ''));
      const indent = (directive?.[1] ?? /^(\s*)/.exec(line)?.[1] ?? '').length;
      const block: string[] = [];
      let j = i + 1;
      while (j < lines.length && /^\s*:\w[\w-]*:/.test(lines[j]!)) j++; // directive options
      for (; j < lines.length; j++) {
        const candidate = lines[j]!;
        if (candidate.trim() && (/^(\s*)/.exec(candidate)?.[1] ?? '').length <= indent) break;
        block.push(candidate);
      }
      const text = dedent(block).trim();
      if (text) {
        out.push('', `\`\`\`${directive?.[3] || (literal ? guessLanguage(text) : '')}`, text, '```', '');
        i = j - 1;
        continue;
      }
    }
    if (/^\s*>>>/.test(line)) {
      const block: string[] = [];
      let j = i;
      for (; j < lines.length && lines[j]!.trim(); j++) block.push(lines[j]!);
      out.push('```pycon', dedent(block), '```');
      i = j - 1;
      continue;
    }
    out.push(line.replace(/:(?:func|class|meth|attr|mod|data|obj|exc|ref|doc):`~?([^`<]+?)(?:\s*<[^>]+>)?`/g, '`$1`').replace(/``([^`]+)``/g, '`$1`'));
  }
  return out.join('\n');
}

function dedent(lines: string[]): string {
  const indents = lines.filter((l) => l.trim()).map((l) => (/^(\s*)/.exec(l)?.[1] ?? '').length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join('\n');
}

function guessLanguage(code: string): string {
  if (/^\s*(\$|pip |python -m)/m.test(code)) return 'shell';
  if (/^\s*(import |from \w+ import|def |class |print\()/m.test(code) || />>>/.test(code)) return 'python';
  return '';
}
