// Weak supervision for the docs ranking: pseudo-questions made from the STRUCTURE of many packages' docs, never from an
// evaluation question. Each pseudo-question is asked as the service asks a question (app.docs.search, limit 3, with
// `observe`), and its candidate pool is stored in the form scripts/fit-docs-ranking.ts reads (FIT_WEAK=<file>), which
// fits the ranking's word weights on these pools and judges the fit on every spent question set.
//   WEAK_OUT=/tmp/weak.json WEAK_HOME=/tmp/weak-home node --import tsx scripts/docs-weak-labels.ts
// Packages: the top-100 list per ecosystem of bench/docs-coverage-top100.md (the coverage bench's packages and versions),
// less every package any spent docs question set asks about (so no package is on both sides of the judgement) and less
// packages of more than WEAK_MAX_PASSAGES passages (their index takes minutes on this machine); then WEAK_PER_ECOSYSTEM
// of them per ecosystem by a seeded shuffle (WEAK_SEED): a fixed list, printed and written into the output.
// Pseudo-questions, three kinds (each answer = every passage with the source passage's de-duplication key, i.e. the
// section or item as the ranker counts it once):
//   heading  — a guide/README section's own heading (3+ words, the section has 20+ words of prose) → that section;
//   summary  — an API item's first sentence of prose with the item's own name taken out (4+ words left) → that item;
//   intro    — the sentence of prose that introduces a section's first code block ("To stream a response, pass …:")
//              → that section.
// The text of a pseudo-question is in its answer (a heading is its title, a summary its body): the word features see
// their own source, so the fitter's weak configs can hold the word-match features at their hand-set weights and fit the
// priors and evidence features only. Deterministic: fixed list, fixed seed, candidates in passage order.
import fs from 'node:fs';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { dedupKey, dedupKeyIndex, WEIGHTS, WORD_FEATURES, wordScore, type IndexedPassage, type RankPool } from '../src/docs/rank.ts';
import { createLogger } from '../src/log.ts';
import { freshHome } from '../test/helpers/stores.ts';
import { loadQuestions } from '../bench/docs-questions.ts';
import { pseudoQuestions, random, shuffled } from './docs-weak-questions.ts';

const SEED = Number(process.env.WEAK_SEED ?? 20);
const PER_ECOSYSTEM = Number(process.env.WEAK_PER_ECOSYSTEM ?? 12);
const PER_KIND = Number(process.env.WEAK_PER_KIND ?? 3);
const MAX_PASSAGES = Number(process.env.WEAK_MAX_PASSAGES ?? 1200);
const OUT = process.env.WEAK_OUT ?? path.join(process.cwd(), 'docs-weak-pools.json');
const ECOSYSTEMS = ['npm', 'pypi', 'crates', 'go'];
/** The spent docs sets, named one by one (the current and next rounds' fresh sets are never read). */
const SPENT = ['docs-tuning.tsv', 'docs-heldout.tsv', 'docs-fresh.tsv', 'docs-fresh-r4.tsv', 'docs-fresh-r5.tsv', 'docs-fresh-r6.tsv', 'docs-fresh-r7.tsv', 'docs-fresh-r8.tsv', 'docs-fresh-r9.tsv', 'docs-fresh-r10.tsv', 'docs-fresh-r11.tsv', 'docs-fresh-r12.tsv', 'docs-fresh-r13.tsv', 'docs-fresh-r14.tsv', 'docs-fresh-r15.tsv', 'docs-fresh-r16.tsv', 'docs-fresh-r17.tsv', 'docs-fresh-r18.tsv', 'docs-fresh-r19.tsv', 'docs-fresh-r20.tsv'];
/** Candidates whose near-duplicate pairs are stored (as the fitter stores them). */
const REACH_WORDS = 100;
const REACH_MEANING = 60;

/** The coverage report's packages: `eco:name`, version, passage count. */
function topPackages(): Array<{ tool: string; ecosystem: string; name: string; passages: number }> {
  const report = fs.readFileSync(path.join(import.meta.dirname, '../bench/docs-coverage-top100.md'), 'utf8');
  return report.split('\n').flatMap((line) => {
    const cells = line.split('|').map((c) => c.trim());
    const match = /^(npm|pypi|crates|go):(.+)$/.exec(cells[1] ?? '');
    if (!match || !cells[2] || !/^\d+$/.test(cells[3] ?? '')) return [];
    return [{ tool: `${cells[1]}@${cells[2]}`, ecosystem: match[1]!, name: cells[1]!, passages: Number(cells[3]) }];
  });
}

