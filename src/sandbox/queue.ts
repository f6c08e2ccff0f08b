// Admission for sandbox runs: one run at a time per session, at most `perOwner` runs of one owner at once, at most
// `limit` runs overall, at most `maxQueue` waiting; beyond that a 503 with a Retry-After estimated from recent run times.
import { ToolDexError } from '../errors.ts';

interface Waiter {
  owner: string;
  start: () => void;
}

export class RunQueue {
  private running = 0;
  private readonly runningByOwner = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private readonly sessionTails = new Map<string, Promise<void>>();
  private pending = 0;
  private averageMs = 2000;

  constructor(private readonly limit: number, private readonly maxQueue: number, private readonly perOwner: number) {}

  /** Sessions with a run in progress or waiting (never evicted). */
  readonly busy = new Set<string>();

  /** Runs `work` when admitted; `work` learns how long the call waited (the queueMs phase). */
  async run<T>(sessionKey: string, owner: string, work: (queueMs: number) => Promise<T>): Promise<T> {
    if (this.pending >= this.limit + this.maxQueue) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((this.pending - this.limit + 1) * this.averageMs) / this.limit / 1000));
      throw new ToolDexError('sandbox_busy', 503,
        `All ${this.limit} sandbox slots are busy and ${this.maxQueue} runs are already waiting; retry after ${retryAfterSeconds} s.`,
        { retryAfterSeconds });
    }
    const queued = Date.now();
    this.pending++;
    this.busy.add(sessionKey);
    const previous = this.sessionTails.get(sessionKey) ?? Promise.resolve();
    let done!: () => void;
    const tail = new Promise<void>((resolve) => { done = resolve; });
    this.sessionTails.set(sessionKey, tail);
    try {
      await previous;
      await this.acquire(owner);
      const started = Date.now();
      try {
        return await work(started - queued);
      } finally {
        this.averageMs = this.averageMs * 0.8 + (Date.now() - started) * 0.2;
        this.release(owner);
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

  private admissible(owner: string): boolean {
    return this.running < this.limit && (this.runningByOwner.get(owner) ?? 0) < this.perOwner;
  }

  private take(owner: string): void {
    this.running++;
    this.runningByOwner.set(owner, (this.runningByOwner.get(owner) ?? 0) + 1);
  }

  private acquire(owner: string): Promise<void> {
    // First come, first served among those allowed to start: an owner at its cap does not hold up anyone else.
    if (this.admissible(owner) && !this.waiting.some((waiter) => this.admissible(waiter.owner))) {
      this.take(owner);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push({ owner, start: resolve }));
  }

  private release(owner: string): void {
    this.running--;
    const left = (this.runningByOwner.get(owner) ?? 1) - 1;
    if (left > 0) this.runningByOwner.set(owner, left);
    else this.runningByOwner.delete(owner);
    for (let i = 0; i < this.waiting.length && this.running < this.limit; i++) {
      const waiter = this.waiting[i];
      if (waiter && this.admissible(waiter.owner)) {
        this.waiting.splice(i, 1);
        this.take(waiter.owner);
        waiter.start();
        i--;
      }
    }
  }
}
