// Forward-chaining folds (round 14): the fresh run ranks a set written after every training set, so a held-out figure
// that predicts it fits on the sets written before the judged one, never on a later one (leave-one-set-out fits on
// later sets too). Sets are in round order as TRAINING_FILES lists them: tuning, held-out and r3 before r4, and so on.

/** Whether a query of `candidate`'s set may train the fold that judges `judged`: it was written before it. */
export function writtenBefore(order: readonly string[], candidate: string, judged: string): boolean {
  const at = order.indexOf(judged);
  const from = order.indexOf(candidate);
  if (at < 0) throw new Error(`forward-chaining: ${judged} is not in the round order (${order.join(', ')})`);
  if (from < 0) throw new Error(`forward-chaining: ${candidate} is not in the round order (${order.join(', ')})`);
  return from < at;
}

/** The mean over sets of a per-set figure: each writer's set counts once, as each fresh run does (not pooled by size). */
export function meanOverSets(values: readonly number[]): number {
  return values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : 0;
}

/**
 * A meaning pool (search-index.ts SEMANTIC_POOL), its label in a model row's name ('' for the shipped pool), and the
 * FIT_FROZEN_VARIANTS (0-based) it runs, when not every one.
 */
export interface PoolVariant { candidates: number; scanBelow: number; label: string; variants?: number[] }

/**
 * FIT_POOL_VARIANTS (round 16): `;`-separated cells `candidates x scanBelow` (`Inf`: scan for every query with a known
 * word), `-` for the shipped pool. A cell that is not two numbers is refused, not read as 0 (a pool of nothing).
 */
export function poolVariants(spec: string, shipped: { candidates: number; scanBelow: number }): PoolVariant[] {
  return spec.split(';').map((full) => {
    // `cell@0,2` (round 18): this pool runs only those FIT_FROZEN_VARIANTS (0-based), not every one, to spare machine time.
    const [cell = '', only] = full.split('@');
    const variants = only === undefined ? undefined : only.split(',').map((n) => {
      if (!/^\d+$/.test(n)) throw new Error(`FIT_POOL_VARIANTS: ${full}: after @ come the FIT_FROZEN_VARIANTS numbers to run (0,2)`);
      return Number(n);
    });
    if (cell === '-') return { ...shipped, label: '', ...(variants && { variants }) };
    const parts = cell.split('x').map((x) => (x === 'Inf' ? Infinity : x.trim() === '' ? NaN : Number(x)));
    const [candidates, scanBelow] = parts;
    if (parts.length !== 2 || !(candidates! >= 0 && scanBelow! >= 0)) throw new Error(`FIT_POOL_VARIANTS: ${cell} is not candidates x scanBelow (60x150, 60xInf)`);
    return { candidates: candidates!, scanBelow: scanBelow!, label: ` pool ${cell}`, ...(variants && { variants }) };
  });
}

/** Where FIT_LOSO_OUT puts the misses of the summary's n-th model row (0-based): the file itself, then file-2.tsv, … */
export function rowOutFile(file: string, n: number): string {
  return n === 0 ? file : file.replace(/(\.tsv)?$/, `-${n + 1}$1`);
}
