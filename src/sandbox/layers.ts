// Compiled layers shared between sessions, one per runtime and dependency graph: a compile step (package code only, see
// CompileStep) writes through an overlay into a scratch space of bounded size (its own volume: package code may write
// anything, and the shared cache's filesystem must not fill while it runs); only when the step succeeded and what it
// wrote fits the layer budget is that copied beside the layers and renamed into place, atomically; builds of sessions
// whose graph has that key then read it beneath their own overlay, read-only. Layers are immutable once made; past a
// byte budget (every runtime's layers together) the least recently used go.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SessionVolumes, VolumeUsage } from './volume.ts';

const KEY = /^[0-9a-f]{16,64}$/;
/** Beside a layer's `upper`: the bytes it allocates, measured once when it was made (a layer never changes). */
const SIZE_FILE = 'bytes';

/** The folders of a layer being made: the overlay's upper (what the compile writes), its work folder and mount point. */
export interface LayerFolders { upper: string; work: string; merged: string }

/** Where one compile writes: folders on a filesystem of bounded size, what it holds so far, and its removal. */
export interface LayerScratch {
  folders: LayerFolders;
  /** The scratch filesystem's blocks and inodes (undefined when it has none of its own). */
  usage(): VolumeUsage | undefined;
  release(): Promise<void>;
}

/** What a compile of a layer came to; every caller that asked for the layer while it ran gets the same. */
export interface LayerOutcome<T> {
  made: boolean;
  /** The compile's own account when it failed (what ended it), given to the waiting callers too. */
  failed?: T;
  /** Bytes the compile wrote when they were more than the whole layer budget (so no layer was kept). */
  tooLargeBytes?: number;
  /** Why no layer could be made although nothing ended the compile: no scratch space for it (it did not run), or what
   * it wrote could not be kept (the layers' filesystem full). Each caller builds in its own overlay. */
  unavailable?: string;
  /** Set when this outcome is a remembered one: a limit ended the identical compile for the same scope (owner) this
   * long ago, and it was not run again. */
  rememberedMs?: number;
}

/** Limit-ended compiles remembered at most (the oldest forgotten first): a bound on what a stream of graphs can hold. */
export const REMEMBERED_ENDS = 256;

/**
 * The layer key: a hash of the dependency graph and of what defines the compile step (its script and environment, the
 * toolchain). A change to how the step compiles changes the key by itself, so a layer made by an earlier step (which
 * would be read and then help nothing) is never found.
 */
export function layerKey(graph: unknown, recipe: { script: string; env: Record<string, string> }, toolchainVersion: string): string {
  const env = Object.entries(recipe.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return crypto.createHash('sha256').update(JSON.stringify([toolchainVersion, recipe.script, env, graph])).digest('hex').slice(0, 32);
}

/** A scratch space in a plain folder of the layers' filesystem: no bound of its own (for tests of the layer logic). */
export function folderScratch(dir: string, owner: { uid: number; gid: number }): () => Promise<LayerScratch> {
  return async () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    const base = fs.mkdtempSync(path.join(dir, 'scratch-'));
    const folders = scratchFolders(base, owner);
    return { folders, usage: () => undefined, release: async () => fs.rmSync(base, { recursive: true, force: true }) };
  };
}

/**
 * A scratch space on a volume of its own per compile (loop-mounted ext4, as large as a session's): what the compile may
 * write is bounded by the volume, not by the shared cache's filesystem. Nothing of a volume that could not be made
 * (mkfs or mount failed) stays behind.
 */
