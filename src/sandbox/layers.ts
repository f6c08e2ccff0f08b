// Compiled layers shared between sessions, one per runtime and dependency graph: a compile step (package code only, see
// CompileStep) writes through an overlay into a new folder, which becomes the layer only when the step succeeded, by an
// atomic rename; builds of sessions whose graph has that key then read it beneath their own overlay, read-only. Layers
// are immutable once made; past a byte budget (every runtime's layers together) the least recently used go.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY = /^[0-9a-f]{16,64}$/;
/** Beside a layer's `upper`: the bytes it allocates, measured once when it was made (a layer never changes). */
const SIZE_FILE = 'bytes';

/** The folders of a layer being made: the overlay's upper (what the compile writes), its work folder and mount point. */
export interface LayerFolders { upper: string; work: string; merged: string }

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
  private readonly making = new Map<string, Promise<void>>();

  constructor(
    /** Host folder holding `<runtime>/<key>/upper` (root-owned; no sandbox mounts it except as an overlay's lower). */
    private readonly root: string,
    private readonly owner: { uid: number; gid: number },
    /** A layer used within this long is never removed to make room (a build may be reading it). */
    private readonly busyMs: number,
    /** Bytes every runtime's layers may allocate together (TOOLDEX_SANDBOX_LAYERS_MB). */
    private readonly maxBytes: number,
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
   * Makes the layer with `compile` (given fresh folders; true on success) unless it exists or this process is making it
   * already (then waits for that). Two processes sharing the cache may both compile; the first rename wins.
   */
  async make(runtime: string, key: string, compile: (folders: LayerFolders) => Promise<boolean>): Promise<void> {
    if (!KEY.test(key) || this.find(runtime, key)) return;
    const id = `${runtime}/${key}`;
    let running = this.making.get(id);
    if (!running) {
      running = this.build(runtime, key, compile).finally(() => this.making.delete(id));
      this.making.set(id, running);
    }
    await running;
  }

  private async build(runtime: string, key: string, compile: (folders: LayerFolders) => Promise<boolean>): Promise<void> {
    const base = path.join(this.root, runtime);
    fs.mkdirSync(base, { recursive: true, mode: 0o755 });
    const temp = path.join(base, `.new-${crypto.randomBytes(6).toString('hex')}`);
    const folders: LayerFolders = { upper: path.join(temp, 'upper'), work: path.join(temp, 'work'), merged: path.join(temp, 'merged') };
    fs.mkdirSync(temp, { mode: 0o755 });
    for (const dir of Object.values(folders)) fs.mkdirSync(dir, { mode: 0o755 });
    fs.chownSync(folders.upper, this.owner.uid, this.owner.gid);
    try {
      if (!await compile(folders)) return;
      // The overlay is gone with the step's mount namespace; only the upper is kept, and no one writes to it again.
      fs.rmSync(folders.work, { recursive: true, force: true });
      fs.chownSync(folders.upper, 0, 0);
      fs.chmodSync(folders.upper, 0o755);
      fs.writeFileSync(path.join(temp, SIZE_FILE), String(allocatedBytes(folders.upper)));
      try {
        fs.renameSync(temp, path.join(base, key));
      } catch {
        return; // another process made it first
      }
      // Pruning is housekeeping: the layer just made stays usable when another process's prune races this one.
      try {
        this.prune();
      } catch {
        // the next layer made prunes again
      }
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
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
