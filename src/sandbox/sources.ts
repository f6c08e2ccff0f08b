// Which package sources answer from inside a sandbox (the path installs take, through slirp4netns and the host
// firewall): used by `tooldex doctor` and to tell a failed install apart from an unreachable registry.
import type { Config } from '../config.ts';
import { runIsolated, type HostIdentity } from './isolate.ts';
import { SLIRP_GATEWAY } from './network.ts';
import { TLS_ENV } from './steps.ts';
import type { Runtime } from './schema.ts';
import type { Toolchain } from './toolchains.ts';

export interface PackageSource {
  runtime: Runtime;
  name: string;
  /** The URL as a sandbox reaches it (a loopback gem source goes through the slirp gateway). */
  url: string;
  hostPort?: number;
}

export interface SourceCheck extends PackageSource {
  ok: boolean;
  /** HTTP status, when the source answered. */
  status: number | null;
  ms: number;
  error: string | null;
}

/** A package source as a sandbox reaches it: a source on host loopback goes through the slirp gateway on its one port. */
export interface SourceAddress {
  url: string;
  hostPort?: number;
}

export function reachableFromSandbox(source: string): SourceAddress {
  const trimmed = source.replace(/\/+$/, '');
  try {
    const url = new URL(trimmed);
    if (['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      url.hostname = SLIRP_GATEWAY;
      return { url: url.toString().replace(/\/+$/, ''), hostPort: port };
    }
  } catch {
    // not a URL: the installer reports it
  }
  return { url: trimmed };
}

/** Each runtime's package source (the operator's settings), as sandboxes reach it. */
export function registries(config: Config): Record<Runtime, SourceAddress> {
  return {
    node: reachableFromSandbox(config.TOOLDEX_NPM_REGISTRY),
    python: reachableFromSandbox(config.TOOLDEX_PYPI_URL),
    golang: reachableFromSandbox(config.TOOLDEX_GOPROXY),
    rust: { url: 'https://index.crates.io' },
    ruby: reachableFromSandbox(config.TOOLDEX_GEM_SOURCE ?? config.TOOLDEX_RUBYGEMS_URL),
  };
}

/** Host loopback ports that fetch steps may reach (sources on loopback). */
export const sourcePorts = (config: Config) => Object.values(registries(config)).flatMap((source) => (source.hostPort ? [source.hostPort] : []));

const PROBE_PATHS: Record<Runtime, [string, string]> = {
  node: ['npm registry', '/'], python: ['PyPI', '/simple/pip/'], golang: ['Go module proxy', '/github.com/google/uuid/@v/list'],
  rust: ['crates.io index', '/config.json'], ruby: ['RubyGems source', '/specs.4.8.gz'],
};

export function packageSources(config: Config): PackageSource[] {
  return (Object.entries(registries(config)) as Array<[Runtime, SourceAddress]>).map(([runtime, source]) => ({
    runtime, name: PROBE_PATHS[runtime][0], url: `${source.url}${PROBE_PATHS[runtime][1]}`, ...(source.hostPort ? { hostPort: source.hostPort } : {}),
  }));
}

/** A node program (the server's own node, inside a sandbox) that fetches each URL once and prints what happened. */
const CHECK_SCRIPT = `
const urls = JSON.parse(process.argv[1]);
Promise.all(urls.map(async (url) => {
  const started = Date.now();
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(5000), redirect: 'manual' });
    await response.body?.cancel();
    return { status: response.status, ms: Date.now() - started, error: null };
  } catch (error) {
    const cause = error.cause ? (error.cause.code || error.cause.message) : null;
    return { status: null, ms: Date.now() - started, error: [error.name === 'TimeoutError' ? 'no answer within 5 s' : error.message, cause].filter(Boolean).join(': ') };
  }
})).then((results) => process.stdout.write(JSON.stringify(results)));`;

export async function checkSources(sources: PackageSource[], identity: HostIdentity, node: Toolchain): Promise<SourceCheck[]> {
  const hostPorts = sources.flatMap((source) => (source.hostPort ? [source.hostPort] : []));
  const result = await runIsolated({
    argv: [node.paths.node ?? 'node', '-e', CHECK_SCRIPT, JSON.stringify(sources.map((source) => source.url))],
    cwd: '/tmp', env: { ...TLS_ENV, PATH: '/usr/bin:/bin', HOME: '/tmp' }, mounts: node.mounts.map((mount) => ({ ...mount })),
    network: { hostPorts }, timeoutMs: 15_000, limits: { memoryBytes: 256 * 1024 * 1024, pids: 64, cpus: 1 },
    fileSizeBytes: 1 << 20, keepBytes: 65536, killOutputBytes: 1 << 20,
  }, identity);
  let answers: Array<{ status: number | null; ms: number; error: string | null }> = [];
  try {
    answers = JSON.parse(result.stdout.finish((text) => text)) as typeof answers;
  } catch {
    const why = result.setupError ?? (result.stderr.finish((text) => text).trim().split('\n')[0] || 'the check did not run');
    answers = sources.map(() => ({ status: null, ms: 0, error: why }));
  }
  return sources.map((source, index) => {
    const answer = answers[index] ?? { status: null, ms: 0, error: 'no answer' };
    // Any HTTP answer below 500 means the source is there (404 for a probe path still proves reachability).
    return { ...source, ...answer, ok: answer.status !== null && answer.status < 500 };
  });
}
