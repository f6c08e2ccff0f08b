// Scheduling of docs ingestion so that one slow or failing registry cannot hold up the others: slots per registry,
// a deadline per request (the ingestion goes on, the request answers in time), remembered failures with backoff,
// every ingestion registered as in-flight work (drained on SIGTERM), and leases of dead processes released.
import pLimit, { type LimitFunction } from 'p-limit';
import type { Config } from '../config.ts';
import { ToolDexError, isToolDexError } from '../errors.ts';
import type { InflightWork } from '../lifecycle/inflight.ts';
import type { Logger } from '../log.ts';
import { LIVE_INSTANCES } from '../store/instances.ts';
import type { Store } from '../store/index.ts';

/** First pause after a failure; doubles with each further failure up to MAX_BACKOFF_MS. */
const BASE_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 5 * 60_000;
/** Failures a registry may have in a row before requests to it fail fast (one slow answer is not an outage). */
const REGISTRY_FAILURES_BEFORE_BACKOFF = 2;
const MAX_REMEMBERED = 10_000;
const RELEASE_EVERY_MS = 60_000;

interface Failure {
  count: number;
  retryAt: number;
  error: { code: string; status: number; message: string };
}

export interface SchedulerDeps {
  config: Pick<Config, 'TOOLDEX_DOCS_DEADLINE_MS' | 'TOOLDEX_DOCS_INGESTIONS_PER_REGISTRY'>;
  store: Store;
  logger: Logger;
  inflight?: InflightWork;
  /** This process in the fleet (src/store/instances.ts): recorded as the owner of the leases it takes. */
  instanceId?: string;
  now?: () => number;
}

const backoffMs = (count: number) => Math.min(BASE_BACKOFF_MS * 2 ** Math.max(0, count - 1), MAX_BACKOFF_MS);
const isUpstream = (error: unknown) => isToolDexError(error) && error.code === 'upstream_unavailable';

/**
 * Failures remembered per key: after `threshold` failures in a row the key backs off (5 s, doubling to 5 min) and
 * callers get the remembered error at once, with how long to wait; a success forgets it.
 */
export class FailureMemory {
  private readonly failures = new Map<string, Failure>();

  constructor(private readonly threshold: number, private readonly now: () => number = Date.now) {}

  /** Records a failure; returns the pause it starts (0 while under the threshold). */
  fail(key: string, error: ToolDexError): number {
    if (this.failures.size >= MAX_REMEMBERED) this.failures.clear();
    const count = (this.failures.get(key)?.count ?? 0) + 1;
    const pause = count >= this.threshold ? backoffMs(count - this.threshold + 1) : 0;
    this.failures.set(key, { count, retryAt: pause ? this.now() + pause : 0, error: { code: error.code, status: error.status, message: error.message } });
    return pause;
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }

  /** Throws the remembered error (with retryAfterSeconds) while `key` backs off. */
  check(key: string, what: string): void {
    const failure = this.failures.get(key);
    if (!failure || failure.retryAt <= this.now()) return;
    const retryAfterSeconds = Math.max(1, Math.ceil((failure.retryAt - this.now()) / 1000));
    throw new ToolDexError(failure.error.code, failure.error.status,
      `${what} failed ${failure.count} time${failure.count > 1 ? 's' : ''} recently (${failure.error.message.replace(/\.$/, '')}); ` +
      `not trying again for ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
}

export class IngestScheduler {
  private readonly slots = new Map<string, LimitFunction>();
  private readonly registryFailures: FailureMemory;
  private readonly versionFailures: FailureMemory;
  private readonly releaser: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: SchedulerDeps) {
    this.now = deps.now ?? Date.now;
    // One slow answer is not an outage: a registry backs off after two failures in a row, a version after one.
    this.registryFailures = new FailureMemory(REGISTRY_FAILURES_BEFORE_BACKOFF, this.now);
    this.versionFailures = new FailureMemory(1, this.now);
    if (deps.store.kind === 'postgres') {
      // A process that dies for good never restarts to release its leases: every instance sweeps now and then.
      this.releaser = setInterval(() => void this.releaseDeadLeases().catch((err) => deps.logger.warn({ err }, 'releasing dead docs leases failed')), RELEASE_EVERY_MS);
      this.releaser.unref();
    }
  }

  /** The moment a request that starts now must have its answer by. */
  deadline(): number {
    return this.now() + this.deps.config.TOOLDEX_DOCS_DEADLINE_MS;
  }

  /**
   * Waits for `work` until `deadlineAt`; past it, answers 503 upstream_unavailable (the caller may serve stale docs)
   * while the work itself goes on in the background and the next question finds it done.
   */
  async within<T>(deadlineAt: number, work: Promise<T>, what: string): Promise<T> {
    const remaining = deadlineAt - this.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ToolDexError('upstream_unavailable', 503,
        `${what} is taking longer than ${Math.round(this.deps.config.TOOLDEX_DOCS_DEADLINE_MS / 1000)} s (a slow registry); ` +
        'it goes on in the background: ask again shortly.', { retryAfterSeconds: 10 })), Math.max(0, remaining));
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A registry call (release list, artifact) that fails fast while the registry backs off, and records the outcome. */
  async call<T>(registry: string, work: () => Promise<T>): Promise<T> {
    this.registryFailures.check(registry, `The ${registry} registry`);
    try {
      const result = await work();
      this.registryFailures.succeed(registry);
      return result;
    } catch (error) {
      if (isUpstream(error)) this.logBackoff(registry, this.registryFailures.fail(registry, error as ToolDexError), error as ToolDexError);
      throw error;
    }
  }

  /**
   * Runs one ingestion of `key` (slug@version) in a slot of its registry, as registered in-flight work. A key that
   * failed recently fails fast with the same error until its backoff ends.
   */
  async ingest<T>(registry: string, key: string, work: () => Promise<T>): Promise<T> {
    this.versionFailures.check(key, key);
    const run = () => this.call(registry, work);
    const slot = this.slotOf(registry);
    const pending = slot(run).then((result) => {
      this.versionFailures.succeed(key);
      return result;
    }, (error: unknown) => {
      // A refused artifact is remembered in the store for good; anything else is tried again after a pause.
      if (isToolDexError(error) && error.code !== 'artifact_refused') this.logBackoff(key, this.versionFailures.fail(key, error), error);
      throw error;
    });
    return this.deps.inflight ? this.deps.inflight.track('docs-ingestion', key, pending) : pending;
  }

  /** Background work of the docs capability (site crawls, revalidation), drained like an ingestion. */
  background<T>(what: string, work: Promise<T>): Promise<T> {
    return this.deps.inflight ? this.deps.inflight.track('docs-background', what, work) : work;
  }

  /** Records this instance as the holder of the lease it just took (see releaseDeadLeases). */
  async ownLease(slug: string, version: string): Promise<void> {
    if (!this.deps.instanceId) return;
    await this.deps.store.query('update docs_versions set lease_owner = $3 where slug = $1 and version = $2', [slug, version, this.deps.instanceId]);
  }

  /**
   * Leases held by processes that are gone. On the embedded store only this process can exist (it holds the
   * store lock), so every lease found at start is dead; on PostgreSQL, those whose owner stopped its heartbeat.
   */
  async releaseDeadLeases(): Promise<number> {
    const embedded = this.deps.store.kind === 'pglite';
    const rows = embedded
      ? await this.deps.store.query<{ slug: string }>(
        "update docs_versions set lease_until = null, lease_owner = null where lease_until is not null and status <> 'ready' returning slug")
      : await this.deps.store.query<{ slug: string }>(
        `update docs_versions set lease_until = null, lease_owner = null
         where lease_until > now() and lease_owner is not null and lease_owner not in (${LIVE_INSTANCES}) returning slug`);
    if (rows.length) this.deps.logger.info({ released: rows.length }, 'released docs ingestion leases of a process that is gone');
    // Leases on embedding a package's passages (src/docs/semantic.ts) are held by the same instance ids.
    await this.deps.store.query(embedded ? 'delete from docs_vector_leases'
      : `delete from docs_vector_leases where lease_until > now() and owner not in (${LIVE_INSTANCES})`);
    return rows.length;
  }

  /** This process in the fleet, when it has a heartbeat row (PostgreSQL). */
  get instanceId(): string | undefined {
    return this.deps.instanceId;
  }

  close(): void {
    clearInterval(this.releaser);
  }

  private slotOf(registry: string): LimitFunction {
    let slot = this.slots.get(registry);
    if (!slot) {
      slot = pLimit(this.deps.config.TOOLDEX_DOCS_INGESTIONS_PER_REGISTRY);
      this.slots.set(registry, slot);
    }
    return slot;
  }

  private logBackoff(key: string, pauseMs: number, error: ToolDexError): void {
    if (pauseMs) this.deps.logger.warn({ key, backoffMs: pauseMs, reason: error.message }, 'docs source failing; backing off');
  }
}
