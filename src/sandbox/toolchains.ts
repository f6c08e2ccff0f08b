// Finds each runtime's toolchain on this host (binary paths, version, folders to bind read-only into sandboxes, which
// per step kind). The service's own installation never appears: node tooling is bound piecewise at neutral paths.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Runtime } from './schema.ts';

/** A host file or folder bound read-only at `dest` inside the sandbox. */
export interface ToolchainMount {
  host: string;
  dest: string;
  /** Copied once into the machine's tooling folder and bound from there, so no path of the service's install shows. */
  copy?: boolean;
}

export interface Toolchain {
  runtime: Runtime;
  available: boolean;
  version?: string;
  reason?: string;
  /** Bound read-only into every step (interpreters, compilers; outside /usr, which every sandbox has). */
  mounts: ToolchainMount[];
  /** Bound only into fetch steps (the installer binary). */
  fetchMounts: ToolchainMount[];
  /** Bound only into run steps (loaders the program needs). */
  runMounts: ToolchainMount[];
  /** The host interpreter's own package folders: hidden (an empty read-only folder over them) in run steps. */
  hostPackageDirs: string[];
  /** Named binaries and folders the runtime adapter uses (paths as seen inside the sandbox). */
  paths: Record<string, string>;
}

/** Where node tooling (bun, tsx and its dependencies) appears inside a sandbox: nothing of the server's install path. */
export const TOOLING = '/opt/tooldex';

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

/** Folders outside the read-only /usr a binary needs, at their own path: its install root, or nothing in /usr. */
const outsideUsr = (dir: string): ToolchainMount[] => (dir === '/usr' || dir.startsWith('/usr/') ? [] : [{ host: dir, dest: dir }]);

const toolchain = (runtime: Runtime, fields: Partial<Toolchain>): Toolchain => ({
  runtime, available: true, mounts: [], fetchMounts: [], runMounts: [], hostPackageDirs: [], paths: {}, ...fields,
});
const missing = (runtime: Runtime, reason: string): Toolchain => toolchain(runtime, { available: false, reason });

/** The package folder of `name` as node would find it from `fromDir` (walking up node_modules folders). */
function findPackage(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** A package and its installed dependencies (optional ones that are absent, e.g. other platforms' binaries, skipped). */
function dependencyClosure(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (name: string, dir: string) => {
    if (found.has(name)) return;
    found.set(name, dir);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as
      { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const depDir = findPackage(dep, dir);
      if (depDir) visit(dep, depDir);
    }
  };
  const require = createRequire(import.meta.url);
  visit(root, path.dirname(require.resolve(`${root}/package.json`)));
  return found;
}

async function detectNode(): Promise<Toolchain> {
  const node = fs.realpathSync(process.execPath);
  const require = createRequire(import.meta.url);
  const bun = path.join(path.dirname(require.resolve('bun/package.json')), 'bin', 'bun.exe');
  if (!fs.existsSync(bun)) return missing('node', `bun binary missing at ${bun}; run npm install`);
  const bunVersion = await run(bun, ['--version']);
  // tsx and its dependencies (esbuild and its platform binary), each bound alone: not the server's node_modules.
  const runMounts = [...dependencyClosure('tsx')].map(([name, dir]) => ({ host: dir, dest: `${TOOLING}/node_modules/${name}`, copy: true }));
  return toolchain('node', {
    version: `node ${process.version}, bun ${bunVersion}`,
    mounts: outsideUsr(path.dirname(path.dirname(node))),
    fetchMounts: [{ host: bun, dest: `${TOOLING}/bin/bun` }],
    runMounts,
    paths: { node, bun: `${TOOLING}/bin/bun`, tsxLoader: `${TOOLING}/node_modules/tsx/dist/loader.mjs` },
  });
}

async function detectPython(searchPath?: string): Promise<Toolchain> {
  const out = await run(locate('python3', searchPath), ['-I', '-c',
    'import sys,os,site,json;print(json.dumps([os.path.realpath(sys.executable),sys.base_prefix,sys.version.split()[0],site.getsitepackages()]))']);
  const [python, prefix, version, sitePackages] = JSON.parse(out) as [string, string, string, string[]];
  return toolchain('python', {
    version: `python ${version}`, mounts: outsideUsr(prefix), paths: { python, prefix },
    hostPackageDirs: sitePackages.filter((dir) => fs.existsSync(dir)),
  });
}

async function detectGo(searchPath?: string): Promise<Toolchain> {
  const [root = '', version = ''] = (await run(locate('go', searchPath), ['env', 'GOROOT', 'GOVERSION'])).split('\n');
  return toolchain('golang', { version, mounts: outsideUsr(root), paths: { go: path.join(root, 'bin', 'go'), goroot: root } });
}

async function detectRust(searchPath?: string): Promise<Toolchain> {
  const sysroot = await run(locate('rustc', searchPath), ['--print', 'sysroot']);
  const version = await run(path.join(sysroot, 'bin', 'rustc'), ['--version']);
  const cargo = path.join(sysroot, 'bin', 'cargo');
  if (!fs.existsSync(cargo)) return missing('rust', `cargo missing in ${sysroot}`);
  return toolchain('rust', { version, mounts: outsideUsr(sysroot), paths: { cargo, bin: path.join(sysroot, 'bin') } });
}

async function detectRuby(searchPath?: string): Promise<Toolchain> {
  const [ruby = '', version = ''] = (await run(locate('ruby', searchPath), ['-e', 'puts RbConfig.ruby; puts RUBY_VERSION'])).split('\n');
  const gem = fs.realpathSync(path.join(path.dirname(ruby), 'gem'));
  return toolchain('ruby', { version: `ruby ${version}`, mounts: outsideUsr(path.dirname(path.dirname(ruby))), paths: { ruby, gem } });
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
