// Turns a runtime adapter's Step into an isolated run, and is where the trust boundary is enforced: a fetch step gets
// the shared cache and /deps writable and nothing of the session's own files; a run step gets the session's files and
// /build writable, /deps read-only and the shared cache at most through an overlay whose writes stay in the session.
import fs from 'node:fs';
import path from 'node:path';
import { runIsolated, type HostIdentity, type IsolatedResult, type IsolatedSpec, type Mount, type OverlayMount } from './isolate.ts';
import type { RunLimits } from './limits.ts';
import { OUTPUT_CAP_BYTES } from './output.ts';
import { BUILD, CACHE, DEPS, FETCH_CWD, WORKSPACE, type Step } from './runtimes/types.ts';
import type { LayerFolders } from './layers.ts';
import type { Toolchain } from './toolchains.ts';

/** Host folders of one session's volume. */
export interface SessionFolders {
  work: string;
  deps: string;
  build: string;
  /** Root-only folder holding the cache overlay's upper and work folders (never mounted into a sandbox itself). */
  overlay: string;
}

export interface StepOptions {
  identity: HostIdentity;
  toolchain: Toolchain;
  folders: SessionFolders;
  /** The runtime's shared cache folder on the host. */
  cacheDir: string;
  limits: RunLimits;
  owner: string;
  timeoutMs: number;
  /** Largest single file (RLIMIT_FSIZE): the session quota. */
  fileSizeBytes: number;
  extraEnv?: Record<string, string>;
  /** Compiled layers (host folders) a run step's cache overlay reads beneath its own writes, above the shared cache. */
  cacheLayers?: string[];
  /** A compile step's new layer: its overlay writes land there. */
  layer?: LayerFolders;
  redactionSlack?: number;
  onReady?: (pid: number) => void | Promise<void>;
}

export const KILL_OUTPUT_BYTES = 1024 * 1024;

const SYSTEM_CA = '/etc/ssl/certs/ca-certificates.crt';
/**
 * The host's trust store, named for the runtimes that keep their own (node's bundled roots, Python's certifi): TLS
 * inside a sandbox trusts what the host trusts (an operator's egress proxy CA included), nothing more. Node reads it
 * through OpenSSL when it first needs it (--use-openssl-ca); NODE_EXTRA_CA_CERTS would parse it at every start (~0.1 s).
 */
export const TLS_ENV: Record<string, string> = fs.existsSync(SYSTEM_CA)
  ? { SSL_CERT_FILE: SYSTEM_CA, REQUESTS_CA_BUNDLE: SYSTEM_CA, PIP_CERT: SYSTEM_CA, NODE_OPTIONS: '--use-openssl-ca' }
  : {};

/**
 * The overlay folders of a session (created on first use; the upper is owned so the sandbox uid can write through it).
 * `overlay` reads the compiled layers above the shared cache; `layers` reads the compiled layers only (the shared cache
 * stays unseen), or a root-owned empty folder when there is none (an overlay needs a lower).
 */
function cacheOverlay(options: StepOptions, mode: 'overlay' | 'layers'): OverlayMount {
  const [upper, work, merged, empty] = ['upper', 'work', 'merged', 'empty'].map((name) => path.join(options.folders.overlay, name)) as [string, string, string, string];
  for (const dir of [upper, work, merged]) {
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(dir, { mode: 0o755 });
      if (dir === upper) fs.chownSync(dir, options.identity.uid, options.identity.gid);
    }
  }
  const layers = options.cacheLayers ?? [];
  if (mode === 'layers' && layers.length === 0 && !fs.existsSync(empty)) fs.mkdirSync(empty, { mode: 0o755 });
  const lower = mode === 'overlay' ? [...layers, options.cacheDir] : layers.length ? layers : [empty];
  return { lower: lower.join(':'), upper, work, merged, dest: CACHE };
}

export function stepSpec(step: Step, options: StepOptions): Omit<IsolatedSpec, 'timeoutMs'> {
  const { folders, toolchain } = options;
  const mounts: Mount[] = toolchain.mounts.map((mount) => ({ ...mount }));
  const overlays: OverlayMount[] = [];
  let hidden: string[] = [];
  let cwd: string;
  if (step.kind === 'fetch') {
    mounts.push(...toolchain.fetchMounts, { host: folders.deps, dest: DEPS, writable: true }, { host: options.cacheDir, dest: CACHE, writable: true });
    cwd = FETCH_CWD;
  } else if (step.kind === 'compile') {
    // Package code only: nothing of the session's (no workspace, no /build), /deps read-only, and the shared cache seen
    // through an overlay whose writes land in the new layer, never in the shared cache.
    if (!options.layer) throw new Error('a compile step needs the folders of its layer');
    mounts.push({ host: folders.deps, dest: DEPS });
    overlays.push({ lower: options.cacheDir, ...options.layer, dest: CACHE });
    hidden = toolchain.hostPackageDirs;
    cwd = FETCH_CWD;
  } else {
    mounts.push(...toolchain.runMounts,
      { host: folders.work, dest: WORKSPACE, writable: true },
      { host: folders.build, dest: BUILD, writable: true },
      { host: folders.deps, dest: DEPS });
    if (step.depsIntoWorkspace) {
      const source = path.join(folders.deps, step.depsIntoWorkspace);
      // Root binds this path: it must be a real folder, never a link (only fetch steps write /deps, but be sure).
      if (fs.lstatSync(source, { throwIfNoEntry: false })?.isDirectory()) mounts.push({ host: source, dest: `${WORKSPACE}/${step.depsIntoWorkspace}` });
    }
    if (step.cache !== 'none') overlays.push(cacheOverlay(options, step.cache));
    if (step.hostPackages !== 'visible') hidden = toolchain.hostPackageDirs;
    cwd = WORKSPACE;
  }
  return {
    argv: ['/bin/sh', '-c', step.script],
    cwd,
    env: { ...TLS_ENV, ...step.env, ...(step.kind === 'run' ? options.extraEnv : {}) },
    mounts, overlays, hidden,
    network: step.kind === 'compile' ? false : step.network,
    limits: options.limits,
    owner: options.owner,
    fileSizeBytes: options.fileSizeBytes,
    keepBytes: OUTPUT_CAP_BYTES + (options.redactionSlack ?? 0) + 64,
    killOutputBytes: KILL_OUTPUT_BYTES,
    onReady: options.onReady,
  };
}

export function runStep(step: Step, options: StepOptions): Promise<IsolatedResult> {
  return runIsolated({ ...stepSpec(step, options), timeoutMs: options.timeoutMs }, options.identity);
}
