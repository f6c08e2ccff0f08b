// Outbound network for one sandbox: slirp4netns user-mode networking into the namespace the sandbox wrapper made, run
// under the sandbox gid, plus host firewall rules on that gid: no address of the host and no private range is reachable.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** slirp4netns's fixed addresses inside the namespace (default CIDR 10.0.2.0/24). */
export const SLIRP_GATEWAY = '10.0.2.2';
export const SLIRP_DNS = '10.0.2.3';

/** IPv4 ranges no sandbox may reach: private, shared, link-local (cloud metadata), loopback, test, multicast, reserved. */
export const BLOCKED_V4 = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
];
/** IPv6 ranges no sandbox may reach: loopback, unspecified, IPv4-mapped, unique-local (incl. metadata), link-local, multicast. */
export const BLOCKED_V6 = ['::1/128', '::/128', '::ffff:0:0/96', 'fc00::/7', 'fe80::/10', 'ff00::/8'];

export interface NetworkPolicy {
  /** Host loopback ports the sandbox may reach through the slirp gateway (an operator's loopback gem source). */
  hostPorts?: number[];
}

type Family = 4 | 6;
const BINARY: Record<Family, string> = { 4: 'iptables', 6: 'ip6tables' };

export const hostChain = (gid: number) => `TOOLDEX-SBX-${gid}`;
export const allowChain = (gid: number) => `TOOLDEX-SBX-${gid}-ALLOW`;

/** The host's DNS servers (slirp forwards the sandbox's queries to them): the one thing at a private address allowed. */
export function nameservers(resolvConf = '/etc/resolv.conf'): string[] {
  try {
    return fs.readFileSync(resolvConf, 'utf8').split('\n')
      .map((line) => /^\s*nameserver\s+([^\s%]+)/.exec(line)?.[1]).filter((server): server is string => Boolean(server));
  } catch {
    return [];
  }
}

/**
 * iptables-restore input for the chain every slirp4netns socket (gid-owned) passes: DNS to the host's resolvers, then
 * REJECT for every local address of the host — `addrtype LOCAL` is evaluated per packet, so addresses added later are
 * covered — and for the private ranges. Everything else (the internet) returns to OUTPUT's own rules.
 */
export function hostRules(gid: number, family: Family, servers: string[], connected: string[] = []): string {
  const chain = hostChain(gid);
  const lines = ['*filter', `:${chain} - [0:0]`];
  for (const server of servers.filter((s) => s.includes(':') === (family === 6))) {
    const mask = family === 4 ? '32' : '128';
    lines.push(`-A ${chain} -d ${server}/${mask} -p udp --dport 53 -j RETURN`, `-A ${chain} -d ${server}/${mask} -p tcp --dport 53 -j RETURN`);
  }
  lines.push(`-A ${chain} -m addrtype --dst-type LOCAL -j REJECT`);
  for (const range of family === 4 ? BLOCKED_V4 : BLOCKED_V6) lines.push(`-A ${chain} -d ${range} -j REJECT`);
  // The networks the host is attached to and its gateways, public addresses too: a neighbour on the host's own subnet
  // (a cloud VPC's other machines, the router's admin page) is not "the internet".
  for (const network of connected.filter((n) => n.includes(':') === (family === 6))) lines.push(`-A ${chain} -d ${network} -j REJECT`);
  lines.push('COMMIT', '');
  return lines.join('\n');
}

/** One route as `ip -j route` prints it. */
interface RouteEntry { dst?: string; gateway?: string; type?: string }

/**
 * The destinations of the host's connected routes — each network a route reaches directly, without a gateway (the
 * host's own subnets) — and the gateway of every route, as CIDRs, from `ip -j route` (IPv4 and IPv6, main table).
 * Default routes without a gateway (a point-to-point VPN) are the internet, not a neighbour: left out.
 */
export async function connectedNetworks(): Promise<string[]> {
  const found = new Set<string>();
  for (const family of ['-4', '-6']) {
    const text = await run('ip', ['-j', family, 'route', 'show', 'table', 'main']).catch(() => '[]');
    let routes: RouteEntry[];
    try {
      routes = JSON.parse(text || '[]') as RouteEntry[];
    } catch {
      continue;
    }
    const host = family === '-4' ? '/32' : '/128';
    for (const route of routes) {
      if (route.type && route.type !== 'unicast') continue;
      if (route.gateway) found.add(`${route.gateway}${host}`);
      else if (route.dst && route.dst !== 'default') found.add(route.dst.includes('/') ? route.dst : `${route.dst}${host}`);
    }
  }
  return [...found];
}

const run = (file: string, args: string[], input?: string) => new Promise<string>((resolve, reject) => {
  const child = execFile(file, args, { timeout: 10_000 }, (error, stdout, stderr) => {
    if (error) reject(new Error(`${file} ${args.join(' ')}: ${(stderr || error.message).trim().split('\n')[0]}`));
    else resolve(stdout);
  });
  child.stdin?.on('error', () => undefined);
  if (input === undefined) child.stdin?.end();
  else child.stdin?.end(input);
});

