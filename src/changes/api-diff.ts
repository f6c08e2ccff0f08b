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

export type ChangeKind = 'removed' | 'added' | 'moved' | 'signature' | 'deprecated';

export interface ApiChange {
  kind: ChangeKind;
  symbol: string;
  /** The item in the older version (absent for an addition). */
  from?: Omit<ApiItem, 'symbol'>;
  /** The item in the newer version (absent for a removal). */
  to?: Omit<ApiItem, 'symbol'>;
  /** For a move: the item's path in the older version. */
  movedFrom?: string;
}

export interface ApiDiff {
  removed: ApiChange[];
  added: ApiChange[];
  /**
   * Items whose path changed but not their declaration: the same name and signature at a new path (a legacy namespace
   * such as a `v1`/`v3` compatibility module, a module re-organisation). Not counted as removed or added.
   */
  moved: ApiChange[];
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
  const diff: ApiDiff = { removed: [], added: [], moved: [], signature: [], deprecated: [], unchanged: 0 };
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
  pairMoves(diff);
  const bySymbol = (a: ApiChange, b: ApiChange) => a.symbol.localeCompare(b.symbol);
  for (const list of [diff.removed, diff.added, diff.moved, diff.signature, diff.deprecated]) list.sort(bySymbol);
  return diff;
}

/** The last segment of a symbol path: what stays when an item changes module. */
const nameOf = (symbol: string) => symbol.split(/::|\.|#|\//).filter(Boolean).pop() ?? symbol;

/**
 * A removal and an addition with the same name and the same declaration are one item that moved, when that pairing is
 * unambiguous (exactly one candidate on each side): a rename or a changed signature stays a removal and an addition.
 */
function pairMoves(diff: ApiDiff): void {
  const keyOfChange = (change: ApiChange, side: 'from' | 'to') => {
    const signature = change[side]?.signature;
    return signature ? `${nameOf(change.symbol)}\u0000${normalizeSignature(signature)}` : undefined;
  };
  const group = (changes: ApiChange[], side: 'from' | 'to') => {
    const groups = new Map<string, ApiChange[]>();
    for (const change of changes) {
      const key = keyOfChange(change, side);
      if (key) groups.set(key, [...(groups.get(key) ?? []), change]);
    }
    return groups;
  };
  const removed = group(diff.removed, 'from');
  const added = group(diff.added, 'to');
  const paired = new Set<ApiChange>();
  for (const [key, olds] of removed) {
    const news = added.get(key);
    if (olds.length !== 1 || news?.length !== 1) continue;
    const [old, next] = [olds[0]!, news[0]!];
    diff.moved.push({ kind: 'moved', symbol: next.symbol, from: { ...old.from!, summary: old.from!.summary }, to: next.to, movedFrom: old.symbol });
    paired.add(old).add(next);
  }
  diff.removed = diff.removed.filter((c) => !paired.has(c));
  diff.added = diff.added.filter((c) => !paired.has(c));
}
