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
import { seccompFilter } from './seccomp.ts';

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

const shq = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The /etc a sandbox sees: the host's TLS roots and loader cache, plus synthesized identity and DNS files. */
const SYSTEM_RO = ['/usr', '/etc/ssl', '/etc/ca-certificates', '/etc/alternatives', '/etc/ld.so.cache', '/etc/localtime',
  '/etc/nsswitch.conf', '/etc/mime.types', '/etc/gemrc'];
const SYNTHESIZED_ETC = ['passwd', 'group', 'hosts', 'resolv.conf'];

export function writeSandboxEtc(etcDir: string, dns: string): void {
  fs.mkdirSync(etcDir, { recursive: true });
  fs.chmodSync(etcDir, 0o755); // bwrap, already running as the sandbox uid, reads these files through the stage
  fs.writeFileSync(path.join(etcDir, 'passwd'), 'root:x:0:0:root:/root:/usr/sbin/nologin\nsandbox:x:1000:1000:sandbox:/work:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n');
  fs.writeFileSync(path.join(etcDir, 'group'), 'root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n');
  fs.writeFileSync(path.join(etcDir, 'hosts'), '127.0.0.1 localhost sandbox\n::1 localhost\n');
  fs.writeFileSync(path.join(etcDir, 'resolv.conf'), `nameserver ${dns}\n`);
  fs.writeFileSync(path.join(etcDir, 'seccomp.bpf'), seccompFilter());
  for (const file of fs.readdirSync(etcDir)) fs.chmodSync(path.join(etcDir, file), 0o644);
}

/** The shell run as root in a private mount namespace: join the cgroups, stage bind sources, set rlimits, drop to the sandbox uid. */
function wrapperScript(spec: IsolatedSpec, identity: HostIdentity, procsFiles: string[], bwrapArgs: string[]): string {
  // Descriptors the server itself inherited (a supervisor's pipes) must not reach the sandbox: close all but 0-4.
  const lines = ['for fd in /proc/$$/fd/*; do n=${fd##*/}; case $n in 0|1|2|3|4|6) ;; *) eval "exec $n>&-" 2>/dev/null || true;; esac; done',
    'set -e'];
  for (const file of procsFiles) lines.push(`echo $$ > ${shq(file)}`);
  const stage = identity.stageDir;
  lines.push(`mount -t tmpfs -o mode=755,size=64k tooldex-stage ${shq(stage)}`);
  // One mkdir for every mount point (each external command costs a few ms per run), then the binds.
  const dirs = [`${stage}/etc`];
  spec.mounts.forEach((mount, index) => {
    const target = `${stage}/${index}`;
    if (fs.statSync(mount.host).isDirectory()) dirs.push(target);
    else lines.push(`: > ${shq(target)}`);
  });
  lines.push(`mkdir ${dirs.map(shq).join(' ')}`);
  spec.mounts.forEach((mount, index) => lines.push(`mount --bind ${shq(mount.host)} ${shq(`${stage}/${index}`)}`));
  lines.push(`mount --bind ${shq(identity.etcDir)} ${shq(`${stage}/etc`)}`);
  lines.push(`exec 5< ${shq(`${stage}/etc/seccomp.bpf`)}`);
  lines.push('ulimit -c 0', `ulimit -f ${Math.ceil(spec.fileSizeBytes / 512)}`, 'ulimit -n 4096');
  lines.push(`exec setpriv --reuid ${identity.uid} --regid ${identity.gid} --clear-groups --inh-caps=-all --bounding-set=-all ` +
    `${shq(identity.bwrap)} ${bwrapArgs.map(shq).join(' ')}`);
  return lines.join('\n');
}

function bwrapArguments(spec: IsolatedSpec, identity: HostIdentity): string[] {
  const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session',
    '--uid', '1000', '--gid', '1000', '--hostname', 'sandbox', '--cap-drop', 'ALL', '--clearenv', '--seccomp', '5'];
  for (const dir of SYSTEM_RO) if (fs.existsSync(dir)) args.push('--ro-bind', dir, dir);
  args.push('--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin', '--symlink', 'usr/lib', '/lib',
    '--symlink', 'usr/lib64', '/lib64');
  for (const file of SYNTHESIZED_ETC) args.push('--ro-bind', `${identity.stageDir}/etc/${file}`, `/etc/${file}`);
  args.push('--proc', '/proc', '--dev', '/dev', '--size', String(256 * 1024 * 1024), '--tmpfs', '/tmp',
    '--dir', '/var/tmp');
  spec.mounts.forEach((mount, index) => {
    args.push(mount.writable ? '--bind' : '--ro-bind', `${identity.stageDir}/${index}`, mount.dest);
  });
  for (const [name, value] of Object.entries(spec.env)) args.push('--setenv', name, value);
  args.push('--chdir', spec.cwd, '--info-fd', '3', '--block-fd', '4', '--', ...withSecretEnv(spec));
  return args;
}

/** Secrets arrive as NAME=base64 lines on fd 6 and are exported inside the sandbox; the x keeps trailing newlines. */
const SECRET_LOADER = 'while IFS== read -r n v <&6; do v=$(printf %s "$v" | base64 -d; echo x); export "$n=${v%x}"; done; exec 6<&-; exec "$@"';

function withSecretEnv(spec: IsolatedSpec): string[] {
  if (!spec.secretEnv || Object.keys(spec.secretEnv).length === 0) return spec.argv;
  return ['/bin/sh', '-c', SECRET_LOADER, 'sandbox-env', ...spec.argv];
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
