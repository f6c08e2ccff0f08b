// A version's public API items, read from its stored docs passages: one item per symbol, its declaration taken from
// the passage that opens with it. Internal items (private modules, underscored names) are not public API.
import type { Queryable } from '../store/types.ts';
import type { ApiItem } from './api-diff.ts';
import { foldedMembers } from './members.ts';

interface PassageRow { symbol: string; content: string; source: string; url: string; deprecated: boolean; internal: boolean }

/** Files whose passages document the package in prose (README, guides), not declarations. */
const PROSE_FILE = /\.(md|mdx|markdown|rst|txt)$/i;

const FIRST_CODE_BLOCK = /^\s*```[^\n]*\n([\s\S]*?)\n```/;

export function itemsFromPassages(rows: PassageRow[]): ApiItem[] {
  const items = new Map<string, ApiItem>();
  for (const row of rows) {
    if (row.internal || PROSE_FILE.test(row.source)) continue;
    const known = items.get(row.symbol);
    const code = FIRST_CODE_BLOCK.exec(row.content);
    if (known) {
      // Later passages of a long item continue it: they add a signature only if the first had none.
      known.signature ??= code ? code[1]!.trim() : null;
      known.deprecated ||= row.deprecated;
      continue;
    }
    const prose = (code ? row.content.slice(code[0].length) : row.content).trim();
    const sentence = prose ? /^[\s\S]*?[.!?](?=\s|$)|^[^\n]+/.exec(prose)?.[0].replace(/\s+/g, ' ').trim() ?? null : null;
    items.set(row.symbol, {
      symbol: row.symbol, signature: code ? code[1]!.trim() : null, deprecated: row.deprecated,
      source: row.source, url: row.url, summary: sentence,
    });
  }
  // Members folded into their class or interface become items of their own, unless extraction gave them one.
  for (const item of [...items.values()]) {
    if (!item.signature) continue;
    for (const member of foldedMembers(item.source, item.signature)) {
      const symbol = `${item.symbol}.${member.name}`;
      if (!items.has(symbol)) items.set(symbol, { ...item, symbol, signature: member.signature, summary: null });
    }
  }
  return [...items.values()];
}

export async function loadApiItems(db: Queryable, slug: string, version: string): Promise<ApiItem[]> {
  const rows = await db.query<PassageRow>(
    `select symbol, content, source, url, deprecated, internal from docs_passages
     where slug = $1 and version = $2 and symbol is not null order by ord`, [slug, version]);
  return itemsFromPassages(rows);
}
