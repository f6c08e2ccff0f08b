// What the shipped ranking trees cost a query: the in-memory search over the training queries, hybrid, with the shipped
// model and with its linear part alone, rounds alternating (CPU time per query; steadier than wall time on a shared
// machine). Also checks that the trees change only the order, not the candidates.
//   node --import tsx bench/search-trees-cost.ts
import os from 'node:os';
import { TREES } from '../src/catalog/rank.ts';
import { loadLabelledQueries, TRAINING_FILES } from './search-quality.ts';
import { loadHarness } from './search-harness.ts';

const ROUNDS = Number(process.env.COST_ROUNDS ?? 3);
const harness = await loadHarness();
const queries = TRAINING_FILES.flatMap((file) => loadLabelledQueries(file)).map((q) => q.query);
const vectors = new Map<string, Float32Array | undefined>();
for (const q of queries) vectors.set(q, await harness.embed(q));
const shipped = TREES.value;
console.log(`${queries.length} queries, ${shipped.length} trees shipped (load ${os.loadavg()[0]!.toFixed(1)})`);

const time = (trees: typeof shipped): number => {
  TREES.value = trees;
  const start = process.cpuUsage();
  for (const q of queries) harness.index.search(q, { limit: 10 }, vectors.get(q));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / queries.length;
};
const cost: Record<'with' | 'without', number[]> = { with: [], without: [] };
time(shipped); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  cost.without.push(time([]));
  cost.with.push(time(shipped));
}
TREES.value = shipped;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`CPU ms per query, median of ${ROUNDS}: linear ${median(cost.without).toFixed(3)}, with trees ${median(cost.with).toFixed(3)} `
  + `(rounds ${cost.without.map((x) => x.toFixed(2)).join('/')} vs ${cost.with.map((x) => x.toFixed(2)).join('/')}; load ${os.loadavg()[0]!.toFixed(1)})`);
