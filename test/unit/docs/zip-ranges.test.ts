// A Go module zip over the artifact cap is read in parts (HTTP Range, against a proxy on 127.0.0.1): its directory,
// then only the files docs need (sources, README, doc.go); test data, vendored code and binaries are never downloaded,
// and the bytes read stay within the cap. A proxy that serves no ranges refuses it as before.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { goSource } from '../../../src/docs/sources/gomod.ts';
import { readZipByRanges } from '../../../src/docs/sources/zip-ranges.ts';

const MODULE = 'example.com/big';
const VERSION = 'v1.2.0';
const text = (s: string) => new TextEncoder().encode(s);
const noise = (n: number) => new Uint8Array(crypto.randomBytes(n));
const prefix = `${MODULE}@${VERSION}/`;

const zip = zipSync({
  [`${prefix}go.mod`]: text(`module ${MODULE}\n\ngo 1.22\n`),
  [`${prefix}README.md`]: text('# big\n\nA module whose zip is larger than the cap because of its test data.\n'),
  [`${prefix}testdata/corpus.bin`]: [noise(400_000), { level: 0 }],
  [`${prefix}doc.go`]: text('// Package big computes things the long way.\npackage big\n'),
  [`${prefix}big.go`]: text('package big\n\n// Sum adds the numbers it is given and returns the total.\nfunc Sum(xs ...int) int { return 0 }\n'),
  [`${prefix}vendor/x/x.go`]: [noise(300_000), { level: 0 }],
  [`${prefix}sub/sub.go`]: text('package sub\n\n// Twice returns double its argument.\nfunc Twice(x int) int { return 2 * x }\n'),
  [`${prefix}sub/sub_test.go`]: text('package sub\n\nfunc ExampleTwice() {\n\tprintln(Twice(2))\n}\n'),
  [`${prefix}sub/data.bin`]: [noise(200_000), { level: 0 }],
  // Deep and large (hex compresses to about half): the file that does not fit the cap's remainder.
  [`${prefix}sub/deep/gen.go`]: text(`package deep\n\n// Table is generated.\nvar Table = "${Buffer.from(noise(150_000)).toString('hex')}"\n`),
}, { level: 6 });

/** A small zip whose first central directory entry declares an extra field longer than the directory. */
const malformed = (() => {
  const bytes = zipSync({ 'm/a.go': text('package m\n'), 'm/b.go': text('package m\n') }, { level: 0 });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = bytes.byteLength - 22;
  while (view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  const directory = view.getUint32(eocd + 16, true);
  view.setUint16(directory + 30, 0xfff0, true);
  return bytes;
})();

describe('Go module zips over the artifact cap, read by ranges', () => {
  let server: http.Server;
  let base = '';
  let ranges = true;
  /** Bytes answered to range requests (the whole-file GET is cut off by the client at its content-length). */
  let served = 0;
  const requested: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      if (!req.url?.endsWith('.zip')) { res.writeHead(404).end(); return; }
      const body = req.url.endsWith('/bad.zip') ? malformed : zip;
      const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (req.method === 'HEAD') { res.writeHead(200, { 'content-length': body.byteLength, 'accept-ranges': 'bytes' }).end(); return; }
      if (ranges && range) {
        const start = Number(range[1]);
        const end = Math.min(Number(range[2]) + 1, body.byteLength);
        requested.push(`${start}-${end}`);
        served += end - start;
        res.writeHead(206, { 'content-length': end - start, 'content-range': `bytes ${start}-${end - 1}/${body.byteLength}` }).end(Buffer.from(body.subarray(start, end)));
        return;
      }
      res.writeHead(200, { 'content-length': body.byteLength }).end(Buffer.from(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const source = (maxBytes: number) => goSource({ baseUrl: base, limits: { timeoutMs: 5000, maxBytes: 1 << 20 }, artifactLimits: { timeoutMs: 5000, maxBytes } });

  it('reads the directory and the kept files only, within the cap; what a reader needs first fills it', async () => {
    assert.ok(zip.byteLength > 850_000, 'the zip is over the cap below');
    served = 0;
    requested.length = 0;
    const artifact = await source(200_000).artifact(MODULE, VERSION);
    const paths = artifact.files.map((f) => f.path).sort();
    assert.deepEqual(paths, ['README.md', 'big.go', 'doc.go', 'go.mod', 'sub/sub.go', 'sub/sub_test.go']);
    assert.match(new TextDecoder().decode(artifact.files.find((f) => f.path === 'big.go')!.bytes), /func Sum\(xs \.\.\.int\) int/);
    assert.match(new TextDecoder().decode(artifact.files.find((f) => f.path === 'sub/sub_test.go')!.bytes), /func ExampleTwice/);
    assert.ok(requested.length >= 2, 'ranges were asked for');
    assert.ok(artifact.skipped >= 1, 'the deep generated file that does not fit is skipped, not read');
    assert.ok(served < 200_000, `read ${served} bytes of ${zip.byteLength} by ranges: only the directory and the kept files`);
  });

  it('a zip under the cap is downloaded whole, as before', async () => {
    requested.length = 0;
    const artifact = await source(10 << 20).artifact(MODULE, VERSION);
    assert.equal(requested.length, 0);
    assert.equal(artifact.files.length, 7);
  });

  it('refuses where even the zip\'s directory is over the cap', async () => {
    await assert.rejects(source(600).artifact(MODULE, VERSION), (error: Error & { code?: string }) => error.code === 'artifact_refused');
  });

  it('refuses a zip whose directory entry runs past the directory\'s end', async () => {
    const limits = { maxEntries: 100, maxUnpackedBytes: 1 << 20, maxFileBytes: 1 << 20, keep: () => true };
    await assert.rejects(readZipByRanges(`${base}/bad.zip`, malformed.byteLength, limits, { timeoutMs: 5000, maxBytes: 1 << 20 }),
      (error: Error & { code?: string }) => error.code === 'artifact_refused' && /runs past its end/.test(error.message));
  });

  it('refuses as before where the proxy serves no ranges', async () => {
    ranges = false;
    try {
      await assert.rejects(source(200_000).artifact(MODULE, VERSION), (error: Error & { code?: string }) => error.code === 'artifact_refused' && /larger than the .* cap/.test(error.message));
    } finally {
      ranges = true;
    }
  });
});
