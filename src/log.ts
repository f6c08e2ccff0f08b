// Structured logging: one pino logger per process, JSON lines on stderr so stdout stays for results.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'tooldex' } }, pino.destination(2));
}
