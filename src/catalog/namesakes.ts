// Namesakes: how many tools of the same ecosystem are named after a tool (`pytest-cov`, `tauri-plugin-fs`, `@vitest/ui`
// for pytest, tauri, vitest). A tool others build on and name themselves after is the one a person installs; a literal
// match of the query words in a lesser tool's name has none. Read from the catalog's names only (no list, no registry).
import type { Ecosystem } from './types.ts';

const VERSION_PART = /^v\d+$/;

/** A name's parts as namesakes compare them: lower case, npm scope and Go path dropped, split on `-`, `_` and `.`. */
export function nameParts(ecosystem: Ecosystem, name: string): { scope?: string; parts: string[] } {
  let base = name.toLowerCase();
  let scope: string | undefined;
  if (ecosystem === 'go') base = base.split('/').filter((part) => part && !VERSION_PART.test(part)).pop() ?? base;
  else if (base.startsWith('@') && base.includes('/')) [scope, base] = [base.slice(1, base.indexOf('/')), base.slice(base.indexOf('/') + 1)];
  return { scope, parts: base.split(/[-_.]+/).filter(Boolean) };
}

/**
 * Each tool's namesakes on a 0..1 scale within its ecosystem: log(1 + n) / log(1 + the ecosystem's largest n), where n
 * counts the other tools whose name begins with this tool's whole name as a word prefix (`serde` for `serde-json`,
 * `serde_with`) or whose npm scope is that name.
 */
export function namesakeShare(tools: ReadonlyArray<{ ecosystem: Ecosystem; name: string }>): Float32Array {
  const counts = new Map<string, number>();
  const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const keys = tools.map(({ ecosystem, name }) => {
    const { scope, parts } = nameParts(ecosystem, name);
    for (let k = 1; k < parts.length; k++) bump(`${ecosystem}:${parts.slice(0, k).join('-')}`);
    if (scope) bump(`${ecosystem}:${scope}`);
    return `${ecosystem}:${parts.join('-')}`;
  });
  const raw = keys.map((key) => counts.get(key) ?? 0);
  const most = new Map<Ecosystem, number>();
  tools.forEach(({ ecosystem }, doc) => most.set(ecosystem, Math.max(most.get(ecosystem) ?? 0, raw[doc]!)));
  return Float32Array.from(raw, (n, doc) => {
    const top = most.get(tools[doc]!.ecosystem)!;
    return top > 0 ? Math.log1p(n) / Math.log1p(top) : 0;
  });
}
