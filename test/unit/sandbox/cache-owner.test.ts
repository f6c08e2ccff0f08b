// One instance per shared cache root may empty the download caches, and only while no other live instance uses it: the
// in-use gate sees one process's calls only. A crashed holder (dead pid, or a lock no longer refreshed) never blocks
// eviction for ever.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CacheOwner, LOCK_FILE, SHARED_FILE, STALE_MS } from '../../../src/sandbox/cache-owner.ts';
import { DownloadCaches } from '../../../src/sandbox/download-caches.ts';

const MIB = 1024 * 1024;
const me = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
const root = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-cache-owner-'));
/** A pid that ran and is gone now. */
const deadPid = () => spawnSync('true').pid!;

describe('download cache owner lock', () => {
  it('a second live instance does not take the lock, and neither instance empties caches while both use the root', async () => {
    const dir = root();
    const first = new CacheOwner(dir);
    assert.equal(first.acquire(), true);
    assert.equal(first.mayEvict(), true, 'alone: the holder evicts');
    // Another instance (here: the same live pid, another token — as another process would hold it).
    const second = new CacheOwner(dir, { host: os.hostname() });
    assert.equal(second.acquire(), false);
    assert.equal(second.holder?.pid, process.pid);
    assert.equal(second.mayEvict(), false);
    second.beat(); // its heartbeat says it uses the root
    assert.ok(fs.existsSync(path.join(dir, SHARED_FILE)));
    assert.equal(first.mayEvict(), false, 'the holder stands down while another live instance uses the root');

    // Both instances' caches over budget: neither empties anything.
    fs.mkdirSync(path.join(dir, 'node'));
    fs.writeFileSync(path.join(dir, 'node', 'pkg'), randomBytes(2 * MIB));
    for (const owner of [first, second]) {
      const caches = new DownloadCaches(dir, ['node'], MIB, me, undefined, () => owner.mayEvict());
      caches.enter('node')();
      assert.deepEqual(await caches.enforce(), []);
    }
    assert.equal(fs.readdirSync(path.join(dir, 'node')).length, 1);

    // The other instance's mark goes stale (it stopped): the holder evicts again.
    const old = new Date(Date.now() - STALE_MS - 1000);
    fs.utimesSync(path.join(dir, SHARED_FILE), old, old);
    const caches = new DownloadCaches(dir, ['node'], MIB, me, undefined, () => first.mayEvict());
    caches.enter('node')();
    assert.deepEqual((await caches.enforce()).map((e) => e.runtime), ['node']);
    first.release();
    assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'released on close');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a lock left by a dead process on this host is taken over at once', () => {
    const dir = root();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: os.hostname(), started: '1', token: 'gone' }));
    const owner = new CacheOwner(dir);
    assert.equal(owner.acquire(), true);
    assert.equal(owner.mayEvict(), true);
    owner.release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a live pid that is another process now (its start time differs) does not hold the lock', () => {
    const dir = root();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: os.hostname(), started: 'not-init-start', token: 'reused' }));
    assert.equal(new CacheOwner(dir).acquire(), true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a lock of another host (its pid unknowable here) holds until its holder stops refreshing it', () => {
    const dir = root();
    const lock = path.join(dir, LOCK_FILE);
    fs.writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: 'another-host', started: '1', token: 'far' }));
    const owner = new CacheOwner(dir);
    assert.equal(owner.acquire(), false, 'fresh: held');
    assert.equal(owner.holder?.host, 'another-host');
    const old = new Date(Date.now() - STALE_MS - 1000);
    fs.utimesSync(lock, old, old);
    assert.equal(owner.acquire(), true, 'no heartbeat for STALE_MS: taken over');
    assert.equal(JSON.parse(fs.readFileSync(lock, 'utf8')).pid, process.pid);
    // A half-written lock (crash between create and write) holds only until it is stale too.
    fs.writeFileSync(lock, '');
    const other = new CacheOwner(dir, { host: 'h2' });
    assert.equal(other.acquire(), false);
    fs.utimesSync(lock, old, old);
    assert.equal(other.acquire(), true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an instance that did not hold the lock takes it once the holder is gone, and its own mark does not stop it', () => {
    const dir = root();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: os.hostname(), started: '', token: 'other' }));
    const waiting = new CacheOwner(dir);
    assert.equal(waiting.acquire(), false);
    waiting.beat(); // writes its shared mark
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: os.hostname(), started: '', token: 'other' }));
    waiting.beat(); // the holder died: the heartbeat takes the lock
    assert.equal(waiting.owned, true);
    assert.equal(waiting.mayEvict(), true);
    waiting.release();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
