// readZipByRanges: the files a reader of the docs needs from a remote zip too large to download whole, read with HTTP
// Range requests. A zip ends with its central directory (every entry's name, sizes and offset), so the directory is
// read first, then only the kept entries' bytes (the caller's `keep`: sources, README, docs; never testdata, vendor,
// binaries). The caps stay what they protect: the bytes downloaded and held are bounded by the fetch cap (directory and
// kept entries together), the entry count, unpacked size, file size and paths by the archive limits, as `readZip`.
import zlib from 'node:zlib';
import { assertSafePath, refused, type ArchiveContents, type ArchiveLimits } from '../archive.ts';
import { fetchRange, type FetchLimits } from '../fetch.ts';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
/** End-of-central-directory record with the longest comment, and the zip64 locator before it. */
const TAIL_BYTES = 22 + 65_535 + 20;
/** Kept entries closer than this are read in one request (the bytes between are read and dropped). */
const MERGE_GAP = 256 * 1024;
/** Range requests in flight at once. */
const PARALLEL = 4;

interface Entry { name: string; method: number; compressed: number; size: number; offset: number; end: number }

const u64 = (view: DataView, at: number) => Number(view.getBigUint64(at, true));

/**
 * The kept files of the zip at `url` (`size` bytes), or undefined where the server does not serve ranges (the caller
 * refuses the artifact as before). Where the kept files exceed the byte cap or the unpacked cap, those `rank` puts
 * first are read and the rest listed as skipped. Throws `artifact_refused` for a malformed or hostile zip.
 */
export async function readZipByRanges(url: string, size: number, limits: ArchiveLimits, fetchLimits: FetchLimits,
  rank: (path: string) => number = () => 0): Promise<ArchiveContents | undefined> {
  let budget = fetchLimits.maxBytes;
  const read = async (start: number, end: number) => {
    budget -= end - start;
    if (budget < 0) throw refused(`The docs files of ${url} are larger than the ${Math.round(fetchLimits.maxBytes / 1048576)} MB cap; it is not indexed.`);
    return fetchRange(url, start, end, fetchLimits);
  };
  const tailStart = Math.max(0, size - TAIL_BYTES);
  const tail = await read(tailStart, size);
  if (!tail) return undefined;
  const tailView = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let at = tail.byteLength - 22; at >= 0; at--) if (tailView.getUint32(at, true) === EOCD) { eocd = at; break; }
  if (eocd < 0) throw refused('The archive is not a valid zip file: no end of central directory.');
  let count = tailView.getUint16(eocd + 10, true);
  let directorySize = tailView.getUint32(eocd + 12, true);
  let directoryOffset = tailView.getUint32(eocd + 16, true);
  if ((count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) && eocd >= 20 && tailView.getUint32(eocd - 20, true) === ZIP64_LOCATOR) {
    const at = u64(tailView, eocd - 20 + 8);
    const record = await read(at, at + 56);
    const view = record && new DataView(record.buffer, record.byteOffset, record.byteLength);
    if (!view || view.getUint32(0, true) !== ZIP64_EOCD) throw refused('The archive is not a valid zip file: bad zip64 directory.');
    count = u64(view, 32);
    directorySize = u64(view, 40);
    directoryOffset = u64(view, 48);
  }
  if (count > limits.maxEntries) throw refused(`The archive has more than ${limits.maxEntries} entries; it is refused.`);
  if (directoryOffset + directorySize > size) throw refused('The archive is not a valid zip file: its directory lies past its end.');
  const directory = directoryOffset >= tailStart
    ? tail.subarray(directoryOffset - tailStart, directoryOffset - tailStart + directorySize)
    : await read(directoryOffset, directoryOffset + directorySize);
  if (!directory) return undefined;

  let entries: Entry[];
  try {
    entries = centralEntries(directory, count, directoryOffset);
  } catch (error) {
    // A field that points past the directory's end (a name or extra field longer than the bytes left) is malformed.
    if (error instanceof RangeError) throw refused('The archive is not a valid zip file: a central directory entry runs past its end.');
    throw error;
  }
  const contents: ArchiveContents = { files: [], skipped: [] };
  const candidates: Entry[] = [];
  for (const entry of entries) {
    assertSafePath(entry.name);
    if (entry.name.endsWith('/') || !limits.keep(entry.name)) continue;
    if (entry.size > limits.maxFileBytes || (entry.method !== 0 && entry.method !== 8)) contents.skipped.push({ path: entry.name, reason: 'too_large' });
    else candidates.push(entry);
  }
  // What a reader needs first fills the caps (the caller's `rank`, lowest first); what does not fit is skipped, as
  // the indexer would not read it either (it reads a bounded share of a package's sources).
  const wanted: Entry[] = [];
  let unpacked = 0;
  let compressed = 0;
  for (const entry of candidates.map((e, i) => ({ e, i, r: rank(e.name) })).sort((a, b) => a.r - b.r || a.i - b.i).map(({ e }) => e)) {
    const record = entry.end - entry.offset;
    if (unpacked + entry.size > limits.maxUnpackedBytes || compressed + record > budget) {
      contents.skipped.push({ path: entry.name, reason: 'too_large' });
      continue;
    }
    unpacked += entry.size;
    compressed += record;
    wanted.push(entry);
  }
  // Runs of kept entries close together are one request each, while the bytes between them fit the budget.
  const runs: Entry[][] = [];
  let planned = compressed;
  for (const entry of [...wanted].sort((a, b) => a.offset - b.offset)) {
    const run = runs[runs.length - 1];
    const gap = run ? entry.offset - run[run.length - 1]!.end : Infinity;
    if (run && gap <= MERGE_GAP && planned + gap <= budget) {
      planned += gap;
      run.push(entry);
    } else {
      runs.push([entry]);
    }
  }
  for (let next = 0; next < runs.length; next += PARALLEL) {
    await Promise.all(runs.slice(next, next + PARALLEL).map(async (run) => {
      const start = run[0]!.offset;
      const bytes = await read(start, run[run.length - 1]!.end);
      if (!bytes) throw refused(`${url} stopped serving byte ranges; it is not indexed.`);
      for (const entry of run) {
        const data = localData(bytes.subarray(entry.offset - start, entry.end - start), entry);
        if (data.byteLength > limits.maxFileBytes) contents.skipped.push({ path: entry.name, reason: 'too_large' });
        else contents.files.push({ path: entry.name, bytes: data });
      }
    }));
  }
  // In the archive's order, as readZip gives them.
  const order = new Map(entries.map((e, i) => [e.name, i]));
  contents.files.sort((a, b) => order.get(a.path)! - order.get(b.path)!);
  return contents;
}

