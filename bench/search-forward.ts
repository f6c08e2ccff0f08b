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
