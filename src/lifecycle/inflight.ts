// The work this process has under way that a deploy must not cut: HTTP requests, sandbox runs, docs ingestions,
// quickstart verifications. Long-running work registers here; SIGTERM drains it (src/lifecycle/drain.ts).

export interface WorkEntry {
  id: number;
  /** What kind of work: 'request', 'sandbox-run', 'docs-ingestion', 'quickstart-verification', … */
  kind: string;
  /** Which one, for the drain log: "POST /tools/test", "npm-zod@3.23.8". */
  label: string;
  startedAt: number;
}

export interface WorkHandle {
  /** Marks the work finished (idempotent). */
  end(): void;
}

export class InflightWork {
  private readonly entries = new Map<number, WorkEntry>();
  private nextId = 1;
  private idleWaiters: Array<() => void> = [];
  private readonly stoppingController = new AbortController();
  private readonly cutController = new AbortController();

  /** Aborted when draining starts: background jobs should not start new work (finishing what runs is fine). */
  readonly stopping: AbortSignal = this.stoppingController.signal;
  /** Aborted when the drain deadline passes: work still running is about to be cut; abort what can be aborted. */
  readonly cut: AbortSignal = this.cutController.signal;

  /** Registers work by hand; call end() when it is over. Prefer track() for a promise. */
  begin(kind: string, label: string): WorkHandle {
    const id = this.nextId++;
    this.entries.set(id, { id, kind, label, startedAt: Date.now() });
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        this.entries.delete(id);
        if (this.entries.size === 0) this.wakeIdle();
      },
    };
  }

  /** Registers `work` until it settles and returns it unchanged. */
  track<T>(kind: string, label: string, work: Promise<T>): Promise<T> {
    const handle = this.begin(kind, label);
    work.then(handle.end, handle.end);
    return work;
  }

  /** Runs `fn` as registered work. */
  run<T>(kind: string, label: string, fn: () => Promise<T>): Promise<T> {
    const handle = this.begin(kind, label);
    return fn().finally(handle.end);
  }

  get size(): number {
    return this.entries.size;
  }

  get draining(): boolean {
    return this.stopping.aborted;
  }

  list(): WorkEntry[] {
    return [...this.entries.values()];
  }

  startDraining(): void {
    this.stoppingController.abort(new Error('draining'));
  }

  cutNow(): void {
    this.cutController.abort(new Error('drain deadline reached'));
  }

  /** Resolves true once nothing is in flight, or false when `timeoutMs` passes first. */
  async idle(timeoutMs: number): Promise<boolean> {
    if (this.entries.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    let wake!: () => void;
    const idle = new Promise<boolean>((resolve) => {
      wake = () => resolve(true);
      this.idleWaiters.push(wake);
    });
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([idle, timeout]);
    } finally {
      clearTimeout(timer);
      this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== wake);
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
