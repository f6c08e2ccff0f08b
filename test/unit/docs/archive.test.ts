// Hostile archives, built by the test: traversal and oversize are refused, links are never followed, bombs stop at the cap.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { zipSync } from 'fflate';
import { DEFAULT_LIMITS, readTar, readZip } from '../../../src/docs/archive.ts';
import { makeTar, makeTgz } from '../../integration/docs/fixtures.ts';

const keepAll = { ...DEFAULT_LIMITS, keep: () => true };
const refusedWith = (pattern: RegExp) => (error: unknown) => {
  assert.equal((error as { code?: string }).code, 'artifact_refused');
  assert.match((error as Error).message, pattern);
  return true;
};

describe('readTar', () => {
  it('reads files of a gzipped tar in memory', async () => {
    const contents = await readTar(makeTgz([{ name: 'package/README.md', body: '# hi' }, { name: 'package/docs', type: 'dir' }]), keepAll);
    assert.deepEqual(contents.files.map((f) => [f.path, Buffer.from(f.bytes).toString()]), [['package/README.md', '# hi']]);
  });
  for (const name of ['package/../../etc/passwd', '/etc/passwd', '../x.md']) {
    it(`refuses an entry outside the root: ${name}`, async () => {
      await assert.rejects(readTar(makeTgz([{ name: 'package/a.md', body: 'a' }, { name, body: 'root:x:0:0' }]), keepAll), refusedWith(/outside its root/));
    });
  }
  it('skips symbolic links without following them', async () => {
    const contents = await readTar(makeTgz([
      { name: 'package/secret.md', type: 'symlink', linkname: '/etc/shadow' },
      { name: 'package/README.md', body: 'readme' },
    ]), keepAll);
    assert.deepEqual(contents.files.map((f) => f.path), ['package/README.md']);
    assert.deepEqual(contents.skipped, [{ path: 'package/secret.md', reason: 'link' }]);
  });
  it('refuses more entries than the cap', async () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ name: `package/f${i}.md`, body: 'x' }));
    await assert.rejects(readTar(makeTgz(entries), { ...keepAll, maxEntries: 20 }), refusedWith(/more than 20 entries/));
  });
  it('refuses a decompression bomb at the unpacked-size cap', async () => {
    const bomb = zlib.gzipSync(makeTar([{ name: 'package/zeros.md', body: Buffer.alloc(8 * 1024 * 1024) }]), { level: 9 });
    assert.ok(bomb.length < 100_000, `bomb is ${bomb.length} bytes compressed`);
    await assert.rejects(readTar(bomb, { ...keepAll, maxUnpackedBytes: 1024 * 1024 }), refusedWith(/decompression bomb/));
  });
  it('skips files over the per-file cap and files it was not asked to keep', async () => {
    const contents = await readTar(makeTgz([
      { name: 'package/big.md', body: 'x'.repeat(5000) }, { name: 'package/a.png', body: 'png' }, { name: 'package/ok.md', body: 'ok' },
    ]), { ...DEFAULT_LIMITS, maxFileBytes: 1000, keep: (p) => p.endsWith('.md') });
    assert.deepEqual(contents.files.map((f) => f.path), ['package/ok.md']);
    assert.deepEqual(contents.skipped, [{ path: 'package/big.md', reason: 'too_large' }]);
  });
  it('refuses bytes that are not a tar', async () => {
    await assert.rejects(readTar(zlib.gzipSync(Buffer.from('not a tar at all, just text')), keepAll), (e: unknown) => (e as { code?: string }).code === 'artifact_refused');
  });
});

describe('readZip', () => {
  it('reads members and refuses traversal', () => {
    const good = readZip(zipSync({ 'm@v1/README.md': Buffer.from('# readme') }), keepAll);
    assert.deepEqual(good.files.map((f) => f.path), ['m@v1/README.md']);
    assert.throws(() => readZip(zipSync({ 'm@v1/../../evil.go': Buffer.from('package evil') }), keepAll), refusedWith(/outside its root/));
  });
  it('refuses a zip that unpacks past the cap', () => {
    const zip = zipSync({ 'a.md': Buffer.alloc(600_000), 'b.md': Buffer.alloc(600_000) }, { level: 9 });
    assert.throws(() => readZip(zip, { ...keepAll, maxUnpackedBytes: 1_000_000 }), refusedWith(/size cap/));
  });
  it('refuses more entries than the cap', () => {
    const files = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}.md`, Buffer.from('x')]));
    assert.throws(() => readZip(zipSync(files), { ...keepAll, maxEntries: 10 }), refusedWith(/more than 10 entries/));
  });
});
