// The embedded store admits one process: a lock file in TOOLDEX_HOME says which process holds it.
// A stale lock (its process gone) is taken over; a live one is refused with a clear error.
import fs from 'node:fs';
import path from 'node:path';
import { ToolDexError } from '../errors.ts';

export interface LockInfo {
  pid: number;
  startedAt: string;
  /** Set by a server: the local admin socket other processes use instead of opening the store. */
  adminSocket?: string;
  /** Set by a server: its HTTP base URL, so `tooldex mcp` can relay to it instead of opening the store. */
  url?: string;
}

export const lockPath = (home: string) => path.join(home, 'store.lock');

export function readLock(home: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(lockPath(home), 'utf8')) as LockInfo;
    return isAlive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

export function acquireLock(home: string): { release(): void; update(info: Partial<LockInfo>): void } {
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = lockPath(home);
  const info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
      return {
        release: () => {
          if (readLock(home)?.pid === process.pid) fs.rmSync(file, { force: true });
        },
        update: (more) => fs.writeFileSync(file, JSON.stringify(Object.assign(info, more)), { mode: 0o600 }),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(home);
      if (holder && holder.pid !== process.pid) {
        throw new ToolDexError('store_locked', 409,
          `The embedded store in ${home} is held by process ${holder.pid}` +
          `${holder.adminSocket ? ' (a running tooldex server)' : ''}; stop it, or use that server (--url), or set DATABASE_URL.`,
          { pid: holder.pid });
      }
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new ToolDexError('store_locked', 409, `Could not take the store lock ${file}.`);
}

/** Whether a process of this pid exists (EPERM: it does, under another user). Also read by the sandbox's cache-owner lock. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