export function volumeScratch(volumes: SessionVolumes, owner: { uid: number; gid: number }): () => Promise<LayerScratch> {
  return async () => {
    const id = `compile-${crypto.randomBytes(8).toString('hex')}`;
    try {
      // Inside the try: a failed mkfs or mount would leave an image and a mount folder behind, one per attempt.
      await volumes.create(id);
      const folders = scratchFolders(path.join(volumes.mountPoint(id), 'overlay', 'layer'), owner);
      // The fullest the volume was while the compile ran (statfs 4 times a second): a compiler that hit ENOSPC often
      // removes its half-written output before it exits, so the volume looks roomy again by then.
      let fullest: VolumeUsage | undefined;
      const look = () => {
        const now = volumes.usage(id);
        if (now && (!fullest || now.availableBytes < fullest.availableBytes || now.usedInodes > fullest.usedInodes)) {
          fullest = fullest ? { ...now, availableBytes: Math.min(now.availableBytes, fullest.availableBytes), usedBytes: Math.max(now.usedBytes, fullest.usedBytes),
            usedInodes: Math.max(now.usedInodes, fullest.usedInodes) } : now;
        }
        return fullest;
      };
      const watch = setInterval(look, 250);
      watch.unref();
      return {
        folders, usage: look,
        release: async () => {
          clearInterval(watch);
          await volumes.remove(id);
        },
      };
    } catch (error) {
      await volumes.remove(id);
      throw error;
    }
  };
}

/** What identifies a compile step as it will run: its script (packages included) and environment. */
export function stepHash(step: { script: string; env: Record<string, string> }): string {
  return layerKey(null, step, '');
}

/** The overlay folders of a compile inside `base` (the upper owned by the sandbox uid, which writes through it). */
export function scratchFolders(base: string, owner: { uid: number; gid: number }): LayerFolders {
  const folders: LayerFolders = { upper: path.join(base, 'upper'), work: path.join(base, 'work'), merged: path.join(base, 'merged') };
  for (const dir of Object.values(folders)) fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chownSync(folders.upper, owner.uid, owner.gid);
  return folders;
}

/** `cp -a`: keeps modes, times (cargo's fingerprints compare them), links, and overlay whiteouts and xattrs as they are. */
const copyTree = (from: string, to: string) => new Promise<void>((resolve, reject) => {
  execFile('cp', ['-a', '--', from, to], { timeout: 10 * 60_000 }, (error, _stdout, stderr) => {
    if (error) reject(new Error(`cp: ${(stderr || error.message).trim().split('\n')[0]}`));
    else resolve();
  });
});

/** Bytes a folder allocates on disk (blocks, not lengths: a layer of many small files costs its blocks); links not followed. */
export function allocatedBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    // Dirent.parentPath is Node ≥ 20.12; `path` is the same folder on earlier 20.x (package.json allows >= 20).
    const parent = entry.parentPath ?? (entry as { path?: string }).path ?? dir;
    const stat = fs.lstatSync(path.join(parent, entry.name), { throwIfNoEntry: false });
    if (stat) total += stat.blocks * 512;
  }
  return total;
}

export class BuildLayers {
  private readonly making = new Map<string, Promise<LayerOutcome<unknown>>>();
  /**
   * Compiles a limit (time, memory, disk) ended, by scope (the caller's owner) and identical step: a later call of the
   * same step would compile the same packages under the same limits and end the same way, after a whole build's
   * worth of time (a quickstart's verification tried one example after another on one graph, each a 300 s compile).
   * Within `endedMemoryMs` such a call ends at once with the remembered outcome. Per owner, and only the owner whose call
   * ran the compile (not those that waited on it): one tenant's compile that ran out (under load, say) never ends another
   * tenant's later calls. Insertion-ordered, at most REMEMBERED_ENDS.
   */
  private readonly ended = new Map<string, { at: number; outcome: LayerOutcome<unknown> }>();

  constructor(
    /** Host folder holding `<runtime>/<key>/upper` (root-owned; no sandbox mounts it except as an overlay's lower). */
    private readonly root: string,
    /** A fresh scratch space for one compile: its size bounds what the compile may write while it runs. */
    private readonly scratch: () => Promise<LayerScratch>,
    /** A layer used within this long is never removed to make room (a build may be reading it). */
    private readonly busyMs: number,
    /** Bytes every runtime's layers may allocate together (TOOLDEX_SANDBOX_LAYERS_MB). */
    private readonly maxBytes: number,
    /** How long a compile a limit ended is remembered for its scope and step (0: never). */
    private readonly endedMemoryMs = 0,
    private readonly now: () => number = Date.now,
  ) {}

