// Sorts what the database driver throws into "the database is away" (connection faults: 503 store_unavailable)
// and "this value cannot be stored" (a NUL byte: 422), so neither reaches a client as a 500.
import { ToolDexError } from '../errors.ts';

/** Seconds a client is told to wait when the store is away: the availability probe looks at least this often. */
export const STORE_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
  'EAI_AGAIN', 'ENOENT', // ENOENT: a Unix-socket URL whose server is not running
]);

// SQLSTATEs meaning the server is going, gone or not yet there (not "your query is wrong").
const SERVER_GONE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '08007']);

const DRIVER_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /connection (?:is )?closed/i,
  /cannot use a pool after calling end/i,
  /client was closed and is not queryable/i,
];

/** True when the error says the database cannot be reached (as opposed to a bad statement or value). */
export function isConnectionFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE_STATES.has(code))) return true;
  if (error instanceof AggregateError && error.errors.some(isConnectionFault)) return true; // dual-stack connect
  return DRIVER_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** A call refused during an outage the store has already logged: other log lines about it are noise. */
export class StoreOutageError extends ToolDexError {}

export function storeUnavailable(): StoreOutageError {
  return new StoreOutageError('store_unavailable', 503, 'The database does not answer; retry in a few seconds.',
    { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS });
}

/** Every pooled connection was busy for the whole wait: this call is refused, the store is not away. */
export function storeBusy(): ToolDexError {
  return new ToolDexError('store_unavailable', 503, 'The database is busy (every connection in use); retry in a few seconds.',
    { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS });
}

/** pg-pool's error when no connection could be had within connectionTimeoutMillis (busy pool or no connection). */
export function isPoolWaitTimeout(error: unknown): boolean {
  return error instanceof Error && /timeout exceeded when trying to connect/i.test(error.message);
}

export function isStoreUnavailable(error: unknown): boolean {
  return error instanceof ToolDexError && error.code === 'store_unavailable';
}

/**
 * A value PostgreSQL text cannot hold (a NUL byte, SQLSTATE 22021, or an invalid escape in a pattern) is the
 * caller's input, not a server fault: 422 with the reason. Returns undefined for everything else.
 */
export function inputFault(error: unknown): ToolDexError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code === '22021' || /invalid byte sequence for encoding "UTF8": 0x00/.test(error.message)) {
    return new ToolDexError('invalid_request', 422, 'A value contains a NUL byte (\\u0000), which tooldex does not accept in text.');
  }
  return undefined;
}
