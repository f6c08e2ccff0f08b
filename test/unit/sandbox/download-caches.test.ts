// The shared download caches are bounded in bytes (TOOLDEX_SANDBOX_CACHE_MB): past the budget, idle runtimes' caches
// are emptied, least recently used first; a cache in use is never touched, and is emptied once idle.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DownloadCaches } from '../../../src/sandbox/download-caches.ts';
import { allocatedBytes } from '../../../src/sandbox/layers.ts';

const MIB = 1024 * 1024;
const RUNTIMES = ['node', 'python', 'golang', 'rust'];
const me = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };

/** A cache root with `mib` MiB of real (allocated) files in each runtime's folder. */
function cacheRoot(mib: Record<string, number>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-dlcache-'));
  for (const runtime of RUNTIMES) {
    const dir = path.join(root, runtime, 'pkgs');
    fs.mkdirSync(dir, { recursive: true });
    for (let i = 0; i < (mib[runtime] ?? 0); i++) fs.writeFileSync(path.join(dir, `f${i}`), randomBytes(MIB));
  }
  fs.mkdirSync(path.join(root, 'layers', 'rust', 'k'), { recursive: true });
  fs.writeFileSync(path.join(root, 'layers', 'rust', 'k', 'big'), randomBytes(4 * MIB));
  return root;
}
const total = async (caches: DownloadCaches) => [...(await caches.sizes()).values()].reduce((a, b) => a + b, 0);

describe('download caches byte budget', () => {
  it('empties idle caches, least recently used first, until all together are within the budget; layers are not touched', async () => {
    const root = cacheRoot({ node: 3, python: 4, golang: 2, rust: 3 });
    const caches = new DownloadCaches(root, RUNTIMES, 7 * MIB, me);
    // Use order: python long ago, then rust, golang, node most recently.
    for (const runtime of ['python', 'rust', 'golang', 'node']) { caches.enter(runtime)(); await new Promise((r) => setTimeout(r, 5)); }
    assert.ok(await total(caches) > 12 * MIB);
    const emptied = await caches.enforce();
    assert.deepEqual(emptied.map((e) => e.runtime), ['python', 'rust'], 'least recently used first, only as many as needed');
    assert.ok(await total(caches) <= 7 * MIB, `within the budget: ${await total(caches)}`);
    for (const runtime of ['python', 'rust']) {
      const dir = path.join(root, runtime);
      assert.deepEqual(fs.readdirSync(dir), [], 'emptied and recreated');
      assert.equal(fs.statSync(dir).uid, me.uid);
      assert.equal(fs.statSync(dir).mode & 0o777, 0o755);
    }
    assert.equal(fs.readdirSync(path.join(root, 'node', 'pkgs')).length, 3);
    assert.ok(allocatedBytes(path.join(root, 'layers')) >= 4 * MIB, 'compiled layers have their own budget');
    assert.deepEqual(fs.readdirSync(root).filter((n) => n.startsWith('.old-')), [], 'nothing set aside is left');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('never empties a cache while a call of its runtime runs; empties it once that call has ended', async () => {
    const root = cacheRoot({ python: 6 });
    const caches = new DownloadCaches(root, RUNTIMES, 2 * MIB, me);
    const leave = caches.enter('python');
    // Idle caches still go (the budget is held as far as it can be); the one in use stays, over the budget for now.
    assert.ok(!(await caches.enforce()).some((e) => e.runtime === 'python'), 'in use: not emptied');
    assert.equal(fs.readdirSync(path.join(root, 'python', 'pkgs')).length, 6);
    assert.ok((caches.lastPass?.overBytes ?? 0) >= 3 * MIB, `the pass says it stays over the budget: ${JSON.stringify(caches.lastPass)}`);
    leave();
    leave(); // leaving twice counts once
    const second = caches.enter('python');
    assert.deepEqual(await caches.enforce(), [], 'another call of the runtime is running');
    second();
    assert.deepEqual((await caches.enforce()).map((e) => e.runtime), ['python']);
    assert.ok(await total(caches) <= 2 * MIB);
    assert.equal(caches.lastPass?.overBytes, 0);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a cache\'s generation changes each time it is emptied, and only then, and another instance reads the same', async () => {
    // Go sessions record it at install: their modules live only in the cache, so a changed one means fetch again.
    const root = cacheRoot({ golang: 3, node: 1 });
    const caches = new DownloadCaches(root, ['golang', 'node'], 2 * MIB, me);
    assert.equal(caches.generation('golang'), '', 'never emptied');
    caches.enter('golang')();
    await new Promise((resolve) => setTimeout(resolve, 5));
    caches.enter('node')(); // used later: golang goes first, and is enough
    assert.deepEqual((await caches.enforce()).map((e) => e.runtime), ['golang']);
    const first = caches.generation('golang');
    assert.notEqual(first, '');
    assert.equal(caches.generation('node'), '', 'a cache not emptied keeps its generation');
    assert.deepEqual(fs.readdirSync(path.join(root, 'golang')), [], 'kept outside the runtime folder (never mounted)');
    assert.equal(new DownloadCaches(root, ['golang', 'node'], 2 * MIB, me).generation('golang'), first, 'read from the cache root');
    assert.deepEqual(await caches.enforce(), [], 'within the budget');
    assert.equal(caches.generation('golang'), first);
    fs.mkdirSync(path.join(root, 'golang', 'mod'));
    fs.writeFileSync(path.join(root, 'golang', 'mod', 'm'), randomBytes(3 * MIB));
    await caches.enforce();
    assert.notEqual(caches.generation('golang'), first, 'emptied again: a new generation');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('does nothing within the budget, and removes folders a stopped pass set aside', async () => {
    const root = cacheRoot({ node: 1, golang: 1 });
    fs.mkdirSync(path.join(root, '.old-golang-abc', 'mod'), { recursive: true });
    const caches = new DownloadCaches(root, RUNTIMES, 64 * MIB, me);
    await caches.removeLeftovers();
    assert.ok(!fs.existsSync(path.join(root, '.old-golang-abc')));
    assert.deepEqual(await caches.enforce(), []);
    assert.equal(fs.readdirSync(path.join(root, 'node', 'pkgs')).length, 1);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
