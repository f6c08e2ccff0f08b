// A PyPI release's sdist and wheel are downloaded side by side (one round trip and transfer less on a first question),
// and still read in order: a file both carry is the sdist's copy. A fake PyPI on loopback answers the sdist only once
// the wheel has been asked for, so a source that downloads one after the other waits out the hold.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { pypiSource } from '../../../src/docs/sources/pypi.ts';
import { makeTgz } from '../../integration/docs/fixtures.ts';

const HOLD_MS = 3000;
const text = (value: string) => Buffer.from(value);
const sdist = makeTgz([
  { name: 'fxboth-1.0.0/README.md', body: '# fxboth\n\nFrom the sdist.\n' },
  { name: 'fxboth-1.0.0/fxboth/__init__.py', body: '"""From the sdist."""\n' },
  { name: 'fxboth-1.0.0/docs/guide.md', body: '# Guide\n\nOnly the sdist has it.\n' },
]);
const wheel = unreadable(zipSync({
  'fxboth/__init__.py': text('"""From the wheel."""\n'),
  'fxboth/_speedups.pyi': text('def fast() -> None:\n    """Only the wheel has it."""\n'),
  'fxboth-1.0.0.dist-info/top_level.txt': text('fxboth\n'),
}), 'fxboth/__init__.py');

/**
 * The zip with `name`'s compressed bytes made invalid deflate (a reserved block type): reading that entry throws, so a
 * source that inflates the wheel's copy of a file the sdist gave fails on it; one that skips the copy never notices.
 */
function unreadable(zip: Uint8Array, name: string): Uint8Array {
  const bytes = Buffer.from(zip);
  const signature = Buffer.from([0x50, 0x4b, 0x03, 0x04]); // a local file header
  for (let header = bytes.indexOf(signature); header >= 0; header = bytes.indexOf(signature, header + 4)) {
    const nameLength = bytes.readUInt16LE(header + 26);
    if (bytes.toString('utf8', header + 30, header + 30 + nameLength) !== name) continue;
    assert.equal(bytes.readUInt16LE(header + 8), 8, 'deflated');
    const data = header + 30 + nameLength + bytes.readUInt16LE(header + 28);
    bytes.fill(0xff, data, data + bytes.readUInt32LE(header + 18));
    return bytes;
  }
  throw new Error(`${name} is not in the zip`);
}

describe('PyPI sdist and wheel downloads', () => {
  let fake: http.Server;
  let base = '';
  const order: string[] = [];
  let wheelAsked: () => void;
  const wheelRequested = new Promise<void>((resolve) => { wheelAsked = resolve; });

  before(async () => {
    fake = http.createServer((request, response) => {
      const path = request.url ?? '/';
      order.push(`asked ${path}`);
      const bytes = (value: Uint8Array) => { order.push(`sent ${path}`); response.writeHead(200).end(Buffer.from(value)); };
      if (path === '/pypi/fxboth/1.0.0/json') {
        const urls = [
          { packagetype: 'sdist', url: `${base}/files/fxboth-1.0.0.tar.gz`, size: sdist.length, filename: 'fxboth-1.0.0.tar.gz' },
          { packagetype: 'bdist_wheel', url: `${base}/files/fxboth-1.0.0-py3-none-any.whl`, size: wheel.length, filename: 'fxboth-1.0.0-py3-none-any.whl' },
        ];
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ info: { version: '1.0.0', summary: 'Both' }, urls }));
        return;
      }
      if (path.endsWith('.tar.gz')) {
        // Held until the wheel is asked for (or HOLD_MS, so a sequential source still finishes, late).
        void Promise.race([wheelRequested, new Promise((resolve) => setTimeout(resolve, HOLD_MS))]).then(() => bytes(sdist));
        return;
      }
      if (path.endsWith('.whl')) { wheelAsked(); bytes(wheel); return; }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  after(() => fake.close());

  it('asks for the wheel before the sdist has arrived, and keeps the sdist copy of a file both carry (the wheel\'s is never inflated)', async () => {
    const limits = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024 };
    const source = pypiSource({ baseUrl: base, limits, artifactLimits: limits });
    const started = Date.now();
    const artifact = await source.artifact('fxboth', '1.0.0');
    const took = Date.now() - started;
    const wheelAt = order.indexOf('asked /files/fxboth-1.0.0-py3-none-any.whl');
    const sdistSentAt = order.indexOf('sent /files/fxboth-1.0.0.tar.gz');
    assert.ok(wheelAt >= 0 && wheelAt < sdistSentAt, `the wheel was asked for before the sdist was sent: ${order.join(', ')}`);
    assert.ok(took < HOLD_MS, `${took} ms: no wait for the hold`);
    const init = artifact.files.find((f) => f.path === 'fxboth/__init__.py');
    assert.match(Buffer.from(init!.bytes).toString('utf8'), /From the sdist/);
    // What only one of them has is read from it.
    assert.ok(artifact.files.some((f) => f.path === 'docs/guide.md'));
    assert.ok(artifact.files.some((f) => f.path === 'fxboth/_speedups.pyi'));
  });
});
