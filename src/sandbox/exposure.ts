// The instance's exposure folder: one root-owned folder, traversable only by the sandbox gid (mode 0710), that holds
// everything a sandbox binds — session volumes, the shared caches and each toolchain folder, bound in once at start —
// so bubblewrap, already running as the sandbox uid, binds them directly and no run needs a mount of its own.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolchainMount, Toolchains } from './toolchains.ts';
import { isMountPoint } from './volume.ts';

const exec = (file: string, args: string[]) => new Promise<void>((resolve, reject) => {
  execFile(file, args, { timeout: 30_000 }, (error, _stdout, stderr) => {
    if (error) reject(new Error(`${file} ${args.join(' ')}: ${(stderr || error.message).trim().split('\n')[0]}`));
    else resolve();
  });
});

/** /run when it is there (cleared at boot, as the mounts are), else the temp folder. */
export function exposureBase(): string {
  return fs.existsSync('/run') ? '/run/tooldex-sandbox' : path.join(os.tmpdir(), 'tooldex-sandbox-run');
}

export class Exposure {
  readonly etcDir: string;
  readonly sessionsDir: string;
  readonly cacheDir: string;
  private readonly binds: string[] = [];

  constructor(readonly root: string, private readonly gid: number) {
    this.etcDir = path.join(root, 'etc');
    this.sessionsDir = path.join(root, 'sessions');
    this.cacheDir = path.join(root, 'cache');
  }

  /** Creates the folder (root:gid 0710) and its sub-folders; idempotent. */
  prepare(): void {
    fs.mkdirSync(path.dirname(this.root), { recursive: true, mode: 0o755 });
    fs.mkdirSync(this.root, { recursive: true });
    fs.chownSync(this.root, 0, this.gid);
    fs.chmodSync(this.root, 0o710);
    for (const dir of [this.etcDir, this.sessionsDir, path.join(this.root, 'tc')]) fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.mkdirSync(this.cacheDir, { recursive: true, mode: 0o755 });
  }

  /** Binds `source` at `target` (a file or a folder), replacing a stale bind a crashed process left. */
  private async bind(source: string, target: string): Promise<void> {
    if (isMountPoint(target) || fs.existsSync(target) && fs.statSync(target).isFile() && isBound(target)) {
      await exec('umount', ['--lazy', target]).catch(() => undefined);
    }
    if (fs.statSync(source).isDirectory()) fs.mkdirSync(target, { recursive: true, mode: 0o755 });
    else if (!fs.existsSync(target)) fs.writeFileSync(target, '', { mode: 0o644 });
    await exec('mount', ['--bind', source, target]);
    this.binds.push(target);
  }

  /** Binds the shared cache folder in (read-write: fetch steps write through it). */
  async exposeCache(cacheRoot: string): Promise<void> {
    await this.bind(cacheRoot, this.cacheDir);
  }

  /** Binds every toolchain folder in once and returns the toolchains with their mounts' host paths pointing there. */
  async exposeToolchains(toolchains: Toolchains): Promise<Toolchains> {
    const targets = new Map<string, string>();
    const expose = async (mounts: ToolchainMount[]): Promise<ToolchainMount[]> => {
      const result: ToolchainMount[] = [];
      for (const mount of mounts) {
        if (mount.copy) {
          result.push({ host: copyTooling(mount.host), dest: mount.dest });
          continue;
        }
        let target = targets.get(mount.host);
        if (!target) {
          target = path.join(this.root, 'tc', String(targets.size));
          targets.set(mount.host, target);
          await this.bind(mount.host, target);
        }
        result.push({ host: target, dest: mount.dest });
      }
      return result;
    };
    const exposed = { ...toolchains };
    for (const [runtime, toolchain] of Object.entries(toolchains) as Array<[keyof Toolchains, Toolchains[keyof Toolchains]]>) {
      if (!toolchain.available) continue;
      exposed[runtime] = {
        ...toolchain,
        mounts: await expose(toolchain.mounts),
        fetchMounts: await expose(toolchain.fetchMounts),
        runMounts: await expose(toolchain.runMounts),
      };
    }
    return exposed;
  }

  /**
   * Unbinds everything and removes the folder (server shutdown). Removal is never recursive: a bind that failed to go
   * away must not turn into deleting the toolchain or cache behind it.
   */
  async tearDown(): Promise<void> {
    for (const target of this.binds.splice(0).reverse()) {
      await exec('umount', [target]).catch(() => exec('umount', ['--lazy', target])).catch(() => undefined);
    }
    const quietly = (remove: () => void) => {
      try {
        remove();
      } catch {
        // still mounted or not empty: left in place
      }
    };
    const tc = path.join(this.root, 'tc');
    for (const name of fs.existsSync(tc) ? fs.readdirSync(tc) : []) {
      const target = path.join(tc, name);
      quietly(() => (fs.statSync(target).isDirectory() ? fs.rmdirSync(target) : !isBound(target) && fs.statSync(target).size === 0 && fs.unlinkSync(target)));
    }
    for (const name of fs.existsSync(this.etcDir) ? fs.readdirSync(this.etcDir) : []) quietly(() => fs.unlinkSync(path.join(this.etcDir, name)));
    for (const name of fs.existsSync(this.sessionsDir) ? fs.readdirSync(this.sessionsDir) : []) quietly(() => fs.rmdirSync(path.join(this.sessionsDir, name)));
    for (const dir of [tc, this.etcDir, this.sessionsDir, this.cacheDir, this.root]) quietly(() => fs.rmdirSync(dir));
  }
}

/**
 * A copy of a small tooling folder (tsx and its dependencies) in the machine's tooling folder, made once per version
 * (the name hashes the source path and its package.json): a sandbox's mount table then names no path of the service.
 */
function copyTooling(source: string): string {
  const manifest = path.join(source, 'package.json');
  const stamp = fs.existsSync(manifest) ? fs.readFileSync(manifest) : Buffer.from(String(fs.statSync(source).mtimeMs));
  const digest = crypto.createHash('sha256').update(source).update(stamp).digest('hex').slice(0, 16);
  const base = path.join(exposureBase(), 'tooling');
  const target = path.join(base, `${path.basename(source)}-${digest}`);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  const partial = `${target}.${process.pid}.partial`;
  fs.cpSync(source, partial, { recursive: true, preserveTimestamps: true });
  try {
    fs.renameSync(partial, target);
  } catch {
    fs.rmSync(partial, { recursive: true, force: true }); // another process made it first
  }
  return target;
}

/** A bind-mounted file shows as a mount in mountinfo; a plain file does not. */
function isBound(file: string): boolean {
  try {
    return fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((line) => line.split(' ')[4] === file);
  } catch {
    return false;
  }
}
