// Builds the command line of one sandbox: the root wrapper script (cgroups, network namespace with loopback up, private
// mount namespace with staged binds, overlays and a bounded /tmp, rlimits, seccomp fd, drop to the sandbox uid) and
// bubblewrap's arguments, which travel over a pipe (--args) so no host path, variable or secret is on any command line.
import fs from 'node:fs';
import path from 'node:path';
import type { HostIdentity, IsolatedSpec } from './isolated-spec.ts';
import { seccompFilter } from './seccomp.ts';

/** Where the wrapper looks for its programs (it is started with no environment at all). */
const SYSTEM_PATH = '/usr/sbin:/usr/bin:/sbin:/bin';

/** A system program's absolute path (the wrapper is spawned without a PATH to search). */
export function systemBinary(name: string): string {
  return SYSTEM_PATH.split(':').map((dir) => path.join(dir, name)).find((candidate) => fs.existsSync(candidate)) ?? name;
}

const shq = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * Descriptors of the wrapper: 3 says "network namespace made", 4 says "go" (bwrap --block-fd: the network is joined),
 * 7 carries bwrap's arguments, 8 says "program started".
 */
export const FD = { ready: 3, go: 4, seccomp: 5, args: 7, started: 8 } as const;

/** The /etc a sandbox sees: the host's TLS roots and loader cache, plus synthesized identity and DNS files. */
const SYSTEM_RO = ['/usr', '/etc/ssl', '/etc/ca-certificates', '/etc/alternatives', '/etc/ld.so.cache', '/etc/localtime',
  '/etc/nsswitch.conf', '/etc/mime.types', '/etc/gemrc'];
const SYNTHESIZED_ETC = ['passwd', 'group', 'hosts', 'resolv.conf'];

export function writeSandboxEtc(etcDir: string, dns: string): void {
  fs.mkdirSync(etcDir, { recursive: true });
  fs.chmodSync(etcDir, 0o755); // bwrap, already running as the sandbox uid, reads these files through the stage
  fs.writeFileSync(path.join(etcDir, 'passwd'), 'root:x:0:0:root:/root:/usr/sbin/nologin\nsandbox:x:1000:1000:sandbox:/workspace:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n');
  fs.writeFileSync(path.join(etcDir, 'group'), 'root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n');
  fs.writeFileSync(path.join(etcDir, 'hosts'), '127.0.0.1 localhost sandbox\n::1 localhost\n');
  fs.writeFileSync(path.join(etcDir, 'resolv.conf'), `nameserver ${dns}\n`);
  fs.writeFileSync(path.join(etcDir, 'seccomp.bpf'), seccompFilter());
  for (const file of fs.readdirSync(etcDir)) fs.chmodSync(path.join(etcDir, file), 0o644);
}

/**
 * The shell run as root in its own network namespace (and mount namespace when a cache overlay is needed), made by
 * `unshare`: say "ready" (slirp4netns joins the namespace from then on, in parallel), join the cgroups, mount the
 * overlay, drop to the sandbox uid and start bwrap, which builds the sandbox and then waits for "go" (--block-fd) before
 * it starts the program: the network is always in place before the first instruction. bwrap makes no network namespace of its own, so it never races slirp4netns over loopback set-up,
 * and the namespace belongs to the host's user namespace: nothing inside can change its routes or rules. Every bind
 * source is under the instance's exposure folder (see host.ts), which the sandbox uid's group can traverse.
 */
