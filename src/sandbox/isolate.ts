// Runs one command in a fresh bubblewrap sandbox: own user/PID/mount/IPC/UTS/network namespaces, an unprivileged
// host uid, read-only system, cgroup limits, rlimits, wall clock and output caps. Knows nothing of runtimes or sessions.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import type { Writable } from 'node:stream';
import { bwrapArguments, FD, startedCommand, systemBinary, wrapperScript } from './command.ts';
import { createRunCgroup } from './limits.ts';
import { startNetwork, type SandboxNetwork } from './network.ts';
import { CappedOutput } from './output.ts';
import type { HostIdentity, IsolatedSpec } from './isolated-spec.ts';

export { writeSandboxEtc } from './command.ts';
export type { HostIdentity, IsolatedSpec, Mount, OverlayMount } from './isolated-spec.ts';

export type LimitHit = 'memory' | 'pids' | 'output';

export interface IsolatedResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  limit?: LimitHit;
  stdout: CappedOutput;
  stderr: CappedOutput;
  /** Sandbox setup until the program was released (namespaces, cgroups, network), over every attempt. */
  setupMs: number;
  /** Program start to exit. */
  runMs: number;
  /** Set when the sandbox itself could not be built, after the retries (not the program's fault). */
  setupError?: string;
  /** Sandbox builds that failed and were retried. */
  retries: number;
}

/** The wrapper's programs by absolute path: it starts with no PATH. */
const UNSHARE = systemBinary('unshare');
const BASH = systemBinary('bash');

/** Attempts per step: a set-up failure happens before any of the caller's code ran, so trying again is safe. */
const ATTEMPTS = 3;

export async function runIsolated(spec: IsolatedSpec, identity: HostIdentity): Promise<IsolatedResult> {
  let setupMs = 0;
  for (let attempt = 1; ; attempt++) {
    const result = await attemptIsolated(spec, identity);
    setupMs += result.setupMs;
    if (!result.setupError || attempt >= ATTEMPTS) return { ...result, setupMs, retries: attempt - 1 };
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}

async function attemptIsolated(spec: IsolatedSpec, identity: HostIdentity): Promise<Omit<IsolatedResult, 'retries'>> {
  const started = Date.now();
  const cgroup = createRunCgroup(crypto.randomBytes(6).toString('hex'), spec.limits, spec.owner);
  const stdout = new CappedOutput(spec.keepBytes);
  const stderr = new CappedOutput(spec.keepBytes);
  const script = wrapperScript(spec, identity, cgroup.procsFiles, startedCommand(spec.argv));
  const stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'ignore', 'ignore', 'pipe', 'pipe'];
  // A mount namespace only when root must mount something (a cache overlay): unsharing one copies the host's mount table.
  const namespaces = spec.overlays?.length ? ['--net', '--mount', '--propagation', 'private'] : ['--net'];
  // From / with an empty environment: nothing of the service (its working folder, its variables) reaches the wrapper,
  // and so nothing reaches the sandbox's first process (/proc/1/environ inside is bwrap's, inherited from here).
  const child = spawn(UNSHARE, [...namespaces, BASH, '-c', script], { stdio, cwd: '/', env: {} });
  const pipes = child.stdio as unknown as Array<(Writable & NodeJS.ReadableStream) | null>;
  let limit: LimitHit | undefined;
  let timedOut = false;
  let network: SandboxNetwork | undefined;
  let networkStarting: Promise<SandboxNetwork> | undefined;
  let setupError: string | undefined;
  let releasedAt = 0;
  let startedAt = 0;
  const kill = () => {
    cgroup.killAll();
    child.kill('SIGKILL');
  };
  for (const index of [FD.ready, FD.go, FD.args, FD.started]) pipes[index]?.on('error', () => undefined);

  const watchOutput = (capture: CappedOutput) => (chunk: Buffer) => {
    capture.push(chunk);
    if (stdout.total + stderr.total > spec.killOutputBytes && !limit) {
      limit = 'output';
      kill();
    }
  };
  child.stdout?.on('data', watchOutput(stdout));
  child.stderr?.on('data', watchOutput(stderr));
  // NUL-separated, so a value may hold any character but NUL (which no environment variable can hold).
  pipes[FD.args]?.end(`${bwrapArguments(spec, identity).join('\0')}\0`);

  let timer: NodeJS.Timeout | undefined;
  // The wall clock starts with the program's first instruction (the marker on FD.started), not with sandbox set-up.
  pipes[FD.started]?.once('data', () => {
    startedAt = Date.now();
    timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.timeoutMs);
  });
  const release = async () => {
    try {
      if (spec.network) {
        const firewall = identity.firewall?.ensure(spec.network.hostPorts);
        networkStarting = startNetwork(`/proc/${child.pid}/ns/net`, spec.network, identity.gid);
        const [joined] = await Promise.all([networkStarting, firewall]);
        network = joined;
      }
      await spec.onReady?.(child.pid ?? 0);
    } catch (error) {
      setupError = (error as Error).message;
      kill();
      return;
    }
    releasedAt = Date.now();
    pipes[FD.go]?.end('go\n');
  };
  // The namespace exists once the wrapper says so: joining /proc/<pid>/ns/net any earlier could join the host's.
  pipes[FD.ready]?.once('data', () => void release());

  const setupTimer = setTimeout(() => {
    if (!startedAt) {
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
  clearTimeout(setupTimer);
  // The sandbox may have died while its network was still coming up: wait for that, then stop it either way.
  (network ?? await networkStarting?.catch(() => undefined))?.stop();
  if (!limit && cgroup.memoryLimitHit()) limit = 'memory';
  if (!limit && cgroup.pidsLimitHit()) limit = 'pids';
  await cgroup.remove();
  // Anything that ended before the program's first instruction is the sandbox's failure (bwrap, mounts, network).
  if (!startedAt) {
    timedOut = false;
    limit = undefined;
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
    setupMs: (startedAt || releasedAt || ended) - started,
    runMs: startedAt ? ended - startedAt : 0,
    setupError,
  };
}
