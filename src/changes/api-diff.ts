// The public API difference between two versions, from the items docs extraction found in each (the same extraction
// docs search answers from). Pure: two item lists in, the changes out.
//
// An item is keyed by its symbol path, not by its file: a declaration that moved to another file is not a removal
// and an addition. Signatures are compared with whitespace and trailing separators normalised, so re-formatting
// is not a change either.

export interface ApiItem {
  symbol: string;
  /** The declaration as the package writes it (first code block of its passage); null for items documented only in prose. */
  signature: string | null;
  deprecated: boolean;
  /** Where it is defined: the file inside the artifact and the URL a person opens. */
  source: string;
  url: string;
  /** The first sentence of its documentation, if any. */
  summary: string | null;
}

export type ChangeKind = 'removed' | 'added' | 'signature' | 'deprecated';

export interface ApiChange {
  kind: ChangeKind;
  symbol: string;
  /** The item in the older version (absent for an addition). */
  from?: Omit<ApiItem, 'symbol'>;
  /** The item in the newer version (absent for a removal). */
  to?: Omit<ApiItem, 'symbol'>;
}

export interface ApiDiff {
  removed: ApiChange[];
  added: ApiChange[];
  signature: ApiChange[];
  deprecated: ApiChange[];
  /** Items present in both versions with nothing changed. */
  unchanged: number;
}

/**
 * The key of an item across versions. Go majors live at another module path (`chi` → `chi/v5`) but keep their package
 * name, which is what Go symbols start with; everything else is compared as written, case included.
 */
const keyOf = (symbol: string) => symbol.trim();

const normalizeSignature = (signature: string) => signature
  .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ' ') // comments are not the signature
  .replace(/\s+/g, ' ')
  .replace(/\s*([(),:;<>{}[\]=|&?])\s*/g, '$1')
  .replace(/[,;]([)\]}>])/g, '$1')
  .trim();

const withoutSymbol = ({ symbol: _symbol, ...rest }: ApiItem) => rest;

export function diffApis(older: ApiItem[], newer: ApiItem[]): ApiDiff {
  const before = new Map(older.map((item) => [keyOf(item.symbol), item]));
  const after = new Map(newer.map((item) => [keyOf(item.symbol), item]));
  const diff: ApiDiff = { removed: [], added: [], signature: [], deprecated: [], unchanged: 0 };
  for (const [key, item] of before) {
    const next = after.get(key);
    if (!next) {
      diff.removed.push({ kind: 'removed', symbol: item.symbol, from: withoutSymbol(item) });
      continue;
    }
    let changed = false;
    if (item.signature && next.signature && normalizeSignature(item.signature) !== normalizeSignature(next.signature)) {
      diff.signature.push({ kind: 'signature', symbol: next.symbol, from: withoutSymbol(item), to: withoutSymbol(next) });
      changed = true;
    }
    if (!item.deprecated && next.deprecated) {
      diff.deprecated.push({ kind: 'deprecated', symbol: next.symbol, from: withoutSymbol(item), to: withoutSymbol(next) });
      changed = true;
    }
    if (!changed) diff.unchanged++;
  }
  for (const [key, item] of after) {
    if (!before.has(key)) diff.added.push({ kind: 'added', symbol: item.symbol, to: withoutSymbol(item) });
  }
  const bySymbol = (a: ApiChange, b: ApiChange) => a.symbol.localeCompare(b.symbol);
  for (const list of [diff.removed, diff.added, diff.signature, diff.deprecated]) list.sort(bySymbol);
  return diff;
}
