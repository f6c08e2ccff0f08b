// The docs bench's view of published artifacts: each package's whole archive as the registry serves it (to check
// that an expected answer is really there), and a RubyGems fake on 127.0.0.1 serving gems rebuilt from Debian's
// packaging of the released gems (rubygems.org is not reachable from these machines).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import * as tar from 'tar';
import { readTar, readZip, type ArchiveContents } from '../src/docs/archive.ts';
import { fetchBytes, fetchJson } from '../src/docs/fetch.ts';
import { escapeModulePath } from '../src/docs/sources/gomod.ts';
import { pickDistributions } from '../src/docs/sources/pypi.ts';
import { typesVersionFor } from '../src/docs/sources/npm.ts';

const LIMITS = { timeoutMs: 60_000, maxBytes: 100 * 1024 * 1024 };
const ALL = { maxEntries: 50_000, maxUnpackedBytes: 400 * 1024 * 1024, maxFileBytes: 4 * 1024 * 1024, keep: () => true };

function textFiles(contents: ArchiveContents, strip: (p: string) => string): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of contents.files) {
    const head = file.bytes.subarray(0, 1024);
    if (head.includes(0)) continue; // binary
    files.set(strip(file.path), Buffer.from(file.bytes).toString('utf8'));
  }
  return files;
}

const dropTop = (p: string) => p.slice(p.indexOf('/') + 1);

/** Every text file of the published artifact of `name@version`, paths relative to the package root. */
export async function rawArtifact(ecosystem: string, name: string, version: string, gems: GemFixture | undefined): Promise<Map<string, string>> {
  switch (ecosystem) {
    case 'npm': {
      const manifest = await fetchJson<{ dist?: { tarball?: string } }>(`https://registry.npmjs.org/${name.replace('/', '%2F')}/${version}`, LIMITS);
      const bytes = manifest?.dist?.tarball ? await fetchBytes(manifest.dist.tarball, LIMITS) : undefined;
      if (!bytes) throw new Error(`no tarball for ${name}@${version}`);
      return textFiles(await readTar(bytes, ALL), dropTop);
    }
    case 'pypi': {
      // Docs search reads the sdist (guides) and a wheel (generated modules, stubs) together: so does the check.
      const jsonUrl = `https://pypi.org/pypi/${name}/json`;
      const project = await fetchJson<{ releases?: Record<string, Array<{ packagetype: string; url: string; size: number; filename: string }>> }>(jsonUrl, LIMITS);
      const dists = pickDistributions((project?.releases?.[version] ?? []).map((f) => ({ ...f, url: new URL(f.url, jsonUrl).toString() })));
      if (!dists.length) throw new Error(`no distribution for ${name} ${version}`);
      const files = new Map<string, string>();
      for (const dist of [...dists].reverse()) {
        const bytes = await fetchBytes(dist.url, LIMITS);
        if (!bytes) throw new Error(`no distribution for ${name} ${version}`);
        const read = dist.packagetype === 'bdist_wheel' || dist.filename.endsWith('.zip') ? textFiles(readZip(bytes, ALL), dist.packagetype === 'bdist_wheel' ? (p) => p : dropTop) : textFiles(await readTar(bytes, ALL), dropTop);
        for (const [path, text] of read) files.set(path, text);
      }
      return files;
    }
    case 'crates': {
      const bytes = await fetchBytes(`https://static.crates.io/crates/${name}/${name}-${version}.crate`, LIMITS);
      if (!bytes) throw new Error(`no .crate for ${name}@${version}`);
      return textFiles(await readTar(bytes, ALL), dropTop);
    }
    case 'go': {
      const bytes = await fetchBytes(`https://proxy.golang.org/${escapeModulePath(name)}/@v/${version}.zip`, LIMITS);
      if (!bytes) throw new Error(`no module zip for ${name}@${version}`);
      const prefix = `${name}@${version}/`;
      return textFiles(readZip(bytes, ALL), (p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p));
    }
    case 'rubygems': {
      const gem = gems?.gems.get(name);
      if (!gem) throw new Error(`the RubyGems fixture has no ${name}`);
      return gem.files;
    }
    default: throw new Error(`unknown ecosystem ${ecosystem}`);
  }
}

/** The @types/<name> package DefinitelyTyped publishes for `name@version` (its major.minor), as docs search picks it. */
export async function typesArtifact(name: string, version: string): Promise<{ version: string; files: Map<string, string> } | undefined> {
  const typesName = `@types/${name.replace(/^@/, '').replace('/', '__')}`;
  const packument = await fetchJson<{ versions?: Record<string, { dist?: { tarball?: string } }> }>(`https://registry.npmjs.org/${typesName.replace('/', '%2F')}`, LIMITS);
  const chosen = packument?.versions ? typesVersionFor(version, Object.keys(packument.versions)) : undefined;
  const tarball = chosen ? packument!.versions![chosen]!.dist?.tarball : undefined;
  const bytes = tarball ? await fetchBytes(tarball, LIMITS) : undefined;
  return bytes ? { version: chosen!, files: textFiles(await readTar(bytes, ALL), dropTop) } : undefined;
}