  /** The layer's read-only folder for an overlay's lower list, when it exists; marks it used. */
  find(runtime: string, key: string): string | undefined {
    if (!KEY.test(key)) return undefined;
    const dir = path.join(this.root, runtime, key);
    if (!fs.existsSync(path.join(dir, 'upper'))) return undefined;
    const now = new Date();
    fs.utimesSync(dir, now, now);
    return path.join(dir, 'upper');
  }

  /**
   * Makes the layer with `compile` (given the scratch folders and their usage) unless it exists or this process is running
   * the same compile step for it already: then the caller waits for that compile and gets its outcome (a failure's account
   * too), so N callers of one graph and one step cost one compile. `step` identifies the compile step as it will run
   * (stepHash of its script and environment): a key need not cover it (Go's leaves out the packages, which come from the
   * caller's files), and a compile of other packages that a limit ended says nothing about this caller's, so callers of
   * the same key with another step run their own compile (a stranger's heavy imports must not end everyone's calls). Two
   * compiles of one key (other steps, or two processes sharing the cache) may both run; the first rename wins.
   */
  async make<T>(runtime: string, key: string,
    compile: (folders: LayerFolders, usage: () => VolumeUsage | undefined) => Promise<{ ok: boolean; failed?: T }>,
    step = '', scope = ''): Promise<LayerOutcome<T>> {
    if (!KEY.test(key)) return { made: false };
    if (this.find(runtime, key)) return { made: true };
    const id = `${runtime}/${key}/${step}`;
    const memo = `${scope}\0${id}`;
    const earlier = this.ended.get(memo);
    if (earlier && this.now() - earlier.at < this.endedMemoryMs) return { ...earlier.outcome, rememberedMs: this.now() - earlier.at } as LayerOutcome<T>;
    if (earlier) this.ended.delete(memo);
    let running = this.making.get(id);
    let started = false;
    if (!running) {
      running = this.build(runtime, key, compile).finally(() => this.making.delete(id));
      this.making.set(id, running);
      started = true;
    }
    const outcome = await running as LayerOutcome<T>;
    // Remembered only for the owner whose call ran the compile: a caller that merely waited shares this outcome now but
    // is not refused later (else one tenant who slows the machine until a popular graph's shared compile times out would
    // lock out every owner that happened to wait on it). Only a limit's end (failed carries it); a compile that failed on
    // its own leaves the build to compile, as before.
    if (started && outcome.failed !== undefined && this.endedMemoryMs > 0) this.remember(memo, outcome);
    return outcome;
  }

  /** Records a limit-ended compile for its scope and step; the oldest record goes past REMEMBERED_ENDS. */
  private remember(memo: string, outcome: LayerOutcome<unknown>): void {
    this.ended.delete(memo);
    this.ended.set(memo, { at: this.now(), outcome });
    for (const [old, { at }] of this.ended) {
      if (this.ended.size <= REMEMBERED_ENDS && this.now() - at < this.endedMemoryMs) break;
      this.ended.delete(old);
    }
  }

