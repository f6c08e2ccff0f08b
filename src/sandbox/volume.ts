// One ext4 filesystem image per session, loop-mounted while the session is in use: its size and inode count are the
// session's quota in real blocks and files, and the image's allocated blocks are what it costs the host's disk.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface VolumeQuota {
  bytes: number;
  inodes: number;
}

export interface VolumeUsage {
  usedBytes: number;
  limitBytes: number;
  /** What an unprivileged write may still take: ext4 keeps a reserve (2 % of the blocks, at most 4096) back from it. */
  availableBytes: number;
  usedInodes: number;
  limitInodes: number;
}

/** Folders of a mounted session volume: the workspace, fetch-written packages, run-written build output, cache overlay. */
export const VOLUME_DIRS = { work: 'work', deps: 'deps', build: 'build', overlay: 'overlay' } as const;

const INODE_BYTES = 256;
const BLOCK = 4096;

const exec = (file: string, args: string[]) => new Promise<void>((resolve, reject) => {
  execFile(file, args, { timeout: 30_000 }, (error, _stdout, stderr) => {
    if (error) reject(new Error(`${file} ${args[0] ?? ''}: ${(stderr || error.message).trim().split('\n')[0]}`));
    else resolve();
  });
});

/** The image's size: the quota plus room for the inode tables and bitmaps, so files get the whole quota. */
export function imageBytes(quota: VolumeQuota): number {
  const raw = quota.bytes + quota.inodes * INODE_BYTES + Math.ceil(quota.bytes / 128);
  return Math.ceil(raw / BLOCK) * BLOCK;
}

/** True when `dir` is a mount point (its device differs from its parent's). */
export function isMountPoint(dir: string): boolean {
  try {
    return fs.statSync(dir).dev !== fs.statSync(path.dirname(dir)).dev;
  } catch {
    return false;
  }
}

export class SessionVolumes {
  constructor(
    /** Where the images live (the instance's home: root only). */
    readonly root: string,
    /** Where they are mounted (the exposure folder: the sandbox gid can traverse it, nobody else). */
    readonly mountRoot: string,
    private readonly owner: { uid: number; gid: number },
    private readonly quota: VolumeQuota,
  ) {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  }

  image(id: string): string {
    return path.join(this.root, `${id}.img`);
  }

  mountPoint(id: string): string {
    return path.join(this.mountRoot, id);
  }

  dir(id: string, which: keyof typeof VOLUME_DIRS): string {
    return path.join(this.mountPoint(id), VOLUME_DIRS[which]);
  }

  /** Formats and mounts a new volume with its folders (about 15 ms: a sparse file, mkfs without a journal, a loop mount). */
  async create(id: string): Promise<void> {
    const image = this.image(id);
    const fd = fs.openSync(image, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
    fs.ftruncateSync(fd, imageBytes(this.quota));
    fs.closeSync(fd);
    // No journal: a session is disposable, and a crash is caught by the fsck before the next mount.
    await exec('mkfs.ext4', ['-q', '-F', '-b', String(BLOCK), '-O', '^has_journal,^resize_inode', '-N', String(this.quota.inodes),
      '-m', '0', '-E', 'lazy_itable_init=1,nodiscard', '-L', 'tooldex-session', image]);
    await this.mount(id, false);
    const top = this.mountPoint(id);
    fs.rmSync(path.join(top, 'lost+found'), { recursive: true, force: true });
    for (const name of ['work', 'deps', 'build'] as const) {
      fs.mkdirSync(path.join(top, name), { mode: 0o755 });
      fs.chownSync(path.join(top, name), this.owner.uid, this.owner.gid);
    }
    // The cache overlay's folders live outside anything a sandbox sees, so a run cannot plant links in their path; bwrap
    // (the sandbox gid) only needs to reach the merged mount point.
    fs.mkdirSync(path.join(top, 'overlay'), { mode: 0o710 });
    fs.chownSync(path.join(top, 'overlay'), 0, this.owner.gid);
  }

  /** Mounts the session's volume if it is not mounted (a restart, or an idle unmount); checks it first when needed. */
  async ensureMounted(id: string): Promise<void> {
    if (isMountPoint(this.mountPoint(id))) return;
    await this.mount(id, true);
  }

  private async mount(id: string, check: boolean): Promise<void> {
    const dir = this.mountPoint(id);
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    // nodev/nosuid: nothing a run writes can become a device or a set-uid binary; discard returns freed blocks to the host.
    const args = ['-t', 'ext4', '-o', 'loop,nodev,nosuid,noatime,discard,noinit_itable', this.image(id), dir];
    try {
      await exec('mount', args);
    } catch (error) {
      if (!check) throw error;
      await exec('e2fsck', ['-p', this.image(id)]).catch(() => undefined);
      await exec('mount', args);
    }
  }

  async unmount(id: string): Promise<void> {
    const dir = this.mountPoint(id);
    if (!isMountPoint(dir)) return;
    // A host process still inside (a measurement) makes a plain umount fail: detach lazily then, the loop device follows.
    await exec('umount', [dir]).catch(() => exec('umount', ['--lazy', dir]));
  }

  async remove(id: string): Promise<void> {
    await this.unmount(id).catch(() => undefined);
    // Never recursive: if the unmount failed, the empty-folder check keeps rm from walking into a live volume.
    try {
      fs.rmdirSync(this.mountPoint(id));
    } catch {
      // still mounted (detached lazily later) or already gone
    }
    fs.rmSync(this.image(id), { force: true });
  }

  exists(id: string): boolean {
    return fs.existsSync(this.image(id));
  }

  /** Blocks and inodes in use inside the volume (statfs of the mounted filesystem). */
  usage(id: string): VolumeUsage | undefined {
    const dir = this.mountPoint(id);
    if (!isMountPoint(dir)) return undefined;
    const stats = fs.statfsSync(dir);
    return {
      usedBytes: (stats.blocks - stats.bfree) * stats.bsize,
      limitBytes: this.quota.bytes,
      availableBytes: stats.bavail * stats.bsize,
      usedInodes: stats.files - stats.ffree,
      limitInodes: stats.files,
    };
  }

  /** What the session costs the host's disk: the image's allocated blocks (sparse, freed blocks discarded). */
  hostBytes(id: string): number {
    try {
      return fs.statSync(this.image(id)).blocks * 512;
    } catch {
      return 0;
    }
  }

  /** Session ids with an image on this disk. */
  list(): string[] {
    return fs.readdirSync(this.root).filter((name) => name.endsWith('.img')).map((name) => name.slice(0, -4));
  }
}
