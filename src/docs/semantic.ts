// Ranking by meaning for docs search, through the one semantic component (src/semantic): question words are mapped to
// related words of the package's own names and titles (`sort` → order, `hide` → hidden), and passages are compared to
// the question as whole texts by the sentence encoder (the local transformer, or an embeddings endpoint).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { dotQuantized, quantize, type Embedder, type EmbedPriority, type QuantizedVector } from '../semantic/index.ts';
import { TermMatrix } from '../semantic/term-matrix.ts';
import type { Logger } from '../log.ts';
import { headOf } from '../text-cut.ts';
import { analyze } from './lexical.ts';
import type { PackageIndex } from './package-index.ts';
import type { IndexedPassage } from './rank.ts';
import type { PassageVectorStore } from './vector-store.ts';

/** Measured on the tuning set (docs/docs-search.md): thresholds and weights of the word-level expansion. */
export const EXPANSION = { minSimilarity: 0.5, weight: 0.3, perWord: 2 };
/** Passages embedded per background step, so a large package does not hold the event loop. */
const EMBED_BATCH = 64;
/**
 * Background passages sent to the encoder between two looks at the foreground (a first question being indexed): each
 * is a few ms of one core, so a first question that starts waits at most this many before the background yields.
 */
const YIELD_EVERY = 8;
/**
 * The fleet lease on embedding a package (docs_vector_leases): held for `seconds`, renewed after every batch (a batch is
 * about a second of one core), so one left by a process that died frees the package within `seconds`. A process that
 * finds the lease taken reads the store every `pollMs` for the vectors the holder saves.
 */
export const EMBED_LEASE = { seconds: 60, pollMs: 2000 };
/** Part of the stored vectors' model key: bump it when passageSummary changes, so vectors of another summary are not reused. */
const SUMMARY_VERSION = 1;
/** The key stored passage vectors are kept under: the encoder and the summary version they were made from. */
export const vectorModelKey = (encoderId: string) => `${encoderId}#summary${SUMMARY_VERSION}`;

interface SemanticState {
  /** The package's name vocabulary and its static-model vectors, searched for a question word's related names. */
  vocabulary?: Promise<TermMatrix>;
  /**
   * A question word's related names, found once per package: questions share most of their words, and the scan over
   * the package's vocabulary was a sixth of a docs answer's CPU under load. Bounded (RELATED_WORDS_KEPT), then cleared.
   */
  related: Map<string, Array<{ term: string; sim: number }>>;
  /** The encoder's vector of passage i (int8), once embedded. */
  vectors: Array<QuantizedVector | undefined>;
  background?: Promise<void>;
  /** Reading the package's stored vectors (once per package index). */
  restored?: Promise<void>;
  /** Every passage has its vector (embedded here or read from the store). */
  complete?: boolean;
}

/**
 * What a passage is about, in a few words: its name, its heading and its first sentence (code left out), cut code-point
 * safe (`headOf`): a plain slice could end inside a surrogate pair and hand the encoder a lone half character.
 */
