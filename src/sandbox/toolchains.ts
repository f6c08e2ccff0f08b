// Finds each runtime's toolchain on this host (binary paths, version, folders to bind read-only into sandboxes).
// Detection runs once per process; a runtime whose toolchain is missing answers `unavailable`.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Runtime } from './schema.ts';

export interface Toolchain {
  runtime: Runtime;
  available: boolean;
  version?: string;
  reason?: string;
  /** Host folders bound read-only at the same path inside the sandbox (outside /usr). */
  mounts: string[];
  /** Named binaries and folders the runtime adapter uses (paths as seen inside the sandbox). */
  paths: Record<string, string>;
}

export type Toolchains = Record<Runtime, Toolchain>;

/** A binary by name: looked up in searchPath when the operator set one, else left to the inherited PATH. */
function locate(name: string, searchPath: string | undefined): string {
  if (searchPath === undefined) return name;
  for (const dir of searchPath.split(':').filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} not found in TOOLDEX_TOOLCHAIN_PATH`);
}

const run = (file: string, args: string[]) =>
  new Promise<string>((resolve, reject) => {
    execFile(file, args, { timeout: 20_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')}: ${(stderr || error.message).trim().split('\n')[0]}`));
      else resolve(stdout.trim());
    });
  });

/** Folders outside the read-only /usr a binary needs: its install root, or nothing when it lives in /usr. */
const outsideUsr = (dir: string) => (dir.startsWith('/usr/') ? [] : [dir]);

const missing = (runtime: Runtime, reason: string): Toolchain => ({ runtime, available: false, reason, mounts: [], paths: {} });

async function detectNode(): Promise<Toolchain> {
  const node = fs.realpathSync(process.execPath);
  const require = createRequire(import.meta.url);
  const bunPackage = path.dirname(require.resolve('bun/package.json'));
  const bun = path.join(bunPackage, 'bin', 'bun.exe');
  const tsxPackage = path.dirname(require.resolve('tsx/package.json'));
  if (!fs.existsSync(bun)) return missing('node', `bun binary missing at ${bun}; run npm install`);
  const bunVersion = await run(bun, ['--version']);
  // tsx needs its own dependencies (esbuild, get-tsconfig): bind the node_modules folder that holds it.
  const modules = path.dirname(tsxPackage);
  return {
    runtime: 'node', available: true, version: `node ${process.version}, bun ${bunVersion}`,
    mounts: [...new Set([...outsideUsr(path.dirname(path.dirname(node))), path.dirname(path.dirname(bun)), modules])],
    paths: { node, bun, tsxLoader: path.join(tsxPackage, 'dist', 'loader.mjs') },
  };
}

async function detectPython(searchPath?: string): Promise<Toolchain> {
  const out = await run(locate('python3', searchPath), ['-c', 'import sys,os;print(os.path.realpath(sys.executable));print(sys.base_prefix);print(sys.version.split()[0])']);
  const [python = '', prefix = '', version = ''] = out.split('\n');
  return { runtime: 'python', available: true, version: `python ${version}`, mounts: outsideUsr(prefix), paths: { python, prefix } };
}

async function detectGo(searchPath?: string): Promise<Toolchain> {
  const [root = '', version = ''] = (await run(locate('go', searchPath), ['env', 'GOROOT', 'GOVERSION'])).split('\n');
  return { runtime: 'golang', available: true, version, mounts: outsideUsr(root), paths: { go: path.join(root, 'bin', 'go'), goroot: root } };
}

async function detectRust(searchPath?: string): Promise<Toolchain> {
  const sysroot = await run(locate('rustc', searchPath), ['--print', 'sysroot']);
  const version = await run(path.join(sysroot, 'bin', 'rustc'), ['--version']);
  const cargo = path.join(sysroot, 'bin', 'cargo');
  if (!fs.existsSync(cargo)) return missing('rust', `cargo missing in ${sysroot}`);
  return { runtime: 'rust', available: true, version, mounts: outsideUsr(sysroot), paths: { cargo, bin: path.join(sysroot, 'bin') } };
}

async function detectRuby(searchPath?: string): Promise<Toolchain> {
  const [ruby = '', version = ''] = (await run(locate('ruby', searchPath), ['-e', 'puts RbConfig.ruby; puts RUBY_VERSION'])).split('\n');
  const gem = fs.realpathSync(path.join(path.dirname(ruby), 'gem'));
  return { runtime: 'ruby', available: true, version: `ruby ${version}`, mounts: outsideUsr(path.dirname(path.dirname(ruby))), paths: { ruby, gem } };
}

const DETECTORS: Record<Runtime, (searchPath?: string) => Promise<Toolchain>> = {
  node: detectNode, python: detectPython, golang: detectGo, rust: detectRust, ruby: detectRuby,
};

/** searchPath: where to look for python3, go, rustc and ruby (TOOLDEX_TOOLCHAIN_PATH); node is the server's own. */
export async function detectToolchains(searchPath?: string): Promise<Toolchains> {
  const entries = await Promise.all(Object.entries(DETECTORS).map(async ([runtime, detect]) => {
    try {
      return await detect(searchPath);
    } catch (error) {
      return missing(runtime as Runtime, (error as Error).message);
    }
  }));
  return Object.fromEntries(entries.map((toolchain) => [toolchain.runtime, toolchain])) as Toolchains;
}
