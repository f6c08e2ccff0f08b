// Which of the fitter's candidate configs a FIT_CONFIGS / FIT_NESTED_CONFIGS list names (scripts/fit-docs-ranking.ts).
// Until round 16 a listed name matched every config it was a prefix of, so `search13 rrf` also ran `search13 rrf+evidence`
// and `fixed rrfK 1` would have run `fixed rrfK 15`: a run's rows were not the ones asked for. Names now match exactly; a
// name ending in `*` still matches as a prefix, for when that is what is meant. A name that matches nothing is an error,
// so a typo cannot silently drop a row from a comparison.

/** The configs `list` (comma-separated names) names, in the order of `all`; `all` itself when `list` is unset or empty. */
export function selectConfigs<T extends { name: string }>(all: T[], list: string | undefined): T[] {
  if (!list?.trim()) return all;
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  const matches = (name: string, config: T) => (name.endsWith('*') ? config.name.startsWith(name.slice(0, -1)) : config.name === name);
  const unknown = names.filter((name) => !all.some((config) => matches(name, config)));
  if (unknown.length) throw new Error(`no fitter config named ${unknown.map((n) => JSON.stringify(n)).join(', ')}`);
  return all.filter((config) => names.some((name) => matches(name, config)));
}
