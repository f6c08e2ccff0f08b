// Admission for sandbox runs: one run at a time per session, at most `limit` runs at once overall,
// at most `maxQueue` waiting; beyond that a 503 with a Retry-After estimated from recent run times.
import { ToolDexError } from '../errors.ts';

export class RunQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly sessionTails = new Map<string, Promise<void>>();
  private pending = 0;
  private averageMs = 2000;

  constructor(private readonly limit: number, private readonly maxQueue: number) {}

  /** Sessions with a run in progress or waiting (never evicted). */
  readonly busy = new Set<string>();

  async run<T>(sessionKey: string, work: () => Promise<T>): Promise<T> {
    if (this.pending >= this.limit + this.maxQueue) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((this.pending - this.limit + 1) * this.averageMs) / this.limit / 1000));
      throw new ToolDexError('sandbox_busy', 503,
        `All ${this.limit} sandbox slots are busy and ${this.maxQueue} runs are already waiting; retry after ${retryAfterSeconds} s.`,
        { retryAfterSeconds });
    }
    this.pending++;
    this.busy.add(sessionKey);
    const previous = this.sessionTails.get(sessionKey) ?? Promise.resolve();
    let done!: () => void;
    const tail = new Promise<void>((resolve) => { done = resolve; });
    this.sessionTails.set(sessionKey, tail);
    try {
      await previous;
      await this.acquire();
      const started = Date.now();
      try {
        return await work();
      } finally {
        this.averageMs = this.averageMs * 0.8 + (Date.now() - started) * 0.2;
        this.release();
      }
    } finally {
      this.pending--;
      done();
      if (this.sessionTails.get(sessionKey) === tail) {
        this.sessionTails.delete(sessionKey);
        this.busy.delete(sessionKey);
      }
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => { this.running++; resolve(); }));
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}
