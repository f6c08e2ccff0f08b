// What a runtime adapter says: how to check a package spec, and the shell steps that install, build and run.
// Steps are described abstractly (which folders are writable, which network); isolation is isolate.ts's job.
import type { Runtime } from '../schema.ts';
import type { Toolchain } from '../toolchains.ts';
import type { NetworkPolicy } from '../network.ts';

/** Paths as the sandbox sees them. */
export const WORKSPACE = '/workspace';
export const DEPS = '/deps';
export const CACHE = '/cache';

export interface Step {
  name: 'install' | 'build' | 'run';
  /** A POSIX shell script run with /bin/sh -c in the workspace (or /deps when the workspace is not mounted). */
  script: string;
  env: Record<string, string>;
  /** The session's files: absent (trusted steps never see user files), read-write. */
  workspace: 'none' | 'rw';
  deps: 'ro' | 'rw';
  /** The runtime's shared cache: absent, read-only, or read-write for trusted steps that run no package code. */
  cache: 'none' | 'ro' | 'rw';
  network: NetworkPolicy | false;
  /** Extra binds from the session's deps folder into the workspace (node_modules). */
  depsIntoWorkspace?: string;
  /** True when the step may run code shipped in packages (a failure of a trusted step may fall back to this). */
  runsPackageCode: boolean;
}

export interface RuntimeContext {
  toolchain: Toolchain;
  /** Gem source as reachable from inside the sandbox, and the host loopback port to allow for it, if any. */
  gemSource: { url: string; hostPort?: number };
  goproxy: string;
  npmRegistry: string;
  pypiUrl: string;
}

export interface ParsedPackage {
  /** Name without version, lower-cased where the registry is case-insensitive (deny-list matching). */
  name: string;
  /** The spec as the installer takes it. */
  spec: string;
}

export interface RuntimeAdapter {
  runtime: Runtime;
  /** Throws a 422 invalid_package ToolDexError for anything that is not a plain registry package spec. */
  parsePackage(raw: string): ParsedPackage;
  /** Steps installing `added` (new to the session): a trusted first attempt, optionally an untrusted fallback. */
  install(ctx: RuntimeContext, added: ParsedPackage[], all: ParsedPackage[]): { trusted: Step; fallback?: Step };
  build?(ctx: RuntimeContext, entry: string): Step;
  run(ctx: RuntimeContext, entry: string): Step;
  /** Workspace paths this runtime refuses in user files (installer configuration that could redirect a trusted step). */
  reservedPaths?: RegExp;
}

export const shq = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
export const BASE_PATH = '/usr/local/bin:/usr/bin:/bin';
