// Ranking by meaning for docs search, through the one semantic component (src/semantic): question words are mapped to
// related words of the package's own names and titles (`sort` → order, `hide` → hidden), and, with an embeddings
// endpoint, passages are compared to the question as whole texts (vectors computed in the background per package).
import type { Embedder } from '../semantic/index.ts';
import type { Logger } from '../log.ts';
import { analyze } from './lexical.ts';
import type { PackageIndex } from './package-index.ts';
import type { IndexedPassage } from './rank.ts';

/** Measured on the tuning set (docs/docs-search.md): thresholds and weights of the word-level expansion. */
export const EXPANSION = { minSimilarity: 0.5, weight: 0.3, perWord: 2 };
/** Passages embedded per background step, so a large package does not hold the event loop. */
const EMBED_BATCH = 64;

interface SemanticState {
  vocabulary?: { terms: string[]; vectors: Float32Array[] };
  passages?: Float32Array[];
  embedding?: Promise<void>;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** What a passage is about, in a few words: its name, its heading and its first sentence (code left out). */
export function passageSummary(p: Pick<IndexedPassage, 'title' | 'symbol' | 'headings' | 'content'>): string {
  const body = p.content.replace(/```[\s\S]*?```/g, ' ').replace(/\s+/g, ' ').trim();
  const first = /^.*?[.!?](\s|$)/.exec(body)?.[0] ?? body.slice(0, 200);
  const name = (p.symbol ?? p.title ?? '').split(/::|\.|\//).pop() ?? '';
  return `${name.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')}. ${p.headings[p.headings.length - 1] ?? ''}. ${first.slice(0, 300)}`;
}

export interface Meaning {
  related: Array<{ term: string; weight: number }>;
  /** Similarity of the question to passage i, when the package's passage vectors are ready. */
  similarity?: (doc: number) => number;
  candidates?: number[];
}

export function createDocsSemantic(embedder: Embedder | null, logger: Logger, track: (work: Promise<unknown>) => void) {
  const states = new WeakMap<PackageIndex, SemanticState>();
  const stateOf = (index: PackageIndex) => {
    let state = states.get(index);
    if (!state) { state = {}; states.set(index, state); }
    return state;
  };
  // A local static model embeds a word in microseconds: word-level expansion is done inline. An endpoint is too slow
  // for that, but its sentence vectors are good: passages are embedded once in the background and compared whole.
  const expands = embedder?.kind === 'static';
  const comparesPassages = embedder?.kind === 'remote';

  async function vocabulary(index: PackageIndex, state: SemanticState) {
    if (!state.vocabulary) {
      const terms = index.lexical.nameVocabulary();
      state.vocabulary = { terms, vectors: await embedder!.embed(terms, 'passage') };
    }
    return state.vocabulary;
  }

  function embedPassages(index: PackageIndex, state: SemanticState): void {
    if (state.embedding || state.passages) return;
    state.embedding = (async () => {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < index.passages.length; i += EMBED_BATCH) {
        vectors.push(...await embedder!.embed(index.passages.slice(i, i + EMBED_BATCH).map(passageSummary), 'passage'));
        await new Promise((resolve) => setImmediate(resolve));
      }
      state.passages = vectors;
    })().catch((error: unknown) => {
      logger.warn({ err: error, package: index.key }, 'docs passages not embedded; ranking by words only');
    }).finally(() => { state.embedding = undefined; });
    track(state.embedding);
  }

  return {
    enabled: Boolean(embedder),
    /** Related words and (when ready) passage similarities for a question; empty when semantic ranking is off or fails. */
    async meaning(index: PackageIndex, question: string): Promise<Meaning> {
      if (!embedder) return { related: [] };
      const state = stateOf(index);
      const meaning: Meaning = { related: [] };
      try {
        if (expands) {
          const { terms, vectors } = await vocabulary(index, state);
          const words = [...new Set(analyze(question, false))];
          const wordVectors = await embedder.embed(words, 'query');
          const related = new Map<string, number>();
          words.forEach((word, w) => {
            const best: Array<{ term: string; sim: number }> = [];
            terms.forEach((term, t) => {
              if (term === word) return;
              const sim = dot(wordVectors[w]!, vectors[t]!);
              if (sim < EXPANSION.minSimilarity) return;
              best.push({ term, sim });
              best.sort((a, b) => b.sim - a.sim);
              if (best.length > EXPANSION.perWord) best.pop();
            });
            for (const { term, sim } of best) related.set(term, Math.max(related.get(term) ?? 0, EXPANSION.weight * sim));
          });
          meaning.related = [...related].map(([term, weight]) => ({ term, weight }));
        }
        if (comparesPassages) {
          if (!state.passages) embedPassages(index, state);
          const passages = state.passages;
          if (passages) {
            const [query] = await embedder.embed([question], 'query');
            const sims = passages.map((v) => dot(v, query!));
            meaning.similarity = (doc) => sims[doc] ?? 0;
            meaning.candidates = sims.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0]).slice(0, 30).map(([, i]) => i);
          }
        }
      } catch (error) {
        logger.warn({ err: error }, 'semantic ranking unavailable for this question; ranking by words only');
        return { related: [] };
      }
      return meaning;
    },
  };
}

export type DocsSemantic = ReturnType<typeof createDocsSemantic>;