/**
 * Keeps the host rules for the sandbox gid in place: checked at start and again before networked steps at most every
 * 30 s (an operator's firewall reload would otherwise remove them silently), rebuilt when anything is missing.
 */
export class HostFirewall {
  private checked = 0;
  private pending: Promise<void> | undefined;
  private readonly allowed = new Set<number>();

  constructor(private readonly gid: number, private readonly servers = nameservers()) {}

  /** Resolves when the rules are in; rejects (the caller answers 503) when they cannot be installed. */
  ensure(hostPorts: number[] = []): Promise<void> {
    const fresh = Date.now() - this.checked < 30_000 && hostPorts.every((port) => this.allowed.has(port));
    if (fresh) return Promise.resolve();
    this.pending ??= this.install(hostPorts).then(() => { this.checked = Date.now(); }).finally(() => { this.pending = undefined; });
    return this.pending;
  }

  private async install(hostPorts: number[]): Promise<void> {
    // Read again at every check (at most every 30 s): an interface or route added later is covered by the next check.
    const connected = await connectedNetworks();
    for (const family of [4, 6] as const) {
      const bin = BINARY[family];
      const chain = hostChain(this.gid);
      const want = hostRules(this.gid, family, this.servers, connected);
      const current = await run(bin, ['-w', '-S', chain]).catch(() => '');
      // Compare what matters: every wanted destination/rule text is present (iptables prints rules in its own form).
      const ranges = [...(family === 4 ? BLOCKED_V4 : BLOCKED_V6), ...connected.filter((n) => n.includes(':') === (family === 6))];
      const complete = current.includes('--dst-type LOCAL') && ranges.every((range) => current.includes(`-d ${range} `));
      if (!complete) await run(`${bin}-restore`, ['-w', '--noflush'], want);
      await this.jump(bin, chain);
      if (family === 4) {
        await run(bin, ['-w', '-N', allowChain(this.gid)]).catch(() => undefined);
        for (const port of new Set([...this.allowed, ...hostPorts])) {
          const rule = [allowChain(this.gid), '-d', '127.0.0.1/32', '-p', 'tcp', '--dport', String(port), '-j', 'ACCEPT'];
          await run(bin, ['-w', '-C', ...rule]).catch(() => run(bin, ['-w', '-A', ...rule]));
          this.allowed.add(port);
        }
        // Inserted after the main chain's jump, at the top: the allow chain comes first.
        await this.jump(bin, allowChain(this.gid));
      }
    }
  }

  /** OUTPUT → chain for sockets of the sandbox gid, inserted at the top when missing. */
  private async jump(bin: string, chain: string): Promise<void> {
    const rule = ['-m', 'owner', '--gid-owner', String(this.gid), '-j', chain];
    const present = await run(bin, ['-w', '-C', 'OUTPUT', ...rule]).then(() => true, () => false);
    if (!present) await run(bin, ['-w', '-I', 'OUTPUT', '1', ...rule]);
  }
}

/** The host's rules for the sandbox gid, as `iptables -S` prints them (tests and doctor read them). */
export async function readHostRules(gid: number): Promise<{ v4: string; v6: string; output: string }> {
  const [v4, v6, output] = await Promise.all([
    run('iptables', ['-w', '-S', hostChain(gid)]).catch(() => ''),
    run('ip6tables', ['-w', '-S', hostChain(gid)]).catch(() => ''),
    run('iptables', ['-w', '-S', 'OUTPUT']).catch(() => ''),
  ]);
  return { v4, v6, output };
}

export interface SandboxNetwork {
  stop(): void;
}

/**
 * Joins slirp4netns to the namespace at `netns` (made by the sandbox wrapper, loopback already up) and resolves once
 * traffic may flow. slirp4netns runs as root with the sandbox gid, so every socket it opens on the host passes the
 * gid's firewall chain; --disable-host-loopback closes the gateway to host loopback unless the step allows ports.
 */
export async function startNetwork(netns: string, policy: NetworkPolicy, gid: number, timeoutMs = 5000): Promise<SandboxNetwork> {
  // --exit-fd: slirp4netns also ends when this process dies (its end of the pipe closes), so a crash leaks nothing.
  const args = ['--configure', '--mtu=65520', '--enable-sandbox', '--enable-seccomp', '--ready-fd=3', '--exit-fd=4', '--netns-type=path'];
  if (!policy.hostPorts?.length) args.push('--disable-host-loopback');
  const slirp: ChildProcess = spawn('slirp4netns', [...args, netns, 'tap0'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], gid });
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
  return {
    stop() {
      if (slirp.exitCode === null) slirp.kill('SIGKILL');
    },
  };
}
