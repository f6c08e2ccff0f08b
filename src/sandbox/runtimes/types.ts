// What a runtime adapter says: how to check a package spec, and the shell steps that fetch, build and run, each
// declared as one of two kinds. Which folders a kind sees and may write is decided by steps.ts, never by an adapter.
import type { Runtime } from '../schema.ts';
import type { Toolchain } from '../toolchains.ts';
import type { NetworkPolicy } from '../network.ts';

/** Paths as the sandbox sees them. */
export const WORKSPACE = '/workspace';
export const DEPS = '/deps';
export const BUILD = '/build';
export const CACHE = '/cache';
/** A fetch step's working folder: an empty private tmpfs, never the session's files. */
export const FETCH_CWD = '/tmp';

/**
 * A fetch step may write the runtime's shared cache and the session's /deps. It runs a fixed installer command that
 * executes no session or package code and reads no configuration a session or package controls: its cwd and HOME are an
 * empty tmpfs, its environment pins every config location, the workspace and /build are not mounted, and /deps is
 * written by fetch steps only. Downloads are checked against the registry's checksums (see docs/sandbox.md).
 */
export interface FetchStep {
  kind: 'fetch';
  name: 'install' | 'prepare';
  script: string;
  env: Record<string, string>;
  network: NetworkPolicy;
}

/**
 * A run step executes session or package code (builds, build scripts, source-package installs, the program). It sees
 * the workspace and /build read-write, /deps read-only, and the shared cache never writable: either absent, or as an
 * overlay whose writes land in the session's own volume (`overlay`: compiled layers above the shared cache; `layers`:
 * compiled layers only, never the shared cache — an empty folder when there is none).
 */
export interface RunStep {
  kind: 'run';
  name: 'install' | 'build' | 'run';
  script: string;
  env: Record<string, string>;
  network: NetworkPolicy | false;
  cache: 'none' | 'overlay' | 'layers';
  /** A folder of /deps bound read-only into the workspace (node_modules). */
  depsIntoWorkspace?: string;
  /** The host interpreter's own package folders stay visible (a source install runs the host's pip); hidden otherwise. */
  hostPackages?: 'visible';
}

/**
 * A compile step builds package code only, never a session's: no workspace, no /build, /deps read-only, no network. Its
 * writes to the shared cache land in a new layer kept for the module graph it compiled (layers.ts), which later builds of
 * sessions with exactly that graph read beneath their own overlay. What it writes can come only from compiling the
 * graph's own packages, which every session using the layer links into its program anyway.
 */
export interface CompileStep {
  kind: 'compile';
  name: 'compile';
  script: string;
  env: Record<string, string>;
}

export type Step = FetchStep | RunStep | CompileStep;

export interface RuntimeContext {
  toolchain: Toolchain;
  /** The runtime's package source as a sandbox reaches it (no trailing slash). */
  source: { url: string; hostPort?: number };
}

/** The network of a step that talks to the package source: the internet, plus the source's host port if it is on loopback. */
export const sourceNetwork = (ctx: RuntimeContext): NetworkPolicy => ({ hostPorts: ctx.source.hostPort ? [ctx.source.hostPort] : [] });

export interface ParsedPackage {
  /** Name without version, lower-cased where the registry is case-insensitive (deny-list matching, one pin per name). */
  name: string;
  /** The spec as the installer takes it. */
  spec: string;
}

/** What a session has installed: the exact specs of its current pins (one per package name), in order. */
export interface InstallPlan {
  /** Pins new or changed by this call. */
  changed: ParsedPackage[];
  /** Every current pin of the session after this call (earlier calls' pins, with this call's replacing same names). */
  all: ParsedPackage[];
}

export interface RuntimeAdapter {
  runtime: Runtime;
  /** Throws a 422 invalid_package ToolDexError for anything that is not a plain registry package spec. */
  parsePackage(raw: string): ParsedPackage;
  /**
   * Steps installing the plan: `first` (a fetch step where the registry's packages can be installed without running their
   * code, else a run step), and a run step tried when it fails (a source package that must build).
   */
  install(ctx: RuntimeContext, plan: InstallPlan): { first: Step; fallback?: RunStep };
  /**
   * A fetch step run once per shared cache before the first build (the marker file names the toolchain version): it
   * fills the cache with what only the operator's toolchain produces (Go's compiled standard library).
   */
  prepare?(ctx: RuntimeContext): { step: FetchStep; marker: string };
  /**
   * A fetch step that downloads the session's installed graph into the shared cache again, for a runtime whose installed
   * packages live only there (Go's module sources; the compile of a layer runs with the proxy off): run before a build
   * when the cache was emptied since the session's install (download-caches.ts generation).
   */
  refetch?(ctx: RuntimeContext): FetchStep;
  /** Reads, on the host, the exact versions the last fetch resolved for the pins (from the installer's own lock; Go: the whole module graph). */
  locked?(depsDir: string): LockedPin[];
  /**
   * `keep`: pins whose entry in the session's own manifest is only updated (exact version, features added), never made
   * anew — pins unchanged since the last build, and those named by a manifest sent in this call — so the entry's other
   * keys (Cargo's `optional`, `default-features`, …) stay as the caller wrote them.
   */
  build?(ctx: RuntimeContext, entry: string, locked: LockedPin[], keep?: ReadonlySet<string>): RunStep;
  /**
   * A compiled layer shared by the sessions whose resolved dependency graph is exactly `locked` (Go; Rust reads the whole
   * graph from the fetch step's lock in `depsDir`): its key, and the compile step that fills it with the graph's
   * packages (Go: those this call's files import; none to compile: no step).
   */
  sharedLayer?(ctx: RuntimeContext, locked: LockedPin[], files: Array<{ path: string; code: string }>, depsDir: string): Promise<{ key: string; step?: CompileStep } | undefined>;
  /**
   * A session whose dependency graph changed keeps building on the compiled layer it read before when the new graph has
   * none, instead of compiling one (Rust: its compiled crates live in that layer, and cargo rebuilds only what changed
   * above it, in the session's own overlay; a new layer would compile every crate again).
   */
  keepsSessionLayer?: boolean;
  run(ctx: RuntimeContext, entry: string, pins: ParsedPackage[]): RunStep;
}

export interface LockedPin {
  name: string;
  version: string;
  /** Features the fetch step enabled for it (Rust: from the session's `name@version[feature,…]` pins). */
  features?: string[];
  /** False when the pin turned the crate's default features off (Rust: `-default` in the brackets, `default-features = false`). */
  defaultFeatures?: false;
}

export const shq = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
export const BASE_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Environment every fetch step starts from: config locations point into the empty tmpfs, nothing from a session. */
export const FETCH_BASE_ENV: Record<string, string> = {
  PATH: BASE_PATH, HOME: FETCH_CWD, XDG_CONFIG_HOME: `${FETCH_CWD}/.config`, XDG_CACHE_HOME: `${FETCH_CWD}/.cache`,
  GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LANG: 'C.UTF-8',
};
