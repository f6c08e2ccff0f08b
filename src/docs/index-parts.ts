// What a package index computes from its passages (src/docs/package-index.ts): each passage's centrality and whether it
// is a bare declaration, the word index (LexicalIndex) and the guide ↔ API links. For a large package that is seconds
// of CPU under load (kubernetes 4–9 s at load 12–17, round 18), and it ran on the event loop of the first question,
// so no other request was served meanwhile. A package of `INDEX_THREAD.minPassages` or more is now built on a thread of
// its own (not the extraction thread: a first question's index would wait behind the next package's extraction); the
// parts come back as plain data (the word index's buffers transferred) and are the ones the main thread would build.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.ts';
import { centrality } from './centrality.ts';
import { hasExplanation } from './extract/evidence.ts';
import { LEXICAL, LexicalIndex, type LexicalData } from './lexical.ts';
import { linkPassages, type LinkablePassage, type PassageLinks } from './links.ts';

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

let worker: Worker | undefined;
let broken = false;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;
const pending = new Map<number, { resolve(result: IndexPartsData): void; reject(error: Error): void }>();
/** How many builds the thread has made (tests: whether a build went to the thread). */
export const indexThreadStats = { builds: 0 };

function stopWhenIdle(thread: Worker): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (pending.size || worker !== thread) return;
    worker = undefined;
    void thread.terminate();
  }, INDEX_THREAD.idleMs).unref();
}

/** Whether the index thread is running now (tests). */
export const indexThreadRunning = () => Boolean(worker);

function startWorker(logger?: Logger): Worker | undefined {
  if (broken || !INDEX_THREAD.enabled) return undefined;
  if (worker) return worker;
  try {
    const started = new Worker(new URL('./index-worker.mjs', import.meta.url));
    started.unref();
    started.on('message', (message: { id: number; result?: IndexPartsData; error?: string }) => {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (!pending.size) {
        started.unref();
        stopWhenIdle(started);
      }
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.result!);
    });
    const fail = (error: Error) => {
      logger?.warn({ err: error }, 'docs index thread stopped; building package indexes on the main thread');
      broken = true;
      worker = undefined;
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    };
    started.on('error', fail);
    started.on('exit', (code) => { if (worker === started) fail(new Error(`index thread exited with ${code}`)); });
    worker = started;
    stopWhenIdle(started);
    return started;
  } catch (error) {
    logger?.warn({ err: error }, 'docs index thread unavailable; building package indexes on the main thread');
    broken = true;
    return undefined;
  }
}

/** Starts the thread (its code loaded) while a large package downloads and extracts, so its build does not wait for it. */
export function warmIndexThread(logger?: Logger): void {
  const thread = startWorker(logger);
  if (thread && !pending.size) stopWhenIdle(thread);
}

/** The parts of a package index: on the index thread for a large package, else (or if the thread fails) here. */
export async function indexParts(passages: IndexablePassage[], logger?: Logger): Promise<IndexParts> {
  const thread = passages.length >= INDEX_THREAD.minPassages ? startWorker(logger) : undefined;
  if (!thread) return buildIndexParts(passages);
  const id = nextId++;
  clearTimeout(idleTimer);
  try {
    // Only the fields the build reads are sent (not the stored identifiers, ids or vectors).
    const sent = passages.map((p): IndexablePassage => ({
      content: p.content, symbol: p.symbol, title: p.title, headings: p.headings, internal: p.internal, deprecated: p.deprecated,
      importance: p.importance, url: p.url,
    }));
    const data = await new Promise<IndexPartsData>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      thread.ref(); // a pending build keeps the process alive
      thread.postMessage({ id, passages: sent, lexical: { ...LEXICAL } } satisfies IndexRequest);
    });
    indexThreadStats.builds++;
    return { centrality: data.centrality, bare: data.bare, lexical: new LexicalIndex(data.lexical), links: data.links };
  } catch (error) {
    logger?.warn({ err: error, passages: passages.length }, 'docs package index failed on its thread; building it on the main thread');
    return buildIndexParts(passages);
  }
}
