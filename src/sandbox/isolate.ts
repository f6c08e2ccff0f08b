// Runs one command in a fresh bubblewrap sandbox: own user/PID/mount/IPC/UTS/network namespaces, an unprivileged
// host uid, read-only system, cgroup limits, rlimits, wall clock and output caps. Knows nothing of runtimes or sessions.
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRunCgroup, type RunLimits } from './limits.ts';
import { startNetwork, type NetworkPolicy, type SandboxNetwork } from './network.ts';
import { CappedOutput } from './output.ts';
import { bwrapArguments, wrapperScript } from './command.ts';

export { writeSandboxEtc } from './command.ts';

export interface Mount {
  host: string;
  dest: string;
  writable?: boolean;
}

export interface HostIdentity {
  /** Unprivileged host uid/gid the sandbox runs as (never root). */
  uid: number;
  gid: number;
  /** World-traversable empty folder the private mount namespace stages bind sources in. */
  stageDir: string;
  /** Folder with the synthesized passwd, group, hosts and resolv.conf. */
  etcDir: string;
  bwrap: string;
}

export interface IsolatedSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Values that must not appear in any host process's argv: handed to the sandbox over a pipe (fd 6), not --setenv. */
  secretEnv?: Record<string, string>;
  mounts: Mount[];
  /** false: no network at all (only loopback inside). */
  network: NetworkPolicy | false;
  timeoutMs: number;
  limits: RunLimits;
  fileSizeBytes: number;
  /** Bytes of each stream kept for the result (cap plus redaction slack). */
  keepBytes: number;
  /** Combined output past which the run is killed (limit "output"). */
  killOutputBytes: number;
  /** Host folders whose size is watched; past maxBytes the run is killed (limit "disk"). */
  diskWatch?: { dirs: string[]; maxBytes: number };
  /** Called with the sandbox's pid once its network is set and before the program starts (tests inspect rules). */
  onReady?: (pid: number) => void | Promise<void>;
}

export type LimitHit = 'memory' | 'pids' | 'output' | 'disk';

export interface IsolatedResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  limit?: LimitHit;
  stdout: CappedOutput;
  stderr: CappedOutput;
  /** Sandbox setup until the program was released (namespaces, cgroups, network). */
  setupMs: number;
  /** Program start to exit. */
  runMs: number;
  /** Set when the sandbox itself could not be built (not the program's fault). */
  setupError?: string;
}

function folderBytes(dirs: string[]): Promise<number> {
  return new Promise((resolve) => {
    execFile('du', ['-sbc', ...dirs], { timeout: 10_000 }, (error, stdout) => {
      const total = /(\d+)\s+total\s*$/.exec(stdout.trim());
      resolve(error && !total ? 0 : Number(total?.[1] ?? 0));
    });
  });
}

export async function runIsolated(spec: IsolatedSpec, identity: HostIdentity): Promise<IsolatedResult> {
  const started = Date.now();
  const cgroup = createRunCgroup(crypto.randomBytes(6).toString('hex'), spec.limits);
  const stdout = new CappedOutput(spec.keepBytes);
  const stderr = new CappedOutput(spec.keepBytes);
  const script = wrapperScript(spec, identity, cgroup.procsFiles, bwrapArguments(spec, identity));
  const child = spawn('unshare', ['--mount', '--propagation', 'private', 'bash', '-c', script], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'ignore', 'pipe'],
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
  });
  let limit: LimitHit | undefined;
  let timedOut = false;
  let network: SandboxNetwork | undefined;
  let setupError: string | undefined;
  let releasedAt = 0;
  const kill = () => {
    cgroup.killAll();
    child.kill('SIGKILL');
  };

  child.stdout?.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    if (stdout.total + stderr.total > spec.killOutputBytes && !limit) {
      limit = 'output';
      kill();
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk);
    if (stdout.total + stderr.total > spec.killOutputBytes && !limit) {
      limit = 'output';
      kill();
    }
  });
  const info = child.stdio[3];
  const block = child.stdio[4];
  info?.on('error', () => undefined);
  block?.on('error', () => undefined);
  const secretPipe = (child.stdio as unknown as Array<import('node:stream').Writable | null>)[6] ?? undefined;
  secretPipe?.on('error', () => undefined);
  secretPipe?.end(Object.entries(spec.secretEnv ?? {})
    .map(([name, value]) => `${name}=${Buffer.from(value, 'utf8').toString('base64')}\n`).join(''));

  let timer: NodeJS.Timeout | undefined;
  let diskTimer: NodeJS.Timeout | undefined;
  let networkStarting: Promise<SandboxNetwork> | undefined;
  const release = async (pid: number) => {
    try {
      if (spec.network) {
        networkStarting = startNetwork(pid, spec.network);
        network = await networkStarting;
      }
      await spec.onReady?.(pid);
    } catch (error) {
      setupError = (error as Error).message;
      kill();
      return;
    }
    releasedAt = Date.now();
    timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.timeoutMs);
    if (spec.diskWatch) {
      const watch = spec.diskWatch;
      const check = async () => {
        if ((await folderBytes(watch.dirs)) > watch.maxBytes && !limit) {
          limit = 'disk';
          kill();
        } else if (child.exitCode === null) diskTimer = setTimeout(check, 1000);
      };
      diskTimer = setTimeout(check, 500);
    }
    (block as import('node:stream').Writable | undefined)?.end('go');
  };

  let infoText = '';
  let releasing = false;
  info?.on('data', (chunk: Buffer) => {
    infoText += chunk.toString();
    const match = /"child-pid"\s*:\s*(\d+)/.exec(infoText);
    if (match && !releasing) {
      releasing = true;
      void release(Number(match[1]));
    }
  });

  const setupTimer = setTimeout(() => {
    if (!releasedAt) {
      setupError = 'the sandbox did not start within 15 s';
      kill();
    }
  }, 15_000);

  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    child.once('error', (error) => {
      setupError = `cannot start the sandbox: ${error.message}`;
      resolve([null, null]);
    });
  });
  const ended = Date.now();
  clearTimeout(timer);
  clearTimeout(diskTimer);
  clearTimeout(setupTimer);
  // The sandbox may have died while its network was still coming up: wait for that, then stop it either way.
  (network ?? await networkStarting?.catch(() => undefined))?.stop();
  if (!limit && cgroup.memoryLimitHit()) limit = 'memory';
  if (!limit && cgroup.pidsLimitHit()) limit = 'pids';
  await cgroup.remove();
  if (!releasedAt) {
    const said = stderr.finish((t) => t).trim().slice(0, 500);
    setupError = [setupError ?? 'the sandbox failed to start', said].filter(Boolean).join(': ');
  }
  return {
    exitCode: code,
    signal,
    timedOut,
    limit,
    stdout,
    stderr,
    setupMs: (releasedAt || ended) - started,
    runMs: releasedAt ? ended - releasedAt : 0,
    setupError,
  };
}

/** A stage folder every sandbox uid can traverse; each run mounts its own tmpfs over it in a private namespace. */
export function ensureStageDir(): string {
  const dir = path.join(os.tmpdir(), 'tooldex-sandbox-stage');
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  return dir;
}
