// Compiled layers shared between sessions, one per runtime and dependency graph: a compile step (package code only, see
// CompileStep) writes through an overlay into a new folder, which becomes the layer only when the step succeeded, by an
// atomic rename; builds of sessions whose graph has that key then read it beneath their own overlay, read-only. Layers
// are immutable once made, and the least recently used go past MAX_LAYERS.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Layers kept per runtime (a gorm + SQLite graph is ~60 MiB); the least recently used idle ones go first. */
export const MAX_LAYERS = 16;
const KEY = /^[0-9a-f]{16,64}$/;

/** The folders of a layer being made: the overlay's upper (what the compile writes), its work folder and mount point. */
export interface LayerFolders { upper: string; work: string; merged: string }

export class BuildLayers {
  private readonly making = new Map<string, Promise<void>>();

  constructor(
    /** Host folder holding `<runtime>/<key>/upper` (root-owned; no sandbox mounts it except as an overlay's lower). */
    private readonly root: string,
    private readonly owner: { uid: number; gid: number },
    /** A layer used within this long is never removed to make room (a build may be reading it). */
    private readonly busyMs: number,
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
      try {
        fs.renameSync(temp, path.join(base, key));
      } catch {
        return; // another process made it first
      }
      this.prune(runtime);
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
    }
  }

  /** Removes the least recently used layers past MAX_LAYERS, never one used within busyMs, and stale unfinished ones. */
  private prune(runtime: string): void {
    const base = path.join(this.root, runtime);
    const now = Date.now();
    const entries = fs.readdirSync(base).map((name) => ({ name, used: fs.statSync(path.join(base, name)).mtimeMs }));
    for (const stale of entries.filter((entry) => entry.name.startsWith('.new-') && now - entry.used > this.busyMs)) {
      fs.rmSync(path.join(base, stale.name), { recursive: true, force: true });
    }
    const layers = entries.filter((entry) => KEY.test(entry.name)).sort((a, b) => b.used - a.used);
    for (const old of layers.slice(MAX_LAYERS).filter((entry) => now - entry.used > this.busyMs)) {
      const gone = path.join(base, `.old-${old.name}`);
      fs.renameSync(path.join(base, old.name), gone);
      fs.rmSync(gone, { recursive: true, force: true });
    }
  }
}