export function wrapperScript(spec: IsolatedSpec, identity: HostIdentity, procsFiles: string[], command: string[]): string {
  const keep = [0, 1, 2, FD.ready, FD.go, FD.args, FD.started].join('|');
  // Descriptors the server itself inherited (a supervisor's pipes) must not reach the sandbox.
  // The wrapper starts with an empty environment (isolate.ts): PATH is a shell variable here, never exported.
  const lines = [`PATH=${SYSTEM_PATH}`,
    `for fd in /proc/$$/fd/*; do n=\${fd##*/}; case $n in ${keep}) ;; *) eval "exec $n>&-" 2>/dev/null || true;; esac; done`,
    'set -e', `echo ready >&${FD.ready}`, `exec ${FD.ready}>&-`];
  for (const file of procsFiles) lines.push(`echo $$ > ${shq(file)}`);
  // With a network, slirp4netns brings loopback up; without one, it is the only interface.
  if (!spec.network) lines.push('ip link set lo up');
  // A shared cache seen by a run step: read from the shared folder, every write lands in the session's own volume.
  for (const overlay of spec.overlays ?? []) {
    lines.push(`mount -t overlay tooldex-cache -o ${shq(`lowerdir=${overlay.lower},upperdir=${overlay.upper},workdir=${overlay.work}`)} ${shq(overlay.merged)}`);
  }
  lines.push(`exec ${FD.seccomp}< ${shq(path.join(identity.etcDir, 'seccomp.bpf'))}`);
  lines.push('ulimit -c 0', `ulimit -f ${Math.ceil(spec.fileSizeBytes / 512)}`, 'ulimit -n 4096');
  // Without a pids cgroup, RLIMIT_NPROC is the fork-bomb brake (per host uid, so shared by concurrent sandboxes).
  if (!procsFiles.some((file) => file.includes('/pids/'))) lines.push(`ulimit -u ${spec.limits.pids}`);
  // exec -c: setpriv, and so bwrap and the sandbox's first process, get an empty environment (bash's PWD, SHLVL stay here).
  lines.push(`exec -c setpriv --reuid ${identity.uid} --regid ${identity.gid} --clear-groups --inh-caps=-all --bounding-set=-all ` +
    `${shq(identity.bwrap)} --args ${FD.args} -- ${command.map(shq).join(' ')}`);
  return lines.join('\n');
}

/** The first process inside: tells the host the sandbox is built (anything failing before this is the service's fault). */
export function startedCommand(argv: string[]): string[] {
  return ['/bin/sh', '-c', `printf . >&${FD.started}; exec ${FD.started}>&-; exec "$@"`, 'sandbox', ...argv];
}

/** bwrap's options (sent NUL-separated over the --args pipe): namespaces, identity, filesystem, environment. */
export function bwrapArguments(spec: IsolatedSpec, identity: HostIdentity): string[] {
  const args = ['--unshare-user', '--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try', '--disable-userns',
    '--die-with-parent', '--new-session', '--uid', '1000', '--gid', '1000', '--hostname', 'sandbox', '--cap-drop', 'ALL',
    '--clearenv', '--seccomp', String(FD.seccomp), '--block-fd', String(FD.go)];
  for (const dir of SYSTEM_RO) if (fs.existsSync(dir)) args.push('--ro-bind', dir, dir);
  args.push('--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin', '--symlink', 'usr/lib', '/lib',
    '--symlink', 'usr/lib64', '/lib64');
  for (const file of SYNTHESIZED_ETC) args.push('--ro-bind', path.join(identity.etcDir, file), `/etc/${file}`);
  // A private /tmp, bounded in bytes (a tmpfs is charged to the run's memory cgroup, inodes included); /var/tmp is it too.
  args.push('--proc', '/proc', '--dev', '/dev', '--size', String(spec.tmpBytes ?? 256 * 1024 * 1024), '--tmpfs', '/tmp',
    '--dir', '/var', '--symlink', '../tmp', '/var/tmp');
  for (const mount of spec.mounts) args.push(mount.writable ? '--bind' : '--ro-bind', mount.host, mount.dest);
  for (const overlay of spec.overlays ?? []) args.push('--bind', overlay.merged, overlay.dest);
  for (const dir of spec.hidden ?? []) args.push('--tmpfs', dir, '--remount-ro', dir);
  // bwrap's own root is a tmpfs: read-only once everything is mounted, so only /tmp and the session's folders take writes.
  args.push('--remount-ro', '/');
  for (const [name, value] of Object.entries(spec.env)) args.push('--setenv', name, value);
  args.push('--chdir', spec.cwd);
  return args;
}
