// `tooldex doctor`'s capability: can this host build sandboxes (root, bubblewrap, slirp4netns, cgroups), and does
// each runtime's toolchain answer from inside one? Runs real sandboxes; no store and no server needed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.ts';
import { ensureStageDir, runIsolated, writeSandboxEtc, type HostIdentity } from './isolate.ts';
import { availableControllers } from './limits.ts';
import { SLIRP_DNS } from './network.ts';
import { probeHost } from './probe.ts';
import type { Runtime } from './schema.ts';
import { detectToolchains } from './toolchains.ts';

export interface DoctorReport {
  isolation: { ok: boolean; problem: string | null; sandboxUid: number; cgroups: string[]; bwrap: string };
  runtimes: Array<{ runtime: Runtime; available: boolean; version: string | null; inSandbox: 'ok' | 'failed' | 'skipped'; detail: string | null }>;
}

const VERSION_COMMAND: Record<Runtime, (paths: Record<string, string>) => string[]> = {
  node: (p) => [p.node ?? 'node', '--version'],
  python: (p) => [p.python ?? 'python3', '--version'],
  golang: (p) => [p.go ?? 'go', 'version'],
  rust: (p) => [p.cargo ?? 'cargo', '--version'],
  ruby: (p) => [p.ruby ?? 'ruby', '--version'],
};

export async function diagnose(config: Config): Promise<DoctorReport> {
  const etcDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-doctor-'));
  try {
    writeSandboxEtc(etcDir, SLIRP_DNS);
    const identity: HostIdentity = { uid: config.TOOLDEX_SANDBOX_UID, gid: config.TOOLDEX_SANDBOX_UID, stageDir: ensureStageDir(), etcDir, bwrap: config.TOOLDEX_BWRAP };
    const [problem, toolchains] = await Promise.all([probeHost(identity), detectToolchains(config.TOOLDEX_TOOLCHAIN_PATH)]);
    const runtimes: DoctorReport['runtimes'] = [];
    for (const toolchain of Object.values(toolchains)) {
      let inSandbox: 'ok' | 'failed' | 'skipped' = 'skipped';
      let detail = toolchain.reason ?? null;
      if (toolchain.available && !problem) {
        const result = await runIsolated({
          argv: VERSION_COMMAND[toolchain.runtime](toolchain.paths), cwd: '/tmp', env: { PATH: '/usr/bin:/bin', HOME: '/tmp' },
          mounts: toolchain.mounts.map((dir) => ({ host: dir, dest: dir })), network: false, timeoutMs: 20_000,
          limits: { memoryBytes: 512 * 1024 * 1024, pids: 64, cpus: 1 }, fileSizeBytes: 1 << 20, keepBytes: 4096, killOutputBytes: 1 << 16,
        }, identity);
        inSandbox = result.exitCode === 0 ? 'ok' : 'failed';
        const output = (result.stdout.finish((t) => t) + result.stderr.finish((t) => t)).trim().split('\n')[0] ?? '';
        detail = result.setupError ?? (output || null);
      }
      runtimes.push({ runtime: toolchain.runtime, available: toolchain.available, version: toolchain.version ?? null, inSandbox, detail });
    }
    return {
      isolation: { ok: !problem, problem: problem ?? null, sandboxUid: identity.uid, cgroups: availableControllers(), bwrap: config.TOOLDEX_BWRAP },
      runtimes,
    };
  } finally {
    fs.rmSync(etcDir, { recursive: true, force: true });
  }
}
