// The one error type of tooldex: capabilities throw it, surfaces translate it.
// Codes are part of the public API (listed in the README); messages name the cause and the fix.

export type ErrorDetails = Record<string, unknown>;

export class ToolDexError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: ErrorDetails | undefined;

  constructor(code: string, status: number, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'ToolDexError';
    this.code = code;
    this.status = status;
    this.details = details;
  }

  toBody(): { error: { status: number; code: string; message: string } & ErrorDetails } {
    return { error: { status: this.status, code: this.code, message: this.message, ...(this.details ?? {}) } };
  }
}

export const invalidInput = (code: string, message: string, details?: ErrorDetails) =>
  new ToolDexError(code, 422, message, details);

export const notFound = (message: string, details?: ErrorDetails) => new ToolDexError('not_found', 404, message, details);

export function isToolDexError(error: unknown): error is ToolDexError {
  return error instanceof ToolDexError;
}

/** Anything thrown that is not ours becomes an opaque 500: the cause goes to the log, never to the client. */
export function toToolDexError(error: unknown): ToolDexError {
  if (isToolDexError(error)) return error;
  return new ToolDexError('internal', 500, 'Internal error; the server log has the details.');
}
