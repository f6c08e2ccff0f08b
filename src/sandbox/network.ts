// Outbound network for one sandbox: slirp4netns user-mode networking into the sandbox's own network namespace,
// host loopback disabled, and firewall rules inside the namespace that drop private and link-local ranges.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** slirp4netns's fixed addresses inside the namespace (default CIDR 10.0.2.0/24). */
export const SLIRP_GATEWAY = '10.0.2.2';
export const SLIRP_DNS = '10.0.2.3';

/** Ranges a sandbox may never reach: private, link-local, shared, loopback-like and multicast. */
export const BLOCKED_RANGES = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
];

export interface NetworkPolicy {
  /** Host loopback ports the sandbox may reach through the slirp gateway (an operator's loopback gem source). */
  hostPorts?: number[];
}

/** iptables-restore input for the namespace: DNS to slirp allowed, allowed host ports, everything private dropped. */
export function firewallRules(policy: NetworkPolicy): string {
  const lines = ['*filter', ':INPUT ACCEPT [0:0]', ':FORWARD DROP [0:0]', ':OUTPUT ACCEPT [0:0]', '-A OUTPUT -o lo -j ACCEPT'];
  lines.push(`-A OUTPUT -d ${SLIRP_DNS}/32 -p udp --dport 53 -j ACCEPT`, `-A OUTPUT -d ${SLIRP_DNS}/32 -p tcp --dport 53 -j ACCEPT`);
  for (const port of policy.hostPorts ?? []) lines.push(`-A OUTPUT -d ${SLIRP_GATEWAY}/32 -p tcp --dport ${port} -j ACCEPT`);
  for (const range of BLOCKED_RANGES) lines.push(`-A OUTPUT -d ${range} -j REJECT`);
  lines.push('COMMIT', '');
  return lines.join('\n');
}

const IPV6_RULES = ['*filter', ':INPUT ACCEPT [0:0]', ':FORWARD DROP [0:0]', ':OUTPUT DROP [0:0]', '-A OUTPUT -o lo -j ACCEPT', 'COMMIT', ''].join('\n');

export interface SandboxNetwork {
  stop(): void;
}

/**
 * Joins slirp4netns to the namespace of `pid` and installs the rules; resolves once traffic may flow.
 * The rules go in before the sandboxed program is released (bwrap --block-fd), so no packet ever leaves unfiltered.
 */
export async function startNetwork(pid: number, policy: NetworkPolicy, timeoutMs = 5000): Promise<SandboxNetwork> {
  const netns = `/proc/${pid}/ns/net`;
  // One nsenter for both rule sets, started together with slirp4netns; the program is released only after both.
  const rules = installRules(netns, policy, timeoutMs);
  rules.catch(() => undefined); // awaited below; this only keeps an early slirp failure from leaving it unhandled
  // --exit-fd: slirp4netns also ends when this process dies (its end of the pipe closes), so a crash leaks nothing.
  const args = ['--configure', '--mtu=65520', '--enable-sandbox', '--enable-seccomp', '--ready-fd=3', '--exit-fd=4', '--netns-type=path'];
  if (!policy.hostPorts?.length) args.push('--disable-host-loopback');
  const slirp: ChildProcess = spawn('slirp4netns', [...args, netns, 'tap0'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  slirp.stdio[4]?.on('error', () => undefined);
  let stderr = '';
  slirp.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const ready = slirp.stdio[3];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('slirp4netns did not come up in time')), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      slirp.kill('SIGKILL');
      reject(error);
    };
    ready?.on('error', () => undefined);
    ready?.once('data', () => {
      clearTimeout(timer);
      resolve();
    });
    slirp.once('error', (error) => fail(error));
    slirp.once('exit', (code) => fail(new Error(`slirp4netns exited (${code}): ${stderr.trim().slice(0, 300)}`)));
  });
  slirp.removeAllListeners('exit');
  try {
    await rules;
  } catch (error) {
    slirp.kill('SIGKILL');
    throw error;
  }
  return {
    stop() {
      if (slirp.exitCode === null) slirp.kill('SIGKILL');
    },
  };
}

function installRules(netns: string, policy: NetworkPolicy, timeoutMs: number): Promise<void> {
  const script = `iptables-restore <<'V4'\n${firewallRules(policy)}V4\n` +
    `if command -v ip6tables-restore >/dev/null; then ip6tables-restore <<'V6' || true\n${IPV6_RULES}V6\nfi\n`;
  return new Promise((resolve, reject) => {
    execFile('nsenter', [`--net=${netns}`, 'sh', '-c', script], { timeout: timeoutMs }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`firewall rules in the sandbox namespace failed: ${stderr || error.message}`));
      else resolve();
    });
  });
}

/** The namespace's current IPv4 rules, as `iptables -S` prints them (tests and doctor read them). */
export function readRules(pid: number): string {
  const result = spawnSync('nsenter', [`--net=/proc/${pid}/ns/net`, 'iptables', '-S'], { encoding: 'utf8', timeout: 5000 });
  return result.stdout;
}
