// Which instance may empty the shared download caches. The in-use gate of download-caches.ts sees only this process's
// calls, so two instances sharing one TOOLDEX_SANDBOX_CACHE_DIR could empty a cache beneath each other's running fetch
// or Go build. At start each instance tries to take `<cacheRoot>/.tooldex-owner`, a lock file created with O_EXCL
// (Node has no flock without a native module). The holder evicts; an instance that finds it held by a live instance
// evicts nothing (it starts anyway) and keeps `.tooldex-shared` fresh, so the holder, seeing another live user, evicts
// nothing either while it is. A crash must not block eviction for ever: a lock whose holder is gone is taken over — on
// this host a dead pid (or one reused by another process: its start time differs), on any host a lock whose holder
// stopped refreshing it (heartbeat: its mtime, touched every HEARTBEAT_MS; stale after STALE_MS).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from '../store/lock.ts';

export const LOCK_FILE = '.tooldex-owner';
export const SHARED_FILE = '.tooldex-shared';
export const HEARTBEAT_MS = 60_000;
export const STALE_MS = 5 * 60_000;

export interface LockRecord { pid: number; host: string; started: string; token: string }

/** The process's start time in clock ticks since boot (/proc/<pid>/stat field 22): tells a reused pid apart. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function readRecord(file: string): { text: string; record?: LockRecord; mtimeMs: number } | undefined {
  try {
    const mtimeMs = fs.statSync(file).mtimeMs;
    const text = fs.readFileSync(file, 'utf8');
    try {
      return { text, record: JSON.parse(text) as LockRecord, mtimeMs };
    } catch {
      return { text, mtimeMs }; // half-written by a holder that crashed between create and write: stale by its age
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface CacheOwnerOptions { host?: string; pid?: number; now?: () => number; staleMs?: number }

export class CacheOwner {
  private readonly lock: string;
  private readonly shared: string;
  private readonly me: LockRecord;
  private readonly now: () => number;
  private readonly staleMs: number;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Whether this instance holds the lock (taken at `acquire`, and again later when the holder is gone). */
  owned = false;
  /** The live holder found when the lock was not taken. */
  holder: LockRecord | undefined;

  constructor(root: string, options: CacheOwnerOptions = {}) {
    this.lock = path.join(root, LOCK_FILE);
    this.shared = path.join(root, SHARED_FILE);
    const pid = options.pid ?? process.pid;
    this.me = { pid, host: options.host ?? os.hostname(), started: processStart(pid) ?? '', token: crypto.randomBytes(8).toString('hex') };
    this.now = options.now ?? Date.now;
    this.staleMs = options.staleMs ?? STALE_MS;
  }

  /** Tries to take the lock (a stale one is taken over); true when this instance holds it. */
  acquire(): boolean {
    fs.mkdirSync(path.dirname(this.lock), { recursive: true, mode: 0o755 });
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = fs.openSync(this.lock, 'wx', 0o644);
        try {
          fs.writeSync(fd, JSON.stringify(this.me));
        } finally {
          fs.closeSync(fd);
        }
        this.owned = true;
        this.holder = undefined;
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const found = readRecord(this.lock);
      if (!found) continue; // released meanwhile: try again
      if (found.record?.token === this.me.token) return (this.owned = true);
      if (!this.stale(found)) {
        this.owned = false;
        this.holder = found.record;
        return false;
      }
      // Taken over by renaming it aside first: of two instances that both found it stale, only one rename gets it, and
      // one that renamed a lock made meanwhile by a third (not the stale one it read) puts it back.
      const aside = `${this.lock}.stale-${crypto.randomBytes(6).toString('hex')}`;
      try {
        fs.renameSync(this.lock, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const moved = fs.readFileSync(aside, 'utf8');
      if (moved !== found.text) {
        try {
          fs.linkSync(aside, this.lock);
        } catch {
          // a fourth instance took it meanwhile: it holds it
        }
      }
      fs.rmSync(aside, { force: true });
    }
    this.owned = false;
    this.holder = readRecord(this.lock)?.record;
    return false;
  }

  /** A holder is gone: no refresh within staleMs, or (on this host) its pid is dead or is another process now. */
  private stale(found: { record?: LockRecord; mtimeMs: number }): boolean {
    if (this.now() - found.mtimeMs > this.staleMs) return true;
    const holder = found.record;
    if (!holder) return false; // being written right now (or unreadable): its age decides
    if (holder.host !== this.me.host) return false; // another host's pid says nothing here
    if (!isAlive(holder.pid)) return true;
    // A pid reused after a restart (a container's pid 1 again) is another process: its start time differs.
    const started = processStart(holder.pid);
    return started !== undefined && holder.started !== '' && started !== holder.started;
  }

  /** Whether this instance may empty the caches now: it holds the lock, and no other instance said it uses them lately. */
  mayEvict(): boolean {
    if (!this.owned) return false;
    const found = readRecord(this.lock);
    if (found?.record?.token !== this.me.token) {
      this.owned = false; // taken over (this process stalled past staleMs): the other holder evicts now
      this.holder = found?.record;
      return false;
    }
    const shared = readRecord(this.shared);
    // Its own mark (written while it did not hold the lock yet) is no other user.
    return !shared || shared.record?.token === this.me.token || this.now() - shared.mtimeMs > this.staleMs;
  }

  /** Refreshes the lock (holder) or the shared mark (not holder), now and every HEARTBEAT_MS; not holding retries the lock. */
  start(): void {
    this.beat();
    this.heartbeat = setInterval(() => this.beat(), Math.min(HEARTBEAT_MS, this.staleMs / 3));
    this.heartbeat.unref();
  }

  beat(): void {
    try {
      if (!this.owned) this.acquire();
      const file = this.owned ? this.lock : this.shared;
      if (!this.owned) fs.writeFileSync(file, JSON.stringify(this.me));
      const at = new Date(this.now());
      fs.utimesSync(file, at, at);
    } catch {
      // the cache folder unwritable for a moment: the next beat tries again
    }
  }

  /** Stops the heartbeat and removes the lock when this instance holds it. */
  release(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (this.owned && readRecord(this.lock)?.record?.token === this.me.token) fs.rmSync(this.lock, { force: true });
    this.owned = false;
  }
}
