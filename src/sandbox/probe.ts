// Checks that this host can build a sandbox at all (root, bubblewrap, slirp4netns, iptables, the host firewall rules,
// a real networked run); the answer decides between running tests and a 503 with the reason.
import { spawnSync } from 'node:child_process';
import { runIsolated, type HostIdentity } from './isolate.ts';

const TOOLS: Array<[string, string]> = [
  ['slirp4netns', 'slirp4netns'], ['iptables-restore', 'iptables'], ['ip6tables-restore', 'iptables'], ['ip', 'iproute2'],
  ['setpriv', 'util-linux'], ['unshare', 'util-linux'], ['mount', 'mount'], ['losetup', 'mount'], ['mkfs.ext4', 'e2fsprogs'],
  ['e2fsck', 'e2fsprogs'], ['bash', 'bash'],
];

/** The first problem found, or undefined when a sandbox with network starts and runs `true` (set-up retried as runs are). */
export async function probeHost(identity: HostIdentity, hostPorts: number[] = []): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'the sandbox manager must run as root (it creates cgroups, mount namespaces and volumes, and drops to TOOLDEX_SANDBOX_UID)';
  if (identity.uid === 0) return 'TOOLDEX_SANDBOX_UID must not be 0';
  for (const [binary, pkg] of [[identity.bwrap, 'bubblewrap'], ...TOOLS]) {
    const found = spawnSync('sh', ['-c', 'command -v "$0"', binary ?? ''], { encoding: 'utf8', env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
    if (found.status !== 0) return `${binary} is missing; install the Debian package ${pkg} (scripts/setup.sh)`;
  }
  try {
    await identity.firewall?.ensure(hostPorts);
  } catch (error) {
    return `the host firewall rules for the sandbox gid could not be installed: ${(error as Error).message}`;
  }
  const result = await runIsolated({
    argv: ['/bin/true'], cwd: '/', env: { PATH: '/usr/bin:/bin' }, mounts: [], network: {}, timeoutMs: 10_000,
    limits: { memoryBytes: 64 * 1024 * 1024, pids: 16, cpus: 1 }, fileSizeBytes: 1024 * 1024, keepBytes: 4096, killOutputBytes: 65536,
  }, identity);
  if (result.setupError) return result.setupError;
  if (result.exitCode !== 0) return `a test sandbox exited with ${result.exitCode}: ${result.stderr.finish((t) => t).slice(0, 300)}`;
  return undefined;
}