  private async build<T>(runtime: string, key: string,
    compile: (folders: LayerFolders, usage: () => VolumeUsage | undefined) => Promise<{ ok: boolean; failed?: T }>): Promise<LayerOutcome<T>> {
    const base = path.join(this.root, runtime);
    fs.mkdirSync(base, { recursive: true, mode: 0o755 });
    let space: LayerScratch;
    try {
      space = await this.scratch();
    } catch (error) {
      // No room for a compile (no loop device, a full host disk): no layer now, and each build compiles in its own overlay.
      return { made: false, unavailable: (error as Error).message };
    }
    const temp = path.join(base, `.new-${crypto.randomBytes(6).toString('hex')}`);
    try {
      const compiled = await compile(space.folders, () => space.usage());
      if (!compiled.ok) return { made: false, failed: compiled.failed };
      try {
        // Measured in the scratch space, before anything reaches the layers' filesystem: a layer larger than the whole
        // budget would evict every other layer and then be evicted itself by the next one, so it is not kept at all.
        const bytes = allocatedBytes(space.folders.upper);
        if (bytes > this.maxBytes) return { made: false, tooLargeBytes: bytes };
        fs.mkdirSync(temp, { mode: 0o755 });
        // The overlay is gone with the step's mount namespace; only the upper is kept, and no one writes to it again.
        await copyTree(space.folders.upper, path.join(temp, 'upper'));
        fs.chownSync(path.join(temp, 'upper'), 0, 0);
        fs.chmodSync(path.join(temp, 'upper'), 0o755);
        fs.writeFileSync(path.join(temp, SIZE_FILE), String(allocatedBytes(path.join(temp, 'upper'))));
      } catch (error) {
        // Keeping the layer failed (the layers' filesystem full, the upper unreadable): the compile's work is lost, not
        // the calls: no layer now, and each build compiles in its own overlay, as when no scratch space could be made.
        return { made: false, unavailable: `the compiled layer could not be kept: ${(error as Error).message}` };
      }
      try {
        fs.renameSync(temp, path.join(base, key));
      } catch {
        return { made: true }; // another process made it first
      }
      // Pruning is housekeeping: the layer just made stays usable when another process's prune races this one.
      try {
        this.prune();
      } catch {
        // the next layer made prunes again
      }
      return { made: true };
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
      await space.release();
    }
  }

  /** A layer's bytes as measured when it was made (measured now, and recorded, for a layer made before sizes were kept). */
  private measured(dir: string): number {
    const file = path.join(dir, SIZE_FILE);
    const recorded = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').trim()) : NaN;
    if (Number.isFinite(recorded) && recorded >= 0) return recorded;
    const bytes = allocatedBytes(path.join(dir, 'upper'));
    const { atime, mtime } = fs.statSync(dir);
    fs.writeFileSync(file, String(bytes));
    fs.utimesSync(dir, atime, mtime); // recording the size is no use of the layer
    return bytes;
  }

  /**
   * Removes stale unfinished folders, then the least recently used layers of every runtime while all of them together
   * allocate more than maxBytes — never one used within busyMs (a build may be reading it), so the budget may be passed
   * for a while by layers in use.
   */
  prune(): void {
    const now = Date.now();
    const layers: Array<{ dir: string; used: number; bytes: number }> = [];
    for (const runtime of fs.existsSync(this.root) ? fs.readdirSync(this.root) : []) {
      const base = path.join(this.root, runtime);
      if (!fs.statSync(base).isDirectory()) continue;
      for (const name of fs.readdirSync(base)) {
        const dir = path.join(base, name);
        // Another process sharing the cache may rename or remove an entry between the listing and this look at it.
        const used = fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs;
        if (used === undefined) continue;
        if (name.startsWith('.new-') || name.startsWith('.old-')) {
          if (now - used > this.busyMs) fs.rmSync(dir, { recursive: true, force: true });
        } else if (KEY.test(name)) {
          stillThere(() => layers.push({ dir, used, bytes: this.measured(dir) }));
        }
      }
    }
    let total = layers.reduce((sum, layer) => sum + layer.bytes, 0);
    for (const old of layers.sort((a, b) => a.used - b.used)) {
      if (total <= this.maxBytes) break;
      if (now - old.used <= this.busyMs) continue;
      const gone = path.join(path.dirname(old.dir), `.old-${path.basename(old.dir)}`);
      if (!stillThere(() => fs.renameSync(old.dir, gone))) continue; // another process removed it first
      fs.rmSync(gone, { recursive: true, force: true });
      total -= old.bytes;
    }
  }
}

/** Runs `action` on a cache entry; false when the entry is gone (ENOENT): another process sharing the cache removed it. */
function stillThere(action: () => unknown): boolean {
  try {
    action();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
