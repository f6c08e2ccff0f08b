// The ingestion lease of one version, kept alive while its ingestion runs. A big package's extraction under load can
// outlive a fixed lease (kubernetes, prettier: tens of seconds at load 30, more on a busier host); another instance
// would then take the version over and this one's finished work be refused. The lease is renewed every third of its
// length until the ingestion ends or fails (or, stuck, for at most MAX_HELD_MS), so only a dead process loses it.
import type { Logger } from '../log.ts';
import type { Queryable } from '../store/index.ts';
import { renewLease } from './repository.ts';

/** Renewal stops after this long: an ingestion still running then is stuck, and its version is left to be claimed again. */
const MAX_HELD_MS = 15 * 60_000;

export interface LeaseOptions {
  /** The lease's length, as claimed (claimLease) and as each renewal sets it. */
  seconds: number;
  /** Between renewals; a third of the lease by default, so two renewals in a row can be late before it ends. */
  renewEveryMs?: number;
  logger: Logger;
}

export class HeldLease {
  private current: string;
  /** Renewals and the statements that check the lease run one after another: a renewal changes the lease's name. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly since = Date.now();
  private stopped = false;

  constructor(private readonly db: Queryable, private readonly slug: string, private readonly version: string, lease: string,
    private readonly options: LeaseOptions) {
    this.current = lease;
    this.timer = setInterval(() => void this.renew(), options.renewEveryMs ?? (options.seconds * 1000) / 3);
    this.timer.unref();
  }

  /** Runs `work` with the lease's name as it is now, with no renewal beside it (holdsLease, markFailed, restoreReady). */
  use<T>(work: (lease: string) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => work(this.current));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The ingestion ended or failed: no more renewals (one under way finishes; the write or failure mark clears it). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private renew(): Promise<void> {
    return this.use(async (lease) => {
      if (this.stopped) return;
      if (Date.now() - this.since > MAX_HELD_MS) {
        this.options.logger.warn({ slug: this.slug, version: this.version }, 'docs ingestion still running; its lease is no longer renewed');
        this.stop();
        return;
      }
      try {
        const renewed = await renewLease(this.db, this.slug, this.version, lease, this.options.seconds);
        if (renewed) {
          this.current = renewed;
        } else {
          // Released or taken over: nothing to keep. The write will find the lease gone and leave the row alone.
          this.options.logger.warn({ slug: this.slug, version: this.version }, 'docs ingestion lease lost before its ingestion ended');
          this.stop();
        }
      } catch (err) {
        // The store did not answer this time; the lease has two more renewals' time before it ends.
        this.options.logger.warn({ slug: this.slug, version: this.version, err }, 'renewing a docs ingestion lease failed');
      }
    });
  }
}
