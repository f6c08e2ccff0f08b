// Turns a runtime adapter's abstract Step into an isolated run: which folders are mounted where, writable or not,
// and the limits of the step. The one place that maps session folders and caches to sandbox paths.
import fs from 'node:fs';
import path from 'node:path';
import { runIsolated, type HostIdentity, type IsolatedResult, type Mount } from './isolate.ts';
import type { RunLimits } from './limits.ts';
import { OUTPUT_CAP_BYTES } from './output.ts';
import { CACHE, DEPS, WORKSPACE, type Step } from './runtimes/types.ts';
import type { Session } from './sessions.ts';
import type { Toolchain } from './toolchains.ts';

export interface StepOptions {
  identity: HostIdentity;
  toolchain: Toolchain;
  session: Session;
  cacheDir: string;
  limits: RunLimits;
  timeoutMs: number;
  sessionQuotaBytes: number;
  extraEnv?: Record<string, string>;
  secretEnv?: Record<string, string>;
  redactionSlack?: number;
  onReady?: (pid: number) => void | Promise<void>;
}

export const KILL_OUTPUT_BYTES = 1024 * 1024;

export function stepMounts(step: Step, options: Pick<StepOptions, 'toolchain' | 'session' | 'cacheDir'>): Mount[] {
  const { session } = options;
  const mounts: Mount[] = options.toolchain.mounts.map((dir) => ({ host: dir, dest: dir }));
  if (step.workspace === 'rw') mounts.push({ host: session.workDir, dest: WORKSPACE, writable: true });
  mounts.push({ host: session.depsDir, dest: DEPS, writable: step.deps === 'rw' });
  if (step.cache !== 'none') mounts.push({ host: options.cacheDir, dest: CACHE, writable: step.cache === 'rw' });
  if (step.depsIntoWorkspace && step.workspace === 'rw') {
    const source = path.join(session.depsDir, step.depsIntoWorkspace);
    // Root binds this path: it must be a real folder, never a link (only trusted steps write deps, but be sure).
    if (fs.lstatSync(source, { throwIfNoEntry: false })?.isDirectory()) mounts.push({ host: source, dest: `${WORKSPACE}/${step.depsIntoWorkspace}` });
  }
  return mounts;
}

export function runStep(step: Step, options: StepOptions): Promise<IsolatedResult> {
  return runIsolated({
    argv: ['/bin/sh', '-c', step.script],
    cwd: step.workspace === 'rw' ? WORKSPACE : DEPS,
    env: { ...step.env, ...options.extraEnv },
    secretEnv: options.secretEnv,
    mounts: stepMounts(step, options),
    network: step.network,
    timeoutMs: options.timeoutMs,
    limits: options.limits,
    fileSizeBytes: options.sessionQuotaBytes,
    keepBytes: OUTPUT_CAP_BYTES + (options.redactionSlack ?? 0) + 64,
    killOutputBytes: KILL_OUTPUT_BYTES,
    diskWatch: { dirs: [options.session.workDir, options.session.depsDir], maxBytes: options.sessionQuotaBytes },
    onReady: options.onReady,
  }, options.identity);
}
