// Captures a program's stdout or stderr while it is read: keeps a bounded head, counts the rest, never buffers it.
// finish() redacts secrets first (dropping a cut-short capture's unsafe tail) and then cuts on a UTF-8 boundary, so a
// cut can never expose part of a secret.
export const OUTPUT_CAP_BYTES = 8 * 1024;
export const TRUNCATION_MARKER = '\n…[output truncated: ';

export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  /** keepBytes: the cap plus room for the longest encoded secret, so redaction sees every secret whole. */
  constructor(private readonly keepBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.keepBytes - this.kept;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(Buffer.from(part));
    this.kept += part.length;
  }

  /**
   * The text to return: redacted, at most capBytes of UTF-8, with a visible marker when anything was dropped. When the
   * stream went on past what was kept, its kept end may hold the beginning of a secret no form can match: the redactor
   * is told to show nothing of the last `reach` characters (unless a match covers them), so no prefix survives the cut.
   */
  finish(redact: ((text: string, cutFrom?: number) => string) & { reach?: number }, capBytes = OUTPUT_CAP_BYTES): string {
    const raw = Buffer.concat(this.chunks);
    const decoded = decodeComplete(raw);
    const cutShort = this.total > this.kept;
    const text = cutShort && redact.reach ? redact(decoded, decoded.length - redact.reach) : redact(decoded);
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= capBytes && this.total === this.kept) return text;
    const marker = `${TRUNCATION_MARKER}${this.total} bytes in all, first ${capBytes} shown]`;
    return `${cutUtf8(bytes, capBytes)}${marker}`;
  }
}

/** Decodes UTF-8, dropping an incomplete sequence at the very end (the cap may split a character). */
function decodeComplete(raw: Buffer): string {
  return cutUtf8(raw, raw.length);
}

/** The longest prefix of at most maxBytes that ends on a character boundary. */
export function cutUtf8(bytes: Buffer, maxBytes: number): string {
  let end = Math.min(maxBytes, bytes.length);
  // Step back over continuation bytes (10xxxxxx) to the lead byte, then keep it only if its sequence fits.
  let start = end;
  while (start > 0 && start > end - 4 && ((bytes[start - 1] ?? 0) & 0xc0) === 0x80) start--;
  if (start > 0) {
    const lead = bytes[start - 1] ?? 0;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (lead >= 0xc0 && start - 1 + need > end) end = start - 1;
  }
  return bytes.subarray(0, end).toString('utf8');
}
