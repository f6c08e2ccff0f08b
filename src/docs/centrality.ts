// How central an API item is to its package: how many other passages of the package use its name in code
// (`session.add(`, `db.Where(`, `zap.String(`, `bail!(`, `::timeout(`). A package's docs and examples keep calling the
// API a person reaches for first, so a question that several items answer in words ("add a new row", "sort the
// results") should prefer the one the package itself uses most. Pure: passages in, one score in [0, 1] per passage.

interface Passage { content: string; symbol: string | null }

// A name used as code: called (`name(`, `name!(`, `name::<T>(`), or reached through a value or path (`.name`, `::name`).
const USE = /(?:\.|::)?([A-Za-z_][A-Za-z0-9_]*)(?=\s*(?:!?\(|::<))|(?:\.|::)([A-Za-z_][A-Za-z0-9_]*)/g;

/** Names a passage uses in code, once each. */
export function namesUsed(content: string): Set<string> {
  const names = new Set<string>();
  for (const match of content.matchAll(USE)) {
    const name = match[1] ?? match[2];
    if (name && name.length > 1) names.add(name);
  }
  return names;
}

const lastSegment = (symbol: string) => symbol.split(/::|\.|\//).pop()!.replace(/[!()]+$/, '');

/**
 * Per passage: log(1 + passages using its symbol's name) / log(1 + the most any symbol gets), 0 for passages without
 * a symbol. The passage's own text and passages about the same name do not count (a long doc does not vote for itself).
 */
export function centrality(passages: Passage[]): Float32Array {
  const users = new Map<string, number>();
  const ownNames = passages.map((p) => (p.symbol ? lastSegment(p.symbol) : null));
  passages.forEach((p, i) => {
    for (const name of namesUsed(p.content)) if (name !== ownNames[i]) users.set(name, (users.get(name) ?? 0) + 1);
  });
  let most = 0;
  const counts = ownNames.map((name) => {
    const n = name ? users.get(name) ?? 0 : 0;
    most = Math.max(most, n);
    return n;
  });
  const scores = new Float32Array(passages.length);
  if (!most) return scores;
  counts.forEach((n, i) => { scores[i] = Math.log1p(n) / Math.log1p(most); });
  return scores;
}
