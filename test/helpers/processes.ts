// Real processes for operating tests: a PostgreSQL and a Redis of the test's own (so stopping them never touches
// the shared servers other tests use), and tooldex servers run as `tooldex serve` child processes.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

const run = promisify(execFile);
export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Debian's newest PostgreSQL server binaries, if installed. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

export const hasRedisServer = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

export interface OwnPostgres {
  url: string;
  port: number;
  start(): Promise<void>;
  /** A fast shutdown: the server ends every connection (what a restart or failover looks like to clients). */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A throw-away PostgreSQL cluster in a temp dir on a random loopback port. As root it runs as the `postgres` user
 * (PostgreSQL refuses to run as root); otherwise as the current user.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (scripts/setup.sh installs them)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-ownpg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const pgRun = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]) : run(path.join(bin, command), args);
  const data = path.join(dir, 'data');
  await pgRun('initdb', ['-D', data, '-U', 'tooldex', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const pg = {
    url: `postgres://tooldex@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await pgRun('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`, 'start']);
    },
    async stop() {
      await pgRun('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    async dispose() {
      await pg.stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  return pg;
}

export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

/** A redis-server of the test's own on a random loopback port, without persistence. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    url,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      for (let attempt = 0; ; attempt++) {
        const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
        client.on('error', () => undefined);
        const pong = await client.connect().then(() => client.ping(), () => undefined);
        client.disconnect();
        if (pong === 'PONG') return;
        if (attempt > 100) throw new Error(`redis-server did not start on ${url}`);
        await sleep(100);
      }
    },
    async stop() {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill('SIGKILL');
      await exited;
    },
    dispose: () => own.stop(),
  };
  await own.start();
  return own;
}

/** A small catalog snapshot (the first `count` tools of the shipped one, plus named slugs): fast first starts. */
export async function smallSnapshot(count = 200, alsoSlugs: string[] = ['npm-zod']): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-snap-')), 'catalog.jsonl.gz');
  const lines: string[] = [];
  const input = readline.createInterface({ input: fs.createReadStream(path.join(repoRoot, 'data/catalog.jsonl.gz')).pipe(zlib.createGunzip()) });
  for await (const line of input) {
    if (!line.trim()) continue;
    if (lines.length < count || alsoSlugs.some((slug) => line.startsWith(`{"slug":"${slug}"`))) lines.push(line);
  }
  fs.writeFileSync(file, zlib.gzipSync(`${lines.join('\n')}\n`));
  return file;
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface TooldexProcess {
  url: string;
  home: string;
  child: ChildProcess;
  /** Every JSON log line written so far (stderr). */
  logs: LogLine[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  waitReady(timeoutMs?: number): Promise<void>;
  signal(name: NodeJS.Signals): void;
  dispose(): Promise<void>;
}

/** `tooldex serve` as a child process on a free loopback port, configured by environment like in production. */
export async function startTooldex(env: Record<string, string>, options: { waitReady?: boolean } = {}): Promise<TooldexProcess> {
  const port = await freePort();
  const home = env.TOOLDEX_HOME ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-proc-'));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) =>
    !key.startsWith('TOOLDEX_') && key !== 'DATABASE_URL' && key !== 'REDIS_URL' && key !== 'PORT' && key !== 'HOST'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), 'serve'], {
    cwd: repoRoot,
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', TOOLDEX_HOME: home, LOG_LEVEL: 'info', TOOLDEX_DOCS_SITES: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs: LogLine[] = [];
  const listeners = new Set<() => void>();
  readline.createInterface({ input: child.stderr! }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      logs.push({ level: 60, msg: line });
    }
    for (const listener of listeners) listener();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal }))); // 'close': after stderr is read to its end
  const url = `http://127.0.0.1:${port}`;
  const proc: TooldexProcess = {
    url, home, child, logs, exited,
    waitForLog(match, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = logs.find(match);
          if (!found) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`log line not seen within ${timeoutMs} ms; last lines:\n${logs.slice(-8).map((l) => JSON.stringify(l)).join('\n')}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async waitReady(timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`tooldex exited (${child.exitCode}): ${logs.slice(-5).map((l) => l.msg).join(' | ')}`);
        const status = await fetch(`${url}/healthz`).then((r) => r.status, () => 0);
        if (status === 200) return;
        await sleep(200);
      }
      throw new Error(`tooldex at ${url} not ready within ${timeoutMs} ms`);
    },
    signal(name) {
      if (child.exitCode === null && child.signalCode === null) child.kill(name);
    },
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      if (!env.TOOLDEX_HOME) fs.rmSync(home, { recursive: true, force: true });
    },
  };
  if (options.waitReady !== false) await proc.waitReady();
  return proc;
}