const spentPackages = new Set(SPENT.flatMap((file) => loadQuestions(file, 'tuning').map((q) => q.tool.slice(0, q.tool.lastIndexOf('@')))));

const next = random(SEED);
const eligible = topPackages().filter((p) => !spentPackages.has(p.name) && p.passages >= 5 && p.passages <= MAX_PASSAGES);
const chosen = ECOSYSTEMS.flatMap((e) => shuffled(eligible.filter((p) => p.ecosystem === e), next).slice(0, PER_ECOSYSTEM));
console.log(`packages (seed ${SEED}, ${PER_ECOSYSTEM} per ecosystem of ${eligible.length} eligible): ${chosen.map((p) => p.tool).join(' ')}`);

const dir = process.env.WEAK_HOME ?? await freshHome();
if (!fs.existsSync(dir)) fs.cpSync(await freshHome(), dir, { recursive: true });
const app = await createApp(loadConfig({ TOOLDEX_HOME: dir, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_DOCS_DEADLINE_MS: 600_000 }, {}), createLogger('warn'));
const pools: unknown[] = [];
const started = Date.now();
const write = () => fs.writeFileSync(OUT, JSON.stringify({ seed: SEED, packages: chosen.map((p) => p.tool), features: WORD_FEATURES, pools }));
for (const pkg of chosen) {
  let passages: readonly IndexedPassage[] = [];
  try {
    // Any question loads the package's index; the observed pool carries every passage of the package.
    await app.docs.search(pkg.tool, 'overview usage example', { limit: 3, observe: (pool) => { passages = pool.passages; } });
  } catch (error) {
    console.error(`  ${pkg.tool}: ${(error as Error).message}`);
    continue;
  }
  const questions = pseudoQuestions(passages, next, PER_KIND);
  for (const pseudo of questions) {
    let last: RankPool | undefined;
    await app.docs.search(pkg.tool, pseudo.question, { limit: 3, observe: (pool) => { last = pool; } }).catch(() => undefined);
    const pool = last;
    if (!pool) continue;
    const target = dedupKey(pool.passages[pseudo.doc]!);
    const answering = pool.rows.filter((r) => dedupKey(pool.passages[r.doc]!) === target).map((r) => r.doc);
    const byWords = [...pool.rows].sort((l, r) => wordScore(WEIGHTS, r.features) - wordScore(WEIGHTS, l.features) || l.doc - r.doc).slice(0, REACH_WORDS).map((r) => r.doc);
    const byMeaning = pool.rows.filter((r) => r.similarity).sort((l, r) => r.similarity! - l.similarity! || l.doc - r.doc).slice(0, REACH_MEANING).map((r) => r.doc);
    const reachable = [...new Set([...byWords, ...byMeaning, ...answering])];
    const { keys, keyNames } = dedupKeyIndex(pool.rows.map((r) => pool.passages[r.doc]!));
    const answered = pool.rerank(WEIGHTS).slice(0, 3).findIndex((r) => answering.includes(r.doc)) + 1;
    pools.push({
      tool: pkg.tool, ecosystem: pkg.ecosystem, question: pseudo.question, kind: pseudo.kind, semantic: pool.semantic,
      why: { extracted: true, pooled: answering.length > 0, answered, byWords: 0, byMeaning: 0, poolSize: pool.rows.length, above: [] },
      rows: pool.rows.map((r) => [r.doc, r.matched ? 1 : 0, r.similarity ?? null, ...WORD_FEATURES.map((f) => r.features[f])]),
      keys, keyNames, answering, reachable, near: pool.nearDuplicates(reachable),
    });
  }
  write();
  console.log(`  ${pkg.tool}: ${passages.length} passages, ${questions.length} pseudo-questions (${pools.length} in all, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
write();
// The pools are written: a store still embedding in the background may take long to close (a rerun hung here once), so
// the wait is bounded; process.exit below ends the rest.
await Promise.race([
  app.close().catch((error: Error) => console.error(`  the store did not close cleanly: ${error.message}`)),
  new Promise((resolve) => setTimeout(resolve, 30_000).unref()),
]);
const kinds = ['heading', 'summary', 'intro'].map((k) => `${k} ${(pools as Array<{ kind: string }>).filter((p) => p.kind === k).length}`).join(', ');
console.log(`wrote ${OUT}: ${pools.length} pseudo-questions (${kinds}) over ${chosen.length} packages`);
process.exit(0);