export function passageSummary(p: Pick<IndexedPassage, 'title' | 'symbol' | 'headings' | 'content'>): string {
  const body = p.content.replace(/```[\s\S]*?```/g, ' ').replace(/\s+/g, ' ').trim();
  const first = /^.*?[.!?](\s|$)/.exec(body)?.[0] ?? headOf(body, 200);
  const name = (p.symbol ?? p.title ?? '').split(/::|\.|\//).pop() ?? '';
  return `${name.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')}. ${p.headings[p.headings.length - 1] ?? ''}. ${headOf(first, 300)}`;
}

/**
 * How an answer was ranked: `semantic` compared the question with the passages as whole texts (the sentence encoder);
 * `lexical` ranked by words (and the static model's related words) alone — the encoder is off or failed, or its queue
 * was past TOOLDEX_SEMANTIC_ENCODER_QUEUE, or its expected wait past TOOLDEX_SEMANTIC_ENCODER_WAIT_MS, when the question
 * came (back-pressure).
 */
export type RankingMode = 'semantic' | 'lexical';

export interface Meaning {
  ranking: RankingMode;
  related: Array<{ term: string; weight: number }>;
  /** Similarity of the question to passage i, for the passages compared (0 for the others). */
  similarity?: (doc: number) => number;
}

/** The event loop's busy share over windows of this length, and the share from which it counts as saturated. */
const LOOP_WINDOW_MS = 250;
const LOOP_SATURATED = 0.95;
/** While the loop is saturated, a question the encoder would start at once is still sent this often (a fresh measurement). */
const MEASURE_EVERY_MS = 1000;

/**
 * Whether this thread's event loop was saturated (busy ≥ 95 % of the last complete 250 ms window): requests are then
 * queueing for it, as at 32 concurrent clients (100 %); one client alone keeps it well under (36–86 % measured).
 */
function loopSaturation(): () => boolean {
  let mark = performance.eventLoopUtilization();
  let markedAt = performance.now();
  let saturated = false;
  return () => {
    const now = performance.now();
    if (now - markedAt >= LOOP_WINDOW_MS) {
      const current = performance.eventLoopUtilization();
      saturated = performance.eventLoopUtilization(current, mark).utilization >= LOOP_SATURATED;
      mark = current;
      markedAt = now;
    }
    return saturated;
  };
}

/** Question words whose related names a package keeps (a few hundred kB at most per package index). */
const RELATED_WORDS_KEPT = 4096;

/** Passages compared by meaning on every question: the best lexical candidates are embedded at once if need be. */
export const RERANK_DEPTH = 24;
/**
 * What a question's meaning pass could see beyond the RERANK_DEPTH word candidates: the cosine of every passage embedded
 * so far (NaN: no vector yet) and the word candidates compared. Round 18 judged comparing the nearest of them as well
 * (the fitter's `neighbours` candidate) and did not keep it (docs/docs-search.md, "Round 18").
 */
export interface NeighbourView {
  similarity: Float32Array; compared: readonly number[];
  /**
   * Round 19's probe: embeds the given passages now (those without a vector) and returns their cosine to the question, so
   * the fitter can judge comparing word candidates deeper than RERANK_DEPTH as if they had been embedded before ranking.
   */
  compare: (docs: readonly number[]) => Promise<Map<number, number>>;
}
let neighbourProbe: ((view: NeighbourView) => void) | undefined;
/**
 * For the ranking fitter (scripts/fit-docs-ranking.ts) only: hands it every question's full similarity view, so pools
 * asked once can be reranked offline under any number of neighbours. Unset (the service): no view is made.
 */
export function probeNeighbours(probe: ((view: NeighbourView) => void) | undefined): void { neighbourProbe = probe; }

/** Cosine of the question to every passage embedded so far (NaN where a passage has no vector yet). */
function similarityToAll(query: Float32Array, vectors: ReadonlyArray<QuantizedVector | undefined>): Float32Array {
  const all = new Float32Array(vectors.length).fill(Number.NaN);
  vectors.forEach((vector, doc) => { if (vector) all[doc] = dotQuantized(query, vector); });
  return all;
}

/**
 * The `count` passages of highest similarity outside `compared` (ties by passage order): one pass keeping the best few
 * in order (a question's `count` is a handful; sorting every passage of a 4,000-passage package cost it milliseconds).
 */
export function nearestOutside(all: Float32Array, compared: readonly number[], count: number): number[] {
  const taken = new Set(compared);
  const best: number[] = [];
  all.forEach((sim, doc) => {
    if (Number.isNaN(sim) || taken.has(doc) || (best.length >= count && sim <= all[best[best.length - 1]!]!)) return;
    let at = best.length;
    while (at > 0 && all[best[at - 1]!]! < sim) at--;
    best.splice(at, 0, doc);
    if (best.length > count) best.pop();
  });
  return best;
}

/**
 * Meaning for docs ranking from two encoders of the shared semantic component: `words` (the static model: a word in
 * microseconds) maps question words to related words of the package's names; `encoder` (the local transformer or an
 * endpoint: a text in milliseconds) compares the question with the best passages by words as whole texts. Passages
 * are embedded in the background per package, most important first, so later questions find their vectors ready;
 * the ones a question is about to be ranked on are embedded at once if the background has not reached them.
 */
export function createDocsSemantic(words: Embedder | null, encoder: Embedder | null, logger: Logger, stored?: PassageVectorStore,
  options: {
    owner?: string; lease?: typeof EMBED_LEASE; queueBound?: number; waitBoundMs?: number;
    /**
     * Waits while a first question's own work (ingestion, package index) is under way (src/docs/foreground.ts):
     * background embedding pauses between steps until it resolves. Questions' own embeddings never wait for it.
     */
    yieldTo?: () => Promise<void>;
    /** Whether a package's passages are still being written to the store (answered from memory until then). */
    unstored?: (index: PackageIndex) => boolean;
  } = {}) {
  const lease = options.lease ?? EMBED_LEASE;
  /** Back-pressure: questions waiting for the encoder past which a new question is ranked without it (0: no bound). */
  const queueBound = options.queueBound ?? 0;
  /** Back-pressure in time: the expected wait for the encoder past which a new question is ranked without it (0: none). */
  const waitBoundMs = options.waitBoundMs ?? 0;
  const busyLoop = loopSaturation();
  // A question the encoder would start at once waits only for its own model call; it passes the time bound only on a
  // starved machine (25–30 ms a question at load 15–20). It is still compared by meaning when the event loop has room
  // (one client, the quality bench: nothing else waits), but not when every request is queueing for the loop: there
  // each such question kept the encoder thread busy, whose CPU on a loaded 2-core machine comes out of the loop's
  // (docs/semantic.md, "Answers as soon as computed").
  // One such question a second is sent anyway: it keeps the measured time per question current, which nothing else
  // would while every question is ranked by words (a slow spell would otherwise hold the bound shut for good).
  let lastSent = performance.now();
  const overloaded = () => {
    if (queueBound > 0 && (encoder?.backlog?.() ?? 0) > queueBound) return true;
    if (waitBoundMs > 0 && (encoder?.expectedWaitMs?.() ?? 0) > waitBoundMs) {
      if (!encoder?.startsAtOnce?.()) return true;
      if (busyLoop() && performance.now() - lastSent < MEASURE_EVERY_MS) return true;
    }
    lastSent = performance.now();
    return false;
  };
  const states = new WeakMap<PackageIndex, SemanticState>();
  // Background embedding is an optimisation, not work a deploy must drain: close() stops it between batches.
  const running = new Set<Promise<void>>();
  let closed = false;
  const closing = new AbortController();
  /** This process, as the holder of embedding leases: its fleet instance id, so they are freed when it dies. */
  const owner = options.owner ?? randomUUID();
  const stateOf = (index: PackageIndex) => {
    let state = states.get(index);
    if (!state) { state = { vectors: new Array(index.passages.length), related: new Map() }; states.set(index, state); }
    return state;
  };
  const expands = words?.kind === 'static';
  const model = encoder ? vectorModelKey(encoder.id) : '';

  /** Fills the state from the store when another process (or this one, before a restart) embedded the package. */
  function restore(index: PackageIndex, state: SemanticState): Promise<void> {
    state.restored ??= (async () => {
      // A version whose passages are not stored yet can have no stored vectors (and the store is busy writing them).
      if (!stored || !encoder || options.unstored?.(index)) return;
      try {
        const vectors = await stored.load(index, model, encoder.dimensions);
        if (!vectors) return;
        vectors.forEach((vector, doc) => { state.vectors[doc] ??= vector; });
        state.complete = true;
      } catch (error) {
        logger.warn({ err: error, package: index.key }, 'stored passage vectors unreadable; embedding the package again');
      }
    })();
    return state.restored;
  }

  function vocabulary(index: PackageIndex, state: SemanticState) {
    // One embedding of the vocabulary per package, however many questions arrive while it is made.
    state.vocabulary ??= (async () => {
      const terms = index.lexical.nameVocabulary();
      return new TermMatrix(terms, await words!.embed(terms, 'passage'), words!.dimensions);
    })();
    state.vocabulary.catch(() => { state.vocabulary = undefined; });
    return state.vocabulary;
  }

  async function embedDocs(index: PackageIndex, state: SemanticState, docs: number[], priority: EmbedPriority): Promise<void> {
    const missing = docs.filter((doc) => !state.vectors[doc]);
    if (!missing.length) return;
    const vectors = await encoder!.embed(missing.map((doc) => passageSummary(index.passages[doc]!)), 'passage', priority);
    missing.forEach((doc, i) => { state.vectors[doc] = quantize(vectors[i]!); });
  }

  /**
   * Waits until this process holds the package's embedding lease (true), or another process has stored the vectors
   * (false, `state` filled from them). Without a store there is no fleet to share the work with.
   */
  async function takeTurn(index: PackageIndex, state: SemanticState): Promise<boolean> {
    if (!stored) return true;
    for (;;) {
      if (await stored.claim(index, model, owner, lease.seconds)) {
        // The holder may have saved the vectors and given the lease up between our last read and this claim.
        if (!await readStoredAgain(index, state)) return true;
        await stored.release(index, model, owner).catch(() => undefined);
        return false;
      }
      await sleep(lease.pollMs, undefined, { signal: closing.signal });
      if (await readStoredAgain(index, state)) return false;
    }
  }

  /** Reads the store again for the package's vectors (the holder may have saved them since): true when they are complete. */
  async function readStoredAgain(index: PackageIndex, state: SemanticState): Promise<boolean> {
    state.restored = undefined;
    await restore(index, state);
    return Boolean(state.complete);
  }

  function embedInBackground(index: PackageIndex, state: SemanticState): void {
    if (state.background) return;
    // Most important first (README, guides, entry-point API), so a package half-way through is useful.
    const order = index.passages.map((_, doc) => doc).sort((a, b) => index.passages[b]!.importance - index.passages[a]!.importance || a - b);
    let holding = false;
    state.background = (async () => {
      await restore(index, state);
      if (state.complete || !(holding = await takeTurn(index, state))) return;
      for (let i = 0; i < order.length && !closed; i += EMBED_BATCH) {
        for (let j = i; j < Math.min(i + EMBED_BATCH, order.length) && !closed; j += YIELD_EVERY) {
          // A first question on another version is downloading, parsing or storing: its cores come first.
          await options.yieldTo?.();
          await embedDocs(index, state, order.slice(j, Math.min(j + YIELD_EVERY, i + EMBED_BATCH)), 'background');
        }
        await stored?.claim(index, model, owner, lease.seconds); // renewed; lost only if this process stalled past it
      }
      if (closed || !state.vectors.every(Boolean)) return;
      state.complete = true;
      // Kept for other processes and restarts; failing to store them costs only embedding again later.
      await stored?.save(index, model, encoder!.dimensions, state.vectors as QuantizedVector[])
        .catch((error: unknown) => logger.warn({ err: error, package: index.key }, 'passage vectors not stored'));
    })().catch((error: unknown) => {
      if (closing.signal.aborted) return;
      logger.warn({ err: error, package: index.key }, 'docs passages not embedded; ranking by words only');
      state.background = undefined;
    }).finally(async () => {
      if (holding) await stored?.release(index, model, owner).catch(() => undefined); // else it expires
    });
    const work = state.background;
    running.add(work);
    void work.finally(() => running.delete(work));
  }

  async function relatedWords(index: PackageIndex, state: SemanticState, question: string) {
    const asked = [...new Set(analyze(question, false))];
    const unseen = asked.filter((word) => !state.related.has(word));
    if (unseen.length) {
      const terms = await vocabulary(index, state);
      const wordVectors = await words!.embed(unseen, 'query');
      if (state.related.size + unseen.length > RELATED_WORDS_KEPT) state.related.clear();
      unseen.forEach((word, w) => state.related.set(word, terms.nearest(wordVectors[w]!, EXPANSION.perWord, EXPANSION.minSimilarity, word)));
    }
    const related = new Map<string, number>();
    for (const word of asked) {
      for (const { term, sim } of state.related.get(word) ?? []) related.set(term, Math.max(related.get(term) ?? 0, EXPANSION.weight * sim));
    }
    return [...related].map(([term, weight]) => ({ term, weight }));
  }

  return {
    enabled: Boolean(words || encoder),
    /** Whether questions are compared with passages as whole texts (a second, semantic ranking pass). */
    compares: Boolean(encoder),
    /**
     * Related words, and (with an encoder) similarities to the passages: `lexicalTop` are the passages the words
     * rank best, embedded now if the background has not reached them. Empty when semantic ranking is off or fails.
     */
    async meaning(index: PackageIndex, question: string, candidates: number[] | (() => number[]) = []): Promise<Meaning> {
      const state = stateOf(index);
      // The candidates cost a ranking pass of their own: made only when the question is compared by meaning.
      let top: number[] | undefined;
      const lexicalTop = () => (top ??= typeof candidates === 'function' ? candidates() : candidates);
      const meaning: Meaning = { ranking: 'lexical', related: [] };
      try {
        if (expands) meaning.related = await relatedWords(index, state, question);
        if (encoder) {
          await restore(index, state);
          embedInBackground(index, state);
          let query: Float32Array;
          if (overloaded()) {
            // The encoder is behind: rather than queue behind hundreds of milliseconds of questions, rank with what
            // needs no model call — a question already in the query-vector cache against passage vectors already
            // held (stored or embedded) — else by words alone, and say so.
            const known = encoder.known?.(question);
            if (!known || lexicalTop().some((doc) => !state.vectors[doc])) return meaning;
            query = known;
          } else {
            [query] = await Promise.all([
              encoder.embed([question], 'query').then((v) => v[0]!),
              embedDocs(index, state, lexicalTop(), 'now'),
            ]);
          }
          // Meaning reorders the candidates the words found; it does not add passages of its own. Adding the passages
          // closest in meaning (30 per question) was measured and dropped: it lost more answers than it found, the
          // bi-encoder's nearest neighbours in an API reference being mostly near-synonymous items (docs/docs-search.md).
          const sims = new Float32Array(index.passages.length);
          for (const doc of lexicalTop()) {
            const vector = state.vectors[doc];
            if (vector) sims[doc] = dotQuantized(query, vector);
          }
          if (neighbourProbe) {
            const seen = query;
            neighbourProbe({
              similarity: similarityToAll(query, state.vectors), compared: lexicalTop(),
              compare: async (docs) => {
                await embedDocs(index, state, [...docs], 'now');
                return new Map(docs.map((doc) => [doc, dotQuantized(seen, state.vectors[doc]!)]));
              },
            });
          }
          meaning.similarity = (doc) => sims[doc] ?? 0;
          meaning.ranking = 'semantic';
        }
      } catch (error) {
        logger.warn({ err: error }, 'semantic ranking unavailable for this question; ranking by words only');
        return { ranking: 'lexical', related: meaning.related };
      }
      return meaning;
    },
    /** Resolves when the background embedding under way is done (tests). */
    async idle(): Promise<void> {
      while (running.size) await Promise.allSettled([...running]);
    },
    /** Stops background embedding (after the batch in progress). */
    async close(): Promise<void> {
      closed = true;
      closing.abort();
      await Promise.allSettled([...running]);
    },
  };
}

export type DocsSemantic = ReturnType<typeof createDocsSemantic>;
