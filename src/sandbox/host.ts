// What the sandbox needs from this host, found once and re-checked when it failed: identity, /etc files, cache folders,
// the host firewall, toolchains and a real probe sandbox; plus this instance's id and the redaction key.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Exposure } from './exposure.ts';
import { writeSandboxEtc, type HostIdentity } from './isolate.ts';
import { removeStaleCgroups } from './limits.ts';
import { HostFirewall, SLIRP_DNS } from './network.ts';
import { probeHost } from './probe.ts';
import { RUNTIMES } from './schema.ts';
import type { SessionStore } from './sessions.ts';
import { detectToolchains, type Toolchains } from './toolchains.ts';

export interface SandboxHost {
  identity: HostIdentity;
  toolchains: Toolchains;
  /** Why no sandbox can start here; re-checked on the next call after REPROBE_MS. */
  problem?: string;
}

/** A failed probe is tried again after this long, so one bad moment never means a minute of 503s. */
const REPROBE_MS = 5_000;

interface HostOptions {
  config: Config;
  exposure: Exposure;
  cacheRoot: string;
  sessions: SessionStore;
  logger: Logger;
  /** Host loopback ports of package sources (allowed to the sandbox gid). */
  sourcePorts: number[];
}

const hosts = new WeakMap<SessionStore, { setup: Promise<Omit<SandboxHost, 'problem'>>; probe?: Promise<string | undefined>; probedAt: number }>();

/** The host, set up once per sandbox service; the probe is repeated when it failed and REPROBE_MS have passed. */
export async function ensureSandboxHost(options: HostOptions): Promise<SandboxHost> {
  let state = hosts.get(options.sessions);
  if (!state) {
    state = { setup: setUp(options), probedAt: 0 };
    hosts.set(options.sessions, state);
  }
  const base = await state.setup;
  if (!state.probe) {
    state.probedAt = Date.now();
    state.probe = probeHost(base.identity, options.sourcePorts);
    void state.probe.then((problem) => problem && options.logger.error({ problem }, 'sandbox unavailable on this host'));
  }
  let problem = await state.probe;
  if (problem && Date.now() - state.probedAt > REPROBE_MS) {
    state.probedAt = Date.now();
    state.probe = probeHost(base.identity, options.sourcePorts);
    problem = await state.probe;
    if (problem) options.logger.error({ problem }, 'sandbox unavailable on this host');
  }
  return { ...base, problem };
}

async function setUp({ config, exposure, cacheRoot, sessions, logger }: HostOptions): Promise<Omit<SandboxHost, 'problem'>> {
  const uid = config.TOOLDEX_SANDBOX_UID;
  const identity: HostIdentity = {
    uid, gid: uid, etcDir: exposure.etcDir, bwrap: config.TOOLDEX_BWRAP, firewall: new HostFirewall(uid),
  };
  exposure.prepare();
  writeSandboxEtc(identity.etcDir, SLIRP_DNS);
  for (const runtime of RUNTIMES) {
    const dir = path.join(cacheRoot, runtime);
    fs.mkdirSync(dir, { recursive: true });
    fs.chownSync(dir, uid, uid);
  }
  removeStaleCgroups();
  await exposure.exposeCache(cacheRoot);
  const [toolchains, reconciled] = await Promise.all([
    detectToolchains(config.TOOLDEX_TOOLCHAIN_PATH).then((found) => exposure.exposeToolchains(found)),
    sessions.reconcile().catch((error: unknown) => {
      logger.warn({ err: error }, 'sandbox session reconciliation failed');
      return undefined;
    }),
  ]);
  if (reconciled && Object.values(reconciled).some((ids) => ids.length > 0)) logger.info(reconciled, 'sandbox sessions reconciled');
  sessions.refill(); // after reconciliation, which removes volumes without a row (a pool's included)
  return { identity, toolchains };
}

/** This instance's id, kept in its home so sessions it made stay its own across restarts. */
export function instanceId(root: string): string {
  const file = path.join(root, 'instance-id');
  fs.mkdirSync(root, { recursive: true });
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const id = `i_${crypto.randomBytes(9).toString('base64url')}`;
    try {
      fs.writeFileSync(file, `${id}\n`, { flag: 'wx' });
    } catch {
      // another process of this home wrote it first: use theirs
    }
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/** The key of the secret marks: TOOLDEX_SANDBOX_SECRET_KEY, or one generated once into the home (mode 0600). */
export function loadRedactionKey(root: string, configured: string | undefined): Buffer {
  if (configured) {
    const key = /^[0-9a-fA-F]+$/.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
    if (key.length < 32) throw new Error('TOOLDEX_SANDBOX_SECRET_KEY must hold at least 32 bytes (64 hex characters or 44 base64 characters).');
    return key;
  }
  const file = path.join(root, 'redaction.key');
  fs.mkdirSync(root, { recursive: true });
  try {
    return fs.readFileSync(file);
  } catch {
    try {
      fs.writeFileSync(file, crypto.randomBytes(32), { mode: 0o600, flag: 'wx' });
    } catch {
      // another process of this home wrote it first: use theirs
    }
    return fs.readFileSync(file);
  }
}
