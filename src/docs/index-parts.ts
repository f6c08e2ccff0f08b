// What a package index computes from its passages (src/docs/package-index.ts): each passage's centrality and whether it
// is a bare declaration, the word index (LexicalIndex) and the guide ↔ API links. For a large package that is seconds
// of CPU under load (kubernetes 4–9 s at load 12–17, round 18), and it ran on the event loop of the first question,
// so no other request was served meanwhile. A package of `INDEX_THREAD.minPassages` or more is now built on a thread of
// its own (not the extraction thread: a first question's index would wait behind the next package's extraction); the
// parts come back as plain data (the word index's buffers transferred) and are the ones the main thread would build.
import type { Logger } from '../log.ts';
import { centrality } from './centrality.ts';
import { hasExplanation } from './extract/evidence.ts';
import { LEXICAL, LexicalIndex, type LexicalData } from './lexical.ts';
import { linkPassages, type LinkablePassage, type PassageLinks } from './links.ts';
import { TaskThread } from './task-thread.ts';

/** The fields of a passage the index reads. */
export type IndexablePassage = LinkablePassage;

export interface IndexParts {
  centrality: Float32Array;
  bare: boolean[];
  lexical: LexicalIndex;
  links: PassageLinks[];
}

interface IndexPartsData { centrality: Float32Array; bare: boolean[]; lexical: LexicalData; links: PassageLinks[] }

const trailOf = (p: IndexablePassage) => p.headings.slice(0, -1).join(' ');

/** The parts of a package index, built on this thread. */
export function buildIndexParts(passages: IndexablePassage[]): IndexParts {
  const lexical = new LexicalIndex(passages.map((p) => ({
    title: `${p.title ?? ''} ${p.symbol && p.symbol !== p.title ? p.symbol : ''}`, trail: trailOf(p), body: p.content,
    name: p.symbol ? p.symbol.split(/::|\.|\//).pop() ?? '' : p.title ?? '',
  })));
  return {
    centrality: centrality(passages),
    bare: passages.map((p) => Boolean(p.symbol) && !hasExplanation(p.content)),
    lexical,
    links: linkPassages(passages),
  };
}

/** The parts as a thread sends them (the word index as data, its buffers to transfer). */
export function indexPartsData(passages: IndexablePassage[]): { data: IndexPartsData; transfer: ArrayBuffer[] } {
  const parts = buildIndexParts(passages);
  const lexical = parts.lexical.data();
  return {
    data: { centrality: parts.centrality, bare: parts.bare, lexical: lexical.data, links: parts.links },
    transfer: [parts.centrality.buffer as ArrayBuffer, ...lexical.transfer],
  };
}

/**
 * Below `minPassages` the index is built where it is asked for: a small package's build takes less than handing its
 * passages to the thread and back, and needs no thread started. `idleMs`: the thread stops after this long without a
 * build (its memory goes back; the next large package starts it again, ~0.1–0.5 s, beside its download). Tests set both.
 */
export const INDEX_THREAD = { minPassages: 400, idleMs: 60_000, enabled: true };

export interface IndexRequest {
  id: number;
  passages: IndexablePassage[];
  /** The word index's analysis settings of the asking thread (LEXICAL: a bench may change them). */
  lexical: typeof LEXICAL;
}

/** How many builds the thread has made (tests: whether a build went to the thread). */
export const indexThreadStats = { builds: 0 };

const thread = new TaskThread<Omit<IndexRequest, 'id'>, IndexPartsData>({
  url: new URL('./index-worker.mjs', import.meta.url), idleMs: () => INDEX_THREAD.idleMs, enabled: () => INDEX_THREAD.enabled,
  fallback: 'docs package indexes built on the main thread',
});

/** Whether the index thread is running now (tests). */
export const indexThreadRunning = () => thread.running;

/** Starts the thread (its code loaded) while a large package downloads and extracts, so its build does not wait for it. */
export function warmIndexThread(logger?: Logger): void {
  thread.warm(logger);
}

/** The parts of a package index: on the index thread for a large package, else (or if the thread fails) here. */
export async function indexParts(passages: IndexablePassage[], logger?: Logger): Promise<IndexParts> {
  if (passages.length < INDEX_THREAD.minPassages) return buildIndexParts(passages);
  try {
    // Only the fields the build reads are sent (not the stored identifiers, ids or vectors).
    const sent = passages.map((p): IndexablePassage => ({
      content: p.content, symbol: p.symbol, title: p.title, headings: p.headings, internal: p.internal, deprecated: p.deprecated,
      importance: p.importance, url: p.url,
    }));
    const running = thread.run({ passages: sent, lexical: { ...LEXICAL } }, [], logger);
    if (!running) return buildIndexParts(passages);
    const data = await running;
    indexThreadStats.builds++;
    return { centrality: data.centrality, bare: data.bare, lexical: new LexicalIndex(data.lexical), links: data.links };
  } catch (error) {
    logger?.warn({ err: error, passages: passages.length }, 'docs package index failed on its thread; building it on the main thread');
    return buildIndexParts(passages);
  }
}
