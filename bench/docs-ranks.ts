// `npm run bench:docs:ranks`: where the right passage stands in each ranking docs search combines, per ecosystem, on
// the tuning questions (BENCH_SET=heldout only to report, never to tune). Columns, as hit@3 counts:
//   words      the word ranking alone (BM25F, coverage, names, priors; no related words, no encoder)
//   meaning24  the sentence encoder's order of the words' 24 best candidates (what the fusion sees)
//   meaningAll the encoder's order of every passage of the package (candidates by meaning alone)
//   tooldex    what docs search answers (both fused)
//   best-of    a perfect judge that takes, per question, whichever of words and meaning24 ranks the answer higher:
//              the most that any fusion of these two signals could reach.
// It tells whether a weak figure is the fusion's fault (tooldex well under best-of) or the signals' (best-of low too).
// BENCH_HOME=dir reuses a store indexed by `npm run bench:docs` (else a fresh one is filled first, which takes minutes).
import fs from 'node:fs';
import os from 'node:os';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPackageIndexes, indexStamp } from '../src/docs/package-index.ts';
import { rankPassages } from '../src/docs/rank.ts';
import { getVersion } from '../src/docs/repository.ts';
import { RERANK_DEPTH, vectorModelKey } from '../src/docs/semantic.ts';
import { queryTerms } from '../src/docs/tokens.ts';
import { createPassageVectorStore } from '../src/docs/vector-store.ts';
import { createLogger } from '../src/log.ts';
import { dotQuantized } from '../src/semantic/index.ts';
import { loadTransformerEmbedder } from '../src/semantic/transformer-model.ts';
import { freshHome } from '../test/helpers/stores.ts';
import { benchGemFixture } from './docs-artifacts.ts';
import { answers, loadQuestions, type Answer } from './docs-questions.ts';

const set = process.env.BENCH_SET === 'heldout' ? 'heldout' : 'tuning';
const questions = loadQuestions(`docs-${set}.tsv`, set);
const gems = await benchGemFixture();
const home = process.env.BENCH_HOME ?? await freshHome();
if (!fs.existsSync(home)) fs.cpSync(await freshHome(), home, { recursive: true });
const config = loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', ...(gems ? { TOOLDEX_RUBYGEMS_URL: gems.url } : {}) }, {});
const app = await createApp(config, createLogger('warn'));
const encoder = await loadTransformerEmbedder(config.TOOLDEX_SEMANTIC_ENCODER_DIR);
const indexes = createPackageIndexes(app.store);
const vectorStore = createPassageVectorStore(app.store);

/** 1-based position of the first answering doc in `order`, 0 when absent. */
const positionIn = (order: number[], answering: Set<number>) => order.findIndex((doc) => answering.has(doc)) + 1;
const COLUMNS = ['words', 'meaning24', 'meaningAll', 'tooldex', 'best-of'] as const;
const tally = new Map<string, Record<(typeof COLUMNS)[number] | 'n', number>>();

for (const q of questions.filter((question) => question.ecosystem !== 'rubygems' || gems)) {
  const result = await app.docs.search(q.tool, q.question, { limit: 10 });
  await app.docs.idle(); // every passage embedded and its vectors stored
  const row = (await getVersion(app.store, result.slug, result.version))!;
  const index = await indexes.get(result.slug, result.version, indexStamp(row));
  const vectors = await vectorStore.load(index, vectorModelKey(encoder.id), encoder.dimensions);
  if (!vectors) throw new Error(`no stored vectors for ${index.key}`);
  const answering = new Set(index.passages.flatMap((p, doc) => (answers(p, q.expect) ? [doc] : [])));
  const [query] = await encoder.embed([q.question], 'query');
  const similarity = vectors.map((vector) => dotQuantized(query!, vector));
  const byMeaning = (docs: number[]) => [...docs].sort((a, b) => similarity[b]! - similarity[a]! || a - b);
  const words = rankPassages(index.passages, index.lexical, q.question, { limit: 60, identifiers: queryTerms(q.question).identifiers }).map((p) => p.doc);
  const ranks = {
    words: positionIn(words, answering),
    meaning24: positionIn(byMeaning(words.slice(0, RERANK_DEPTH)), answering),
    meaningAll: positionIn(byMeaning(index.passages.map((_, doc) => doc)), answering),
    tooldex: result.results.findIndex((r) => answers(r as Answer, q.expect)) + 1,
  };
  const within3 = (rank: number) => (rank >= 1 && rank <= 3 ? 1 : 0);
  for (const key of [q.ecosystem, 'all']) {
    const counts = tally.get(key) ?? { n: 0, words: 0, meaning24: 0, meaningAll: 0, tooldex: 0, 'best-of': 0 };
    counts.n++;
    for (const column of ['words', 'meaning24', 'meaningAll', 'tooldex'] as const) counts[column] += within3(ranks[column]);
    counts['best-of'] += Math.max(within3(ranks.words), within3(ranks.meaning24));
    tally.set(key, counts);
  }
  if (process.env.BENCH_VERBOSE && !within3(ranks.tooldex)) console.error(`  ${q.tool} "${q.question}" ${JSON.stringify(ranks)} (${answering.size} answering passages)`);
}
await app.close();
await gems?.close();
if (!process.env.BENCH_HOME) fs.rmSync(home, { recursive: true, force: true });

console.log(`docs ranks ${new Date().toISOString().slice(0, 10)} [${set}]: hit@3 counts of each ranking (encoder ${encoder.id})`);
console.log(`${'ecosystem'.padEnd(10)} ${'n'.padStart(4)} ${COLUMNS.map((c) => c.padStart(11)).join('')}`);
for (const ecosystem of ['npm', 'pypi', 'crates', 'go', 'rubygems', 'all']) {
  const counts = tally.get(ecosystem);
  if (!counts) continue;
  console.log(`${ecosystem.padEnd(10)} ${String(counts.n).padStart(4)} ${COLUMNS.map((c) => `${counts[c]} ${(counts[c] / counts.n).toFixed(2)}`.padStart(11)).join('')}`);
}
console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}`);