/** The central directory's entries, each with where its local record ends (the next record's start). */
function centralEntries(directory: Uint8Array, count: number, directoryOffset: number): Entry[] {
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
  const entries: Entry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.byteLength || view.getUint32(at, true) !== CENTRAL) throw refused('The archive is not a valid zip file: bad central directory.');
    const method = view.getUint16(at + 10, true);
    let compressed = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let offset = view.getUint32(at + 42, true);
    const name = Buffer.from(directory.subarray(at + 46, at + 46 + nameLength)).toString('utf8');
    // Zip64: the fields that read 0xffffffff are in the extra field 0x0001, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength;) {
      const id = view.getUint16(x, true);
      const length = view.getUint16(x + 2, true);
      if (id === 0x0001) {
        let field = x + 4;
        if (size === 0xffffffff) { size = u64(view, field); field += 8; }
        if (compressed === 0xffffffff) { compressed = u64(view, field); field += 8; }
        if (offset === 0xffffffff) offset = u64(view, field);
      }
      x += 4 + length;
    }
    entries.push({ name, method, compressed, size, offset, end: 0 });
    at += 46 + nameLength + extraLength + commentLength;
  }
  const byOffset = [...entries].sort((a, b) => a.offset - b.offset);
  byOffset.forEach((entry, i) => { entry.end = byOffset[i + 1]?.offset ?? directoryOffset; });
  return entries;
}

/** One entry's file bytes from its local record (header, name, extra, data). */
function localData(record: Uint8Array, entry: Entry): Uint8Array {
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  if (record.byteLength < 30 || view.getUint32(0, true) !== LOCAL) throw refused(`The archive is not a valid zip file: bad local header of ${entry.name}.`);
  const start = 30 + view.getUint16(26, true) + view.getUint16(28, true);
  const data = record.subarray(start, start + entry.compressed);
  if (data.byteLength < entry.compressed) throw refused(`The archive is not a valid zip file: ${entry.name} is cut short.`);
  if (entry.method === 0) return data;
  if (entry.size === 0) return new Uint8Array(0); // an empty member: nothing to inflate (a writer may store no stream)
  try {
    // One byte over the file cap is enough to know it is over: a member cannot inflate past it (decompression bomb).
    return zlib.inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) + 1 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw refused(`The archive member ${entry.name} inflates past its declared size (decompression bomb?); it is refused.`);
    }
    throw refused(`The archive is not a valid zip file: ${entry.name}: ${(error as Error).message}.`);
  }
}
