// The quickstart capability: every quickstart a tool context hands out is run by tooldex in its own sandbox on that
// exact version. Verification runs in the background (bounded, leased across instances, retried, always final).
import pLimit from 'p-limit';
import crypto from 'node:crypto';
import type { Catalog } from '../catalog/index.ts';
import type { Config } from '../config.ts';
import { isToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { SandboxService } from '../sandbox/index.ts';
import type { Store } from '../store/index.ts';
import { readHostFacts, type HostFacts } from './host-facts.ts';
import {
  claimVerification, dueVerifications, finishVerification, getVerification, newlyIndexedVersions, renewLease, requestVerification,
  isCurrentVerdict, retryLater, savePreview, type VerificationRow,
} from './repository.ts';
import { LeaseLost, verifyVersion } from './verify.ts';

export type { Verified, VerificationResult } from './types.ts';
export type { VerificationRow } from './repository.ts';

export interface QuickstartDeps {
  config: Config;
  store: Store;
  logger: Logger;
  catalog: Pick<Catalog, 'resolve'>;
  sandbox: Pick<SandboxService, 'run' | 'toolchains'>;
  /** Aborted when the server starts draining (SIGTERM): no new verification starts; runs under way finish. */
  stopping?: AbortSignal;
}

export interface Quickstarts {
  /** The verification row of (slug, version), asking for one (in the background) when there is none yet. */
  request(key: { slug: string; version: string; ecosystem: string; name: string }, waitMs?: number): Promise<VerificationRow>;
  /** Verifies now (or waits for the instance that is) and returns the final row: `ingest --verify`, the bench. */
  verifyNow(key: { slug: string; version: string; ecosystem: string; name: string }, timeoutMs?: number): Promise<VerificationRow>;
  /** One sweep: due retries, rows a stopped instance left, new versions of verified tools. Runs on a timer too. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

const LEASE_SECONDS = 300;

export function createQuickstarts(deps: QuickstartDeps): Quickstarts {
  const { config, store, logger } = deps;
  const owner = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const slots = pLimit(config.TOOLDEX_QUICKSTART_CONCURRENCY);
  const inflight = new Map<string, Promise<void>>();
  let closing = false;
  let hostFacts: Promise<HostFacts> | undefined;
  const host = () => (hostFacts ??= deps.sandbox.toolchains().then(readHostFacts));

  async function attempt(slug: string, version: string): Promise<void> {
    if (closing || deps.stopping?.aborted || !(await claimVerification(store, slug, version, owner, LEASE_SECONDS))) return;
    const row = (await getVerification(store, slug, version))!;
    try {
      const tool = await deps.catalog.resolve(slug);
      const outcome = await verifyVersion({
        config, logger, sandbox: deps.sandbox, host,
        keepAlive: async () => !closing && renewLease(store, slug, version, owner, LEASE_SECONDS),
        preview: (result) => savePreview(store, slug, version, owner, result),
      }, tool, version);
      await finishVerification(store, slug, version, owner, outcome.status, outcome.result);
      logger.info({ slug, version, status: outcome.status, tried: outcome.result.tried.length }, 'quickstart verification finished');
    } catch (error) {
      if (error instanceof LeaseLost) {
        if (closing) await retryLater(store, slug, version, owner, 'interrupted: the server stopped', 0).catch(() => undefined);
        return;
      }
      const code = isToolDexError(error) ? error.code : 'internal';
      const message = `${code}: ${(error as Error).message}`;
      // A transient fault (registry or sandbox down) is retried with a growing wait; the last attempt's fault is final.
      if (row.attempts + 1 >= config.TOOLDEX_QUICKSTART_ATTEMPTS || (isToolDexError(error) && ['not_found', 'artifact_refused', 'version_not_found'].includes(code))) {
        const status = code === 'sandbox_unavailable' ? 'unverifiable' : 'failed';
        await finishVerification(store, slug, version, owner, status, {
          verified: { status, version, reason: `gave up after ${row.attempts + 1} attempt(s): ${message}` }, quickstart: null, testRequest: null, tried: [],
        });
        logger.warn({ slug, version, err: error }, 'quickstart verification gave up');
      } else {
        const delay = (config.TOOLDEX_QUICKSTART_RETRY_MS / 1000) * 4 ** row.attempts;
        await retryLater(store, slug, version, owner, message, delay);
        logger.warn({ slug, version, err: error, retryInSeconds: delay }, 'quickstart verification will be retried');
      }
    }
  }

  /** Runs (slug, version) in a slot unless it already runs in this process. */
  function schedule(slug: string, version: string): Promise<void> {
    const key = `${slug}@${version}`;
    let pending = inflight.get(key);
    if (!pending) {
      pending = slots(() => attempt(slug, version))
        .catch((error: unknown) => logger.error({ err: error, slug, version }, 'quickstart verification crashed'))
        .finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

  async function sweep(): Promise<number> {
    if (closing) return 0;
    let started = 0;
    for (const fresh of await newlyIndexedVersions(store, 20)) {
      await requestVerification(store, fresh);
    }
    for (const due of await dueVerifications(store, 20)) {
      if (inflight.has(`${due.slug}@${due.version}`)) continue;
      void schedule(due.slug, due.version);
      started++;
    }
    return started;
  }

  const timer = config.TOOLDEX_QUICKSTART_SWEEP_SECONDS > 0 && config.TOOLDEX_QUICKSTART_VERIFY === 'on'
    ? setInterval(() => { sweep().catch((error: unknown) => logger.warn({ err: error }, 'quickstart sweep failed')); }, config.TOOLDEX_QUICKSTART_SWEEP_SECONDS * 1000)
    : undefined;
  timer?.unref();

  return {
    async request(key, waitMs = 0) {
      let row = await getVerification(store, key.slug, key.version);
      // None yet, or a verdict an older verifier made (VERIFIER_VERSION): asked for (again).
      if (!row || (row.status !== 'pending' && !isCurrentVerdict(row))) row = await requestVerification(store, key);
      if (row.status !== 'pending') return row;
      // The wait budget (TOOLDEX_QUICKSTART_WAIT_MS) applies whether this request starts the verification or finds
      // it running here already: a short verification then answers with its verdict instead of `pending`.
      const running = inflight.get(`${key.slug}@${key.version}`);
      const job = running ?? (!row.leaseActive && row.nextAttemptAt.getTime() <= Date.now() ? schedule(key.slug, key.version) : undefined);
      if (job && waitMs > 0) {
        await Promise.race([job, sleep(waitMs)]);
        row = (await getVerification(store, key.slug, key.version))!;
      }
      return row;
    },

    async verifyNow(key, timeoutMs = 30 * 60_000) {
      const deadline = Date.now() + timeoutMs;
      await requestVerification(store, key);
      for (;;) {
        const row = (await getVerification(store, key.slug, key.version))!;
        if (row.status !== 'pending' || Date.now() > deadline || closing) return row;
        if (!row.leaseActive && row.nextAttemptAt.getTime() <= Date.now()) await schedule(key.slug, key.version);
        else await sleep(Math.min(2000, Math.max(100, row.nextAttemptAt.getTime() - Date.now())));
      }
    },

    sweep,

    async close() {
      closing = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled([...inflight.values()]);
    },
  };
}