interface Gem { version: string; bytes: Buffer; files: Map<string, string> }
export interface GemFixture { url: string; gems: Map<string, Gem>; close(): Promise<void> }

// Debian packages a released gem's files (lib/ under rubygems-integration, README under /usr/share/doc).
const GEMS: Record<string, string> = { sinatra: 'ruby-sinatra', devise: 'ruby-devise', 'rspec-core': 'ruby-rspec-core', httparty: 'ruby-httparty' };

function walk(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full, base) : entry.isFile() ? [path.relative(base, full)] : [];
  });
}

const readMaybeGz = (file: string) => (file.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(file)) : fs.readFileSync(file));

/** Builds each gem as a `.gem` (a tar with metadata.gz and data.tar.gz) from its Debian package, cached in `cacheDir`. */
function buildGem(cacheDir: string, name: string, debName: string): Gem {
  const root = path.join(cacheDir, debName);
  if (!fs.existsSync(path.join(root, 'usr'))) {
    fs.mkdirSync(root, { recursive: true });
    execFileSync('apt-get', ['download', debName], { cwd: cacheDir, stdio: 'ignore' });
    const deb = fs.readdirSync(cacheDir).find((f) => f.startsWith(`${debName}_`) && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${debName} gave no .deb`);
    execFileSync('dpkg-deb', ['-x', path.join(cacheDir, deb), root]);
  }
  const gemsDir = path.join(root, 'usr/share/rubygems-integration/all/gems');
  const gemDir = fs.readdirSync(gemsDir).find((d) => d.startsWith(`${name}-`))!;
  const version = gemDir.slice(name.length + 1);
  const staging = path.join(cacheDir, `${name}-${version}.staging`);
  fs.rmSync(staging, { recursive: true, force: true });
  const files = new Map<string, string>();
  const put = (rel: string, bytes: Buffer) => {
    fs.mkdirSync(path.dirname(path.join(staging, rel)), { recursive: true });
    fs.writeFileSync(path.join(staging, rel), bytes);
    files.set(rel, bytes.toString('utf8'));
  };
  for (const rel of walk(path.join(gemsDir, gemDir))) put(rel, fs.readFileSync(path.join(gemsDir, gemDir, rel)));
  const docDir = path.join(root, 'usr/share/doc', debName);
  for (const rel of walk(docDir)) {
    if (!/(^|\/)README\.md(\.gz)?$/.test(rel) || rel.startsWith('examples/')) continue;
    put(rel.replace(/\.gz$/, ''), readMaybeGz(path.join(docDir, rel)));
  }
  const outer = path.join(cacheDir, `${name}-${version}.outer`);
  fs.rmSync(outer, { recursive: true, force: true });
  fs.mkdirSync(outer);
  tar.c({ gzip: true, file: path.join(outer, 'data.tar.gz'), cwd: staging, sync: true, portable: true }, fs.readdirSync(staging));
  fs.writeFileSync(path.join(outer, 'metadata.gz'), zlib.gzipSync(`--- !ruby/object:Gem::Specification\nname: ${name}\nversion: ${version}\n`));
  const gemFile = path.join(cacheDir, `${name}-${version}.gem`);
  tar.c({ file: gemFile, cwd: outer, sync: true, portable: true }, ['metadata.gz', 'data.tar.gz']);
  return { version, bytes: fs.readFileSync(gemFile), files };
}

/** Builds the gems and serves them RubyGems-style (`/api/v1/versions/:name.json`, `/gems/:name-:version.gem`) on 127.0.0.1. */
export async function startGemFixture(cacheDir: string): Promise<GemFixture> {
  fs.mkdirSync(cacheDir, { recursive: true });
  const gems = new Map(Object.entries(GEMS).map(([name, deb]) => [name, buildGem(cacheDir, name, deb)]));
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    const versions = /^\/api\/v1\/versions\/([^/]+)\.json$/.exec(url);
    const gem = versions ? gems.get(decodeURIComponent(versions[1]!)) : undefined;
    if (gem) return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ number: gem.version, prerelease: false, licenses: ['MIT'] }]));
    const file = /^\/gems\/(.+)-([^-]+)\.gem$/.exec(url);
    const found = file ? gems.get(decodeURIComponent(file[1]!)) : undefined;
    if (found && found.version === file![2]) return response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(found.bytes);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    gems,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The benches' gem fixture (cached under ~/.cache/tooldex-bench), or undefined with a note when it cannot start. */
export async function benchGemFixture(): Promise<GemFixture | undefined> {
  try {
    return await startGemFixture(path.join(os.homedir(), '.cache', 'tooldex-bench', 'gems'));
  } catch (error) {
    console.error(`RubyGems fixture unavailable (${(error as Error).message}); its questions are skipped`);
    return undefined;
  }
}
