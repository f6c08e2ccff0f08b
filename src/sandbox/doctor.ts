// `tooldex doctor`'s capability: can this host build sandboxes (root, bubblewrap, slirp4netns, cgroups, volumes, host
// firewall), does each runtime's toolchain answer from inside one, and which package sources answer from inside one.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { Exposure, exposureBase } from './exposure.ts';
import { runIsolated, writeSandboxEtc, type HostIdentity } from './isolate.ts';
import { availableControllers } from './limits.ts';
import { HostFirewall, SLIRP_DNS } from './network.ts';
import { probeHost } from './probe.ts';
import type { Runtime } from './schema.ts';
import { checkSources, packageSources, sourcePorts, type SourceCheck } from './sources.ts';
import { detectToolchains } from './toolchains.ts';

export interface DoctorReport {
  isolation: { ok: boolean; problem: string | null; sandboxUid: number; cgroups: string[]; bwrap: string };
  runtimes: Array<{ runtime: Runtime; available: boolean; version: string | null; inSandbox: 'ok' | 'failed' | 'skipped'; detail: string | null }>;
  /** Each runtime's package source, fetched from inside a sandbox (the path installs take). */
  sources: Array<Pick<SourceCheck, 'runtime' | 'name' | 'url' | 'ok' | 'status' | 'ms' | 'error'>>;
  /** C/C++ build tools that package build scripts call (crates' build.rs, Python sdists), as sandboxes see them. */
  buildTools: BuildTool[];
}

export interface BuildTool { name: string; found: string | null; usedBy: string }

/**
 * Programs and libraries that package builds run inside a sandbox, which sees the host's `/usr` read-only and nothing
 * else: a crate whose build script needs one that is missing fails to build (`gmp-mpfr-sys`, under rug, runs m4;
 * bindgen, under `librocksdb-sys` and many other `-sys` crates, loads libclang). Reported, never installed.
 */
const BUILD_TOOLS: Array<{ name: string; files: RegExp; dirs: string[]; usedBy: string }> = [
  { name: 'cc', files: /^cc$/, dirs: ['bin'], usedBy: 'C code in build scripts (the cc crate), Python C extensions' },
  { name: 'c++', files: /^c\+\+$/, dirs: ['bin'], usedBy: 'C++ code in build scripts (cc with cpp, cmake projects)' },
  { name: 'make', files: /^make$/, dirs: ['bin'], usedBy: 'autotools and cmake builds of bundled C libraries' },
  { name: 'cmake', files: /^cmake$/, dirs: ['bin'], usedBy: 'the cmake crate (bundled C/C++ libraries)' },
  { name: 'm4', files: /^m4$/, dirs: ['bin'], usedBy: 'autotools builds of bundled libraries (GMP under gmp-mpfr-sys)' },
  { name: 'pkg-config', files: /^pkg-config$/, dirs: ['bin'], usedBy: 'finding system libraries (pkg-config crate)' },
  { name: 'perl', files: /^perl$/, dirs: ['bin'], usedBy: 'OpenSSL built from source (openssl-src)' },
  { name: 'libclang', files: /^libclang(-\d+)?\.so(\.\d+)*$/, dirs: ['lib', 'lib/x86_64-linux-gnu', 'lib/aarch64-linux-gnu', 'lib64', 'lib/llvm-*/lib'], usedBy: 'bindgen in -sys crates\' build scripts' },
];

/** Which of BUILD_TOOLS exist under `usr` (the host's `/usr`, which every sandbox mounts read-only). */
export function buildTools(usr = '/usr'): BuildTool[] {
  const expand = (dir: string): string[] => {
    if (!dir.includes('*')) return [path.join(usr, dir)];
    const [head = '', tail = ''] = dir.split('*');
    const parent = path.join(usr, path.dirname(`${head}x`));
    const prefix = path.basename(`${head}x`).slice(0, -1);
    let names: string[] = [];
    try { names = fs.readdirSync(parent); } catch { return []; }
    return names.filter((name) => name.startsWith(prefix)).map((name) => path.join(parent, name + tail)).sort();
  };
  return BUILD_TOOLS.map(({ name, files, dirs, usedBy }) => {
    for (const dir of dirs.flatMap(expand)) {
      let names: string[] = [];
      try { names = fs.readdirSync(dir); } catch { continue; }
      const hit = names.filter((file) => files.test(file)).sort()[0];
      if (hit) return { name, found: path.join(dir, hit), usedBy };
    }
    return { name, found: null, usedBy };
  });
}

const VERSION_COMMAND: Record<Runtime, (paths: Record<string, string>) => string[]> = {
  node: (p) => [p.node ?? 'node', '--version'],
  python: (p) => [p.python ?? 'python3', '--version'],
  golang: (p) => [p.go ?? 'go', 'version'],
  rust: (p) => [p.cargo ?? 'cargo', '--version'],
  ruby: (p) => [p.ruby ?? 'ruby', '--version'],
};

export async function diagnose(config: Config): Promise<DoctorReport> {
  const uid = config.TOOLDEX_SANDBOX_UID;
  // Its own short-lived exposure folder, as a server's: the same binds the sandboxes of a server get.
  const exposure = new Exposure(path.join(exposureBase(), `doctor-${process.pid}`), uid);
  try {
    exposure.prepare();
    writeSandboxEtc(exposure.etcDir, SLIRP_DNS);
    const identity: HostIdentity = { uid, gid: uid, etcDir: exposure.etcDir, bwrap: config.TOOLDEX_BWRAP, firewall: new HostFirewall(uid) };
    const [problem, toolchains] = await Promise.all([
      probeHost(identity, sourcePorts(config)),
      detectToolchains(config.TOOLDEX_TOOLCHAIN_PATH).then((found) => exposure.exposeToolchains(found)),
    ]);
    const runtimes: DoctorReport['runtimes'] = [];
    for (const toolchain of Object.values(toolchains)) {
      let inSandbox: 'ok' | 'failed' | 'skipped' = 'skipped';
      let detail = toolchain.reason ?? null;
      if (toolchain.available && !problem) {
        const result = await runIsolated({
          argv: VERSION_COMMAND[toolchain.runtime](toolchain.paths), cwd: '/tmp', env: { PATH: '/usr/bin:/bin', HOME: '/tmp' },
          mounts: toolchain.mounts.map((mount) => ({ ...mount })), network: false, timeoutMs: 20_000,
          limits: { memoryBytes: 512 * 1024 * 1024, pids: 64, cpus: 1 }, fileSizeBytes: 1 << 20, keepBytes: 4096, killOutputBytes: 1 << 16,
        }, identity);
        inSandbox = result.exitCode === 0 && !result.setupError ? 'ok' : 'failed';
        const output = (result.stdout.finish((t) => t) + result.stderr.finish((t) => t)).trim().split('\n')[0] ?? '';
        detail = result.setupError ?? (output || null);
      }
      runtimes.push({ runtime: toolchain.runtime, available: toolchain.available, version: toolchain.version ?? null, inSandbox, detail });
    }
    const sources = problem || !toolchains.node.available ? [] : (await checkSources(packageSources(config), identity, toolchains.node))
      .map(({ runtime, name, url, ok, status, ms, error }) => ({ runtime, name, url, ok, status, ms, error }));
    return {
      isolation: { ok: !problem, problem: problem ?? null, sandboxUid: uid, cgroups: availableControllers(), bwrap: config.TOOLDEX_BWRAP },
      runtimes, sources, buildTools: buildTools(),
    };
  } finally {
    await exposure.tearDown();
  }
}
