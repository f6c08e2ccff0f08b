// Whether the database answers right now. The first connection fault marks it gone and is logged once; a probe
// then asks it again with backoff and the first answer marks it back (logged once). Meanwhile calls fail fast.
import type { Logger } from '../log.ts';
import { storeUnavailable } from './faults.ts';

export interface AvailabilityOptions {
  /** First pause between probes while the database is away; doubles up to maxProbeMs. */
  probeMs?: number;
  maxProbeMs?: number;
}

export interface AvailabilityState {
  available: boolean;
  /** When the current outage began (ms since epoch), if the store is away. */
  since?: number;
  reason?: string;
}

export class StoreAvailability {
  private outage: { since: number; reason: string } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly probeMs: number;
  private readonly maxProbeMs: number;

  constructor(private readonly probe: () => Promise<void>, private readonly logger: Logger | undefined, options: AvailabilityOptions = {}) {
    this.probeMs = options.probeMs ?? 250;
    this.maxProbeMs = options.maxProbeMs ?? 2000;
  }

  get available(): boolean {
    return this.outage === undefined;
  }

  state(): AvailabilityState {
    return this.outage ? { available: false, since: this.outage.since, reason: this.outage.reason } : { available: true };
  }

  /** What a store call answers while the database is away (the cause goes to the log, not to clients). */
  error() {
    return storeUnavailable();
  }

  /** A connection fault was seen: mark the store gone (logged once per outage) and start probing. */
  reportFault(error: unknown): void {
    if (this.closed || this.outage) return;
    const reason = describe(error);
    this.outage = { since: Date.now(), reason };
    this.logger?.error({ reason }, 'store unavailable: the database does not answer; answering 503 store_unavailable until it does');
    this.schedule(this.probeMs);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.check(delayMs), delayMs);
    this.timer.unref();
  }

  private async check(lastDelayMs: number): Promise<void> {
    try {
      await this.probe();
    } catch {
      this.schedule(Math.min(lastDelayMs * 2, this.maxProbeMs));
      return;
    }
    const outage = this.outage;
    this.outage = undefined;
    if (outage) this.logger?.info({ downMs: Date.now() - outage.since }, 'store available again');
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  if (error instanceof AggregateError && error.errors[0] instanceof Error) return describe(error.errors[0]);
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}
