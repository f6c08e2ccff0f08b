// Start-up against a database that is not there yet (booting, failing over, restarting with the fleet): ask
// again with exponential backoff up to a bound instead of exiting, logging once that we wait and once that it answered.
import type { Logger } from '../log.ts';
import { ToolDexError } from '../errors.ts';
import { isConnectionFault } from './faults.ts';

export interface StartupWait {
  /** Total time to keep trying (0: one try). */
  maxMs: number;
  /** Longest pause between two tries; pauses start at 250 ms and double. */
  maxBackoffMs: number;
}

export const DEFAULT_WAIT: StartupWait = { maxMs: 120_000, maxBackoffMs: 5000 };

export async function waitForDatabase(ping: () => Promise<void>, url: string, wait: StartupWait = DEFAULT_WAIT, logger?: Logger): Promise<void> {
  const started = Date.now();
  let pause = Math.min(250, wait.maxBackoffMs);
  let attempts = 0;
  for (;;) {
    attempts++;
    try {
      await ping();
      if (attempts > 1) logger?.info({ attempts, waitedMs: Date.now() - started }, 'database answered; starting');
      return;
    } catch (error) {
      // A wrong password or a missing database will not fix itself by waiting: say so at once.
      if (!isConnectionFault(error)) throw error;
      const waited = Date.now() - started;
      if (waited + pause > wait.maxMs) {
        throw new ToolDexError('store_unavailable', 503,
          `The database at ${where(url)} did not answer within ${Math.round(wait.maxMs / 1000)} s ` +
          `(TOOLDEX_STORE_WAIT_MS): ${(error as Error).message || (error as { code?: string }).code}.`);
      }
      if (attempts === 1) {
        logger?.warn({ database: where(url), reason: (error as Error).message, maxWaitMs: wait.maxMs },
          'database not reachable yet; waiting for it');
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, wait.maxBackoffMs);
    }
  }
}

/** host:port/database of a URL, without credentials, for messages. */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}
