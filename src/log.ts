// Structured logging: one pino logger per process, JSON lines on stderr so stdout stays for results.
// A database outage is logged once by the store (gone, back); every other line caused by it drops to debug.
import { pino, type Logger } from 'pino';
import { StoreOutageError } from './store/faults.ts';

export type { Logger };

const DEBUG = 20;

export function createLogger(level: string): Logger {
  return pino({
    level, base: { service: 'tooldex' },
    hooks: {
      logMethod(args, method, methodLevel) {
        const first = args[0] as { err?: unknown } | undefined;
        // Background jobs (catalog refresh, usage flush…) would repeat it every few seconds for the whole outage.
        if (methodLevel > DEBUG && first && typeof first === 'object' && first.err instanceof StoreOutageError && !this.isLevelEnabled('debug')) return;
        method.apply(this, args);
      },
    },
  }, pino.destination(2));
}
