// One worker thread that runs a docs task (extraction, a package index) off the event loop: started on first use,
// stopped after an idle spell (its memory goes back), and marked broken for the rest of the process when it cannot
// start or dies, so callers fall back to doing the work on their own thread. src/docs/extraction.ts and
// src/docs/index-parts.ts each keep one; a pending task keeps the process alive, an idle thread never does.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.ts';

export interface TaskThreadOptions {
  /** The worker's module (an .mjs that loads its TypeScript through tsx). */
  url: URL;
  /** How long the thread may sit idle before it stops (read each time: tests and the service set it). */
  idleMs: () => number;
  /** Whether the thread may be used at all (tests turn it off); always when absent. */
  enabled?: () => boolean;
  /** Logged when the thread is unavailable or stops: what callers do instead. */
  fallback: string;
}

export class TaskThread<Request extends object, Result> {
  private worker: Worker | undefined;
  private broken = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(result: Result): void; reject(error: Error): void }>();

  constructor(private readonly options: TaskThreadOptions) {}

  /** Whether the thread is running now (tests, memory reports). */
  get running(): boolean {
    return Boolean(this.worker);
  }

  /** Starts the thread if it can run (no task yet): its code loads while the caller downloads what it will send. */
  warm(logger?: Logger, message?: object): void {
    const thread = this.start(logger);
    if (message) thread?.postMessage(message);
    if (thread && !this.pending.size) this.stopWhenIdle(thread);
  }

  /**
   * Runs one task on the thread and resolves with its result; undefined when there is no thread (disabled, or broken),
   * so the caller does the work itself. A task that fails on the thread rejects: the caller decides whether to retry.
   */
  run(request: Request, transfer: ArrayBuffer[] = [], logger?: Logger): Promise<Result> | undefined {
    const thread = this.start(logger);
    if (!thread) return undefined;
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    return new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      thread.ref(); // a pending task keeps the process alive
      thread.postMessage({ ...request, id }, transfer);
    });
  }

  private start(logger?: Logger): Worker | undefined {
    if (this.broken || (this.options.enabled && !this.options.enabled())) return undefined;
    if (this.worker) return this.worker;
    try {
      const started = new Worker(this.options.url);
      started.unref(); // an idle thread never keeps the process alive
      started.on('message', (message: { id: number; result?: Result; error?: string }) => {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (!this.pending.size) {
          started.unref();
          this.stopWhenIdle(started);
        }
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.result!);
      });
      const fail = (error: Error) => {
        logger?.warn({ err: error }, `${this.options.fallback} (the thread stopped)`);
        this.broken = true;
        this.worker = undefined;
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      };
      started.on('error', fail);
      started.on('exit', (code) => { if (this.worker === started) fail(new Error(`thread exited with ${code}`)); });
      this.worker = started;
      return started;
    } catch (error) {
      logger?.warn({ err: error }, `${this.options.fallback} (the thread is unavailable)`);
      this.broken = true;
      return undefined;
    }
  }

  /** Stops the thread if it is still idle after idleMs. */
  private stopWhenIdle(thread: Worker): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size || this.worker !== thread) return;
      this.worker = undefined; // before terminating: the exit handler then knows it was stopped, not broken
      void thread.terminate();
    }, this.options.idleMs()).unref();
  }
}
