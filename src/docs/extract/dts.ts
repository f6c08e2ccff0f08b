// apiFromDeclarations: one passage per documented symbol of a TypeScript declaration file (.d.ts),
// its signature plus its JSDoc, qualified by the class/interface/namespace it sits in. Text only; nothing is run.
import type { LocateFn, PassageDraft } from './types.ts';

const MAX_SIGNATURE = 700;

interface Container { start: number; end: number; name: string }

/** Comments and string literals blanked out (same length), so braces inside them do not count. */
function mask(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g,
    (match) => match.replace(/[^\n]/g, ' '));
}

function containers(masked: string): Container[] {
  const found: Container[] = [];
  const opener = /\b(?:class|interface|namespace|module|enum)\s+([A-Za-z_$][\w$]*)[^{;=]*\{/g;
  for (const match of masked.matchAll(opener)) {
    const open = (match.index ?? 0) + match[0].length - 1;
    let depth = 0;
    let end = masked.length;
    for (let i = open; i < masked.length; i++) {
      if (masked[i] === '{') depth++;
      else if (masked[i] === '}' && --depth === 0) { end = i; break; }
    }
    found.push({ start: open, end, name: match[1]! });
  }
  return found;
}

/** The declaration after a doc comment: up to `;` or an opening `{` at bracket depth 0, single-spaced. */
function declarationAt(masked: string, text: string, from: number): string {
  let depth = 0;
  let i = from;
  for (; i < masked.length && i - from < MAX_SIGNATURE * 3; i++) {
    const c = masked[i];
    if (c === '(' || c === '<' || c === '[') depth++;
    else if (c === ')' || c === '>' || c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ';' || c === '{' || c === '}')) break;
    else if (depth === 0 && c === '\n' && /^\s*(\/\*\*|export\s|declare\s)/.test(masked.slice(i + 1, i + 40))) break;
  }
  const signature = text.slice(from, i).replace(/\s+/g, ' ').trim();
  return signature.length > MAX_SIGNATURE ? `${signature.slice(0, MAX_SIGNATURE)} …` : signature;
}

const NAME = /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:(?:function|class|interface|type|const|let|var|enum|namespace|module)\s+([A-Za-z_$][\w$]*)|(?:(?:public|protected|static|readonly|get|set|async)\s+)*([A-Za-z_$][\w$]*)\??\s*[(<:])/;

/** JSDoc body without the comment markers; @example blocks become fenced code. */
export function cleanJsDoc(comment: string): string {
  const lines = comment.replace(/^\/\*\*/, '').replace(/\*\/$/, '').split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').replace(/\s+$/, ''));
  const out: string[] = [];
  let inExample = false;
  const closeExample = () => {
    while (out[out.length - 1] === '') out.pop();
    if (out[out.length - 1] === '```ts') out.pop();
    else out.push('```');
    inExample = false;
  };
  for (const line of lines) {
    const tag = /^@(\w+)\s*(.*)$/.exec(line.trim());
    if (tag && inExample) closeExample();
    if (tag?.[1] === 'example') {
      inExample = true;
      out.push('', tag[2]?.startsWith('```') ? tag[2] : '```ts');
      if (tag[2] && !tag[2].startsWith('```')) out.push(tag[2]);
      continue;
    }
    if (inExample && line.startsWith('```')) continue; // the example brought its own fence
    out.push(line);
  }
  if (inExample) closeExample();
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

export function apiFromDeclarations(text: string, options: { source: string; pageTitle: string; locate: LocateFn; maxPassages?: number }): PassageDraft[] {
  const masked = mask(text);
  const scopes = containers(masked);
  const passages: PassageDraft[] = [];
  const lineStarts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (lineStarts[mid]! <= offset) lo = mid; else hi = mid - 1; }
    return lo + 1;
  };
  const documented = new Set<number>();
  const emit = (offset: number, doc: string) => {
    const signature = declarationAt(masked, text, offset);
    const name = NAME.exec(signature);
    const symbol = name?.[1] ?? name?.[2];
    if (!symbol || symbol.startsWith('_') || /\bprivate\b/.test(signature) || symbol === 'constructor' && !doc) return;
    const scope = scopes.filter((c) => c.start < offset && offset < c.end).sort((a, b) => b.start - a.start)[0];
    const qualified = scope && scope.name !== symbol ? `${scope.name}.${symbol}` : symbol;
    const content = `\`\`\`ts\n${signature}\n\`\`\`${doc ? `\n\n${doc}` : ''}`;
    passages.push({
      url: options.locate({ line: lineAt(offset), anchor: qualified }),
      title: qualified,
      headings: [options.pageTitle, qualified],
      content,
      source: options.source,
      identifiers: [...new Set([qualified.toLowerCase(), symbol.toLowerCase()])],
    });
  };
  for (const match of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    if (options.maxPassages && passages.length >= options.maxPassages) break;
    const after = (match.index ?? 0) + match[0].length;
    const start = after + (/^\s*/.exec(text.slice(after))?.[0].length ?? 0);
    if (text.startsWith('/*', start)) continue; // a file or section comment followed by another comment
    const doc = cleanJsDoc(match[0]);
    if (!doc || /^@(internal|private|hidden)\b/m.test(doc)) continue;
    documented.add(start);
    emit(start, doc);
  }
  // Exported functions and classes without JSDoc still get their signature indexed.
  for (const match of masked.matchAll(/^export\s+(?:declare\s+)?(?:function|class)\s+[A-Za-z_$]/gm)) {
    if (options.maxPassages && passages.length >= options.maxPassages) break;
    if (!documented.has(match.index ?? -1)) emit(match.index ?? 0, '');
  }
  return passages;
}
