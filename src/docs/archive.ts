// Reads package archives (tar, tar.gz, zip) in memory, never onto disk, and never runs anything in them.
// Hostile archives are refused: size and entry-count caps, decompression bombs, path traversal; links are not followed.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { unzipSync } from 'fflate';
import { headOf } from '../text-cut.ts';
import { ToolDexError } from '../errors.ts';

export interface ArchiveFile {
  path: string;
  bytes: Uint8Array;
}

export interface ArchiveLimits {
  /** Entries of any kind; more is refused as hostile. */
  maxEntries: number;
  /** Bytes after decompression, of the whole archive. */
  maxUnpackedBytes: number;
  /** Files larger than this are skipped (kept out of the index), not refused. */
  maxFileBytes: number;
  /** Which paths to keep; others are skipped unread. */
  keep(path: string): boolean;
}

export interface ArchiveContents {
  files: ArchiveFile[];
  /** Entries skipped on purpose: links (never followed) and oversized files. */
  skipped: Array<{ path: string; reason: 'link' | 'too_large' }>;
}

export const DEFAULT_LIMITS: Omit<ArchiveLimits, 'keep'> = {
  maxEntries: 20_000,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxFileBytes: 2 * 1024 * 1024,
};

export const refused = (message: string) => new ToolDexError('artifact_refused', 502, message);

/** Rejects absolute paths and `..` segments: a file name must stay inside the archive. */
export function assertSafePath(name: string): void {
  const normalized = name.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[a-zA-Z]:/.test(normalized) || normalized.split('/').includes('..')) {
    throw refused(`The archive holds an entry outside its root ("${headOf(name, 200)}"); it is refused.`);
  }
}

const gunzip = promisify(zlib.gunzip);

/** Inflates on the libuv thread pool, so a large (or hostile) archive does not hold the event loop. */
export async function gunzipCapped(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  try {
    return await gunzip(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw refused(`The archive unpacks to more than ${Math.round(maxBytes / 1048576)} MB (decompression bomb?); it is refused.`);
    }
    throw refused(`The archive is not valid gzip: ${(error as Error).message}.`);
  }
}

/** Bytes of tar the parser reads per turn of the event loop (readTar). */
const TAR_PIECE = 1 << 20;

const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b;

export async function readTar(bytes: Uint8Array, limits: ArchiveLimits): Promise<ArchiveContents> {
  const raw = isGzip(bytes) ? await gunzipCapped(bytes, limits.maxUnpackedBytes) : bytes;
  if (raw.byteLength > limits.maxUnpackedBytes) throw refused('The archive is larger than the unpacked-size cap; it is refused.');
  const contents: ArchiveContents = { files: [], skipped: [] };
  let entries = 0;
  let failure: Error | undefined;
  const parser = new Parser({ strict: true });
  parser.on('entry', (entry: ReadEntry) => {
    try {
      if (failure) return entry.resume();
      if (++entries > limits.maxEntries) throw refused(`The archive has more than ${limits.maxEntries} entries; it is refused.`);
      assertSafePath(entry.path);
      if (entry.type === 'SymbolicLink' || entry.type === 'Link') {
        contents.skipped.push({ path: entry.path, reason: 'link' });
        return entry.resume();
      }
      if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') return entry.resume();
      if (!limits.keep(entry.path)) return entry.resume();
      if (entry.size > limits.maxFileBytes) {
        contents.skipped.push({ path: entry.path, reason: 'too_large' });
        return entry.resume();
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => contents.files.push({ path: entry.path, bytes: Buffer.concat(chunks) }));
    } catch (error) {
      failure ??= error as Error;
      entry.resume();
    }
  });
  await new Promise<void>((resolve, reject) => {
    let broken = false;
    const fail = (error: Error) => {
      broken = true;
      reject(refused(`The archive is not a valid tar file: ${error.message}.`));
    };
    parser.on('error', fail);
    parser.on('end', () => resolve());
    (async () => {
      // In pieces, a turn of the event loop between them: the parser reads a chunk's entries synchronously, and a large
      // sdist read whole held the loop for seconds (kubernetes: 2–5 s at load 22–31, round 19). Same entries, same order.
      const whole = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      for (let at = 0; at < whole.byteLength; at += TAR_PIECE) {
        if (at) await new Promise((next) => setImmediate(next));
        if (broken) return;
        parser.write(whole.subarray(at, Math.min(whole.byteLength, at + TAR_PIECE)));
      }
      if (!broken) parser.end();
    })().catch(fail);
  });
  if (failure) throw failure;
  return contents;
}

export function readZip(bytes: Uint8Array, limits: ArchiveLimits): ArchiveContents {
  const contents: ArchiveContents = { files: [], skipped: [] };
  let entries = 0;
  let declared = 0;
  let failure: Error | undefined;
  let unpacked: Record<string, Uint8Array>;
  try {
    unpacked = unzipSync(bytes, {
      filter(file) {
        if (failure) return false;
        try {
          if (++entries > limits.maxEntries) throw refused(`The archive has more than ${limits.maxEntries} entries; it is refused.`);
          assertSafePath(file.name);
          if (file.name.endsWith('/') || !limits.keep(file.name)) return false;
          if (file.originalSize > limits.maxFileBytes) {
            contents.skipped.push({ path: file.name, reason: 'too_large' });
            return false;
          }
          declared += file.originalSize;
          if (declared > limits.maxUnpackedBytes) throw refused('The archive unpacks past the size cap; it is refused.');
          return true;
        } catch (error) {
          failure ??= error as Error;
          return false;
        }
      },
    });
  } catch (error) {
    throw failure ?? refused(`The archive is not a valid zip file: ${(error as Error).message}.`);
  }
  if (failure) throw failure;
  for (const [path, data] of Object.entries(unpacked)) {
    // A header may understate a member's size; the real size is checked again after inflating.
    if (data.byteLength > limits.maxFileBytes) contents.skipped.push({ path, reason: 'too_large' });
    else contents.files.push({ path, bytes: data });
  }
  return contents;
}

export const textOf = (file: ArchiveFile) => Buffer.from(file.bytes).toString('utf8');
