// The work a waiting first question is made of — an ingestion (download, extraction, storing) and the package index
// built from it — held here so that work nobody waits for yields the machine's cores to it. On a 2-core machine the
// encoder thread embedding earlier packages in the background took a core from the extraction thread and the event
// loop of the first question on a new version (bench/docs-first.ts BENCH_OVERLAP=1, docs/docs-search.md "Round 14").
export class Foreground {
  private held = 0;
  private waiters: Array<() => void> = [];

  /** Counts `work` as foreground until it settles; returns it unchanged. */
  hold<T>(work: Promise<T>): Promise<T> {
    this.held++;
    const release = () => {
      if (--this.held > 0) return;
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    };
    work.then(release, release);
    return work;
  }

  /** Whether foreground work is under way now. */
  get busy(): boolean {
    return this.held > 0;
  }

  /** Resolves at once when nothing is held, else when the foreground work under way has all settled. */
  clear(): Promise<void> {
    if (!this.held) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
