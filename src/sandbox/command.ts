// Builds the command line of one sandbox: the root wrapper script (cgroups, private mount namespace, staged binds,
// rlimits, seccomp fd, drop to the sandbox uid) and bubblewrap's arguments. Pure text; isolate.ts runs it.
import fs from 'node:fs';
import path from 'node:path';
import type { HostIdentity, IsolatedSpec } from './isolate.ts';
import { seccompFilter } from './seccomp.ts';

const shq = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The /etc a sandbox sees: the host's TLS roots and loader cache, plus synthesized identity and DNS files. */
const SYSTEM_RO = ['/usr', '/etc/ssl', '/etc/ca-certificates', '/etc/alternatives', '/etc/ld.so.cache', '/etc/localtime',
  '/etc/nsswitch.conf', '/etc/mime.types', '/etc/gemrc'];
const SYNTHESIZED_ETC = ['passwd', 'group', 'hosts', 'resolv.conf'];

export function writeSandboxEtc(etcDir: string, dns: string): void {
  fs.mkdirSync(etcDir, { recursive: true });
  fs.chmodSync(etcDir, 0o755); // bwrap, already running as the sandbox uid, reads these files through the stage
  fs.writeFileSync(path.join(etcDir, 'passwd'), 'root:x:0:0:root:/root:/usr/sbin/nologin\nsandbox:x:1000:1000:sandbox:/work:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n');
  fs.writeFileSync(path.join(etcDir, 'group'), 'root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n');
  fs.writeFileSync(path.join(etcDir, 'hosts'), '127.0.0.1 localhost sandbox\n::1 localhost\n');
  fs.writeFileSync(path.join(etcDir, 'resolv.conf'), `nameserver ${dns}\n`);
  fs.writeFileSync(path.join(etcDir, 'seccomp.bpf'), seccompFilter());
  for (const file of fs.readdirSync(etcDir)) fs.chmodSync(path.join(etcDir, file), 0o644);
}

/** The shell run as root in a private mount namespace: join the cgroups, stage bind sources, set rlimits, drop to the sandbox uid. */
export function wrapperScript(spec: IsolatedSpec, identity: HostIdentity, procsFiles: string[], bwrapArgs: string[]): string {
  // Descriptors the server itself inherited (a supervisor's pipes) must not reach the sandbox: close all but 0-4.
  const lines = ['for fd in /proc/$$/fd/*; do n=${fd##*/}; case $n in 0|1|2|3|4|6) ;; *) eval "exec $n>&-" 2>/dev/null || true;; esac; done',
    'set -e'];
  for (const file of procsFiles) lines.push(`echo $$ > ${shq(file)}`);
  const stage = identity.stageDir;
  lines.push(`mount -t tmpfs -o mode=755,size=64k tooldex-stage ${shq(stage)}`);
  // One mkdir for every mount point (each external command costs a few ms per run), then the binds.
  const dirs = [`${stage}/etc`];
  spec.mounts.forEach((mount, index) => {
    const target = `${stage}/${index}`;
    if (fs.statSync(mount.host).isDirectory()) dirs.push(target);
    else lines.push(`: > ${shq(target)}`);
  });
  lines.push(`mkdir ${dirs.map(shq).join(' ')}`);
  spec.mounts.forEach((mount, index) => lines.push(`mount --bind ${shq(mount.host)} ${shq(`${stage}/${index}`)}`));
  lines.push(`mount --bind ${shq(identity.etcDir)} ${shq(`${stage}/etc`)}`);
  lines.push(`exec 5< ${shq(`${stage}/etc/seccomp.bpf`)}`);
  lines.push('ulimit -c 0', `ulimit -f ${Math.ceil(spec.fileSizeBytes / 512)}`, 'ulimit -n 4096');
  // Without a pids cgroup, RLIMIT_NPROC is the fork-bomb brake (per host uid, so shared by concurrent sandboxes).
  if (!procsFiles.some((file) => file.includes('/pids/'))) lines.push(`ulimit -u ${spec.limits.pids}`);
  lines.push(`exec setpriv --reuid ${identity.uid} --regid ${identity.gid} --clear-groups --inh-caps=-all --bounding-set=-all ` +
    `${shq(identity.bwrap)} ${bwrapArgs.map(shq).join(' ')}`);
  return lines.join('\n');
}

export function bwrapArguments(spec: IsolatedSpec, identity: HostIdentity): string[] {
  const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session',
    '--uid', '1000', '--gid', '1000', '--hostname', 'sandbox', '--cap-drop', 'ALL', '--clearenv', '--seccomp', '5'];
  for (const dir of SYSTEM_RO) if (fs.existsSync(dir)) args.push('--ro-bind', dir, dir);
  args.push('--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin', '--symlink', 'usr/lib', '/lib',
    '--symlink', 'usr/lib64', '/lib64');
  for (const file of SYNTHESIZED_ETC) args.push('--ro-bind', `${identity.stageDir}/etc/${file}`, `/etc/${file}`);
  args.push('--proc', '/proc', '--dev', '/dev', '--size', String(256 * 1024 * 1024), '--tmpfs', '/tmp',
    '--dir', '/var/tmp');
  spec.mounts.forEach((mount, index) => {
    args.push(mount.writable ? '--bind' : '--ro-bind', `${identity.stageDir}/${index}`, mount.dest);
  });
  for (const [name, value] of Object.entries(spec.env)) args.push('--setenv', name, value);
  args.push('--chdir', spec.cwd, '--info-fd', '3', '--block-fd', '4', '--', ...withSecretEnv(spec));
  return args;
}

/** Secrets arrive as NAME=base64 lines on fd 6 and are exported inside the sandbox; the x keeps trailing newlines. */
const SECRET_LOADER = 'while IFS== read -r n v <&6; do v=$(printf %s "$v" | base64 -d; echo x); export "$n=${v%x}"; done; exec 6<&-; exec "$@"';

function withSecretEnv(spec: IsolatedSpec): string[] {
  if (!spec.secretEnv || Object.keys(spec.secretEnv).length === 0) return spec.argv;
  return ['/bin/sh', '-c', SECRET_LOADER, 'sandbox-env', ...spec.argv];
}
