// The byte bound of the shared download caches (TOOLDEX_SANDBOX_CACHE_MB): fetch steps write the registries' packages
// into one folder per runtime (bun's, pip's, Go's module and build caches, cargo's registry), shared by every session.
// A tenant could ask for large packages call after call and fill the host's disk. After a call that fetched, the caches
// are measured (allocated blocks); while all of them together pass the budget, whole runtime caches are emptied, least
// recently used first. A cache is emptied only while no call of its runtime runs (steps mount it, and Go builds read
// it as an overlay's lower, which must not change beneath them): the folder is renamed aside and recreated empty in one
// synchronous turn, so no step can start in between, then the old one is removed. That gate sees this process's calls
// only, so caches are emptied only by the instance that holds the cache root's owner lock while no other live instance
// uses the root (cache-owner.ts). What an emptied cache held is
// fetched again on demand: node, Python and Rust sessions keep what they installed in their own volumes, but Go's
// module sources live only in this cache (the session's volume holds its go.mod/go.sum), so a Go session whose cache
// was emptied since its install fetches its graph again (a fetch step, `refetch`) before its next build — the compile of
// a layer runs with the proxy off and would fail without them. `generation` tells when.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Bytes a folder allocates, by `du` in a child process: a Go module cache holds tens of thousands of files, and
 * measuring them in the service's own thread after every fetch would stall every other request meanwhile.
 */
export function duBytes(dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('du', ['-s', '-B1', '-x', '--', dir], { timeout: 5 * 60_000 }, (error, stdout) => {
      const bytes = Number(stdout.split(/\s/)[0]);
      // du exits 1 when a file vanished while it walked (a fetch removing a temporary file): its total still counts.
      if (Number.isFinite(bytes) && stdout.trim()) resolve(bytes);
      else reject(error ?? new Error(`du: no total for ${dir}`));
    });
  });
}

export interface CacheEviction { runtime: string; bytes: number }

export class DownloadCaches {
  /** Calls of each runtime running now (each may mount that runtime's cache). */
  private readonly users = new Map<string, number>();
  /** When each runtime's cache was last used (entered): the least recently used is emptied first. */
  private readonly used = new Map<string, number>();
  private enforcing: Promise<CacheEviction[]> | undefined;
  /** What the last pass left: all caches' bytes, and how far over the budget (caches in use, or another instance's). */
  lastPass: { totalBytes: number; overBytes: number } | undefined;

  constructor(
    /** The cache root as the host sees it: `<root>/<runtime>` per runtime (layers live beside them and are not counted). */
    private readonly root: string,
    private readonly runtimes: readonly string[],
    /** Bytes all runtimes' download caches may allocate together. */
    private readonly maxBytes: number,
    /** Owner of a recreated cache folder (the sandbox uid, which fetch steps write as). */
    private readonly owner: { uid: number; gid: number },
    private readonly measure: (dir: string) => Promise<number> = duBytes,
    /** Whether this instance may empty caches now (cache-owner.ts: the only live instance using this cache root). */
    private readonly mayEvict: () => boolean = () => true,
  ) {}

  /** A call of `runtime` starts (its steps may mount the cache); the returned function ends it. */
  enter(runtime: string): () => void {
    this.users.set(runtime, (this.users.get(runtime) ?? 0) + 1);
    this.used.set(runtime, Date.now());
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.users.set(runtime, (this.users.get(runtime) ?? 1) - 1);
    };
  }

  /** Bytes each runtime's cache allocates now. */
  async sizes(): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    for (const runtime of this.runtimes) {
      const dir = path.join(this.root, runtime);
      sizes.set(runtime, fs.existsSync(dir) ? await this.measure(dir) : 0);
    }
    return sizes;
  }

  /**
   * Empties idle runtime caches, least recently used first, while all of them together pass the budget. A cache in use
   * is skipped (the budget may be passed until it is idle: the next enforce after a fetch tries again). One pass at a
   * time: a call made while one runs gets that pass's outcome.
   */
  enforce(): Promise<CacheEviction[]> {
    this.enforcing ??= this.pass().finally(() => { this.enforcing = undefined; });
    return this.enforcing;
  }

  private async pass(): Promise<CacheEviction[]> {
    // Another live instance uses this cache root: its running calls are not in `users`, so nothing is emptied here.
    if (!this.mayEvict()) {
      this.lastPass = undefined; // not measured: the holder's business (this instance said so once at start)
      return [];
    }
    const sizes = await this.sizes();
    let total = [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0);
    const evicted: CacheEviction[] = [];
    const order = [...this.runtimes].sort((a, b) => (this.used.get(a) ?? 0) - (this.used.get(b) ?? 0));
    const removals: string[] = [];
    for (const runtime of order) {
      if (total <= this.maxBytes) break;
      const bytes = sizes.get(runtime) ?? 0;
      const dir = path.join(this.root, runtime);
      // An empty cache (its folder's own block) has nothing to give back. mayEvict again: du took a while.
      if (!this.mayEvict()) break;
      if (!bytes || (this.users.get(runtime) ?? 0) > 0 || !fs.readdirSync(dir).length) continue;
      // Synchronous from the check of users to the new folder: no call of this runtime can start in between.
      const aside = path.join(this.root, `.old-${runtime}-${crypto.randomBytes(6).toString('hex')}`);
      fs.renameSync(dir, aside);
      fs.mkdirSync(dir, { mode: 0o755 });
      fs.chownSync(dir, this.owner.uid, this.owner.gid);
      this.bump(runtime);
      removals.push(aside);
      total -= bytes;
      evicted.push({ runtime, bytes });
    }
    for (const aside of removals) await fs.promises.rm(aside, { recursive: true, force: true });
    this.lastPass = { totalBytes: total, overBytes: Math.max(0, total - this.maxBytes) };
    return evicted;
  }

  /**
   * The runtime cache's generation: changed each time it is emptied. Sessions record it at install; a session whose
   * packages live only in the cache (Go's modules) fetches them again before a build when it differs. Kept beside the
   * runtime folders (root's, never mounted into a sandbox), so it survives restarts and is read by every instance.
   */
  generation(runtime: string): string {
    try {
      return fs.readFileSync(path.join(this.root, `.generation-${runtime}`), 'utf8').trim();
    } catch {
      return ''; // never emptied
    }
  }

  private bump(runtime: string): void {
    const file = path.join(this.root, `.generation-${runtime}`);
    const next = `${Date.now()}-${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(`${file}.new`, next);
    fs.renameSync(`${file}.new`, file);
  }

  /**
   * Folders set aside by a pass that did not finish (a stopped process), removed at start — asynchronously: a Go module
   * cache set aside holds tens of thousands of files, and start-up (and the requests after it) must not wait on them.
   */
  async removeLeftovers(): Promise<void> {
    if (!fs.existsSync(this.root)) return;
    for (const name of await fs.promises.readdir(this.root)) {
      if (name.startsWith('.old-')) await fs.promises.rm(path.join(this.root, name), { recursive: true, force: true });
    }
  }
}
