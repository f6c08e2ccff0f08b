// Archives and a fake npm registry built by the tests themselves: good packages, hostile ones, and a switch
// to make the registry fail, all on 127.0.0.1. Nothing here reaches another host.
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';

export interface TarEntry { name: string; body?: string | Uint8Array; type?: 'file' | 'symlink' | 'dir'; linkname?: string }

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, '0') + '\0';
}

/** A plain ustar archive, byte by byte, so tests can write entries no well-behaved packer would. */
export function makeTar(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = entry.body === undefined ? Buffer.alloc(0) : Buffer.from(entry.body);
    const header = Buffer.alloc(512);
    header.write(entry.name, 0, 100, 'utf8');
    header.write(octal(entry.type === 'dir' ? 0o755 : 0o644, 8), 100, 'ascii');
    header.write(octal(0, 8), 108, 'ascii');
    header.write(octal(0, 8), 116, 'ascii');
    header.write(octal(entry.type === 'file' || !entry.type ? body.length : 0, 12), 124, 'ascii');
    header.write(octal(1_700_000_000, 12), 136, 'ascii');
    header.write('        ', 148, 'ascii');
    header.write(entry.type === 'symlink' ? '2' : entry.type === 'dir' ? '5' : '0', 156, 'ascii');
    if (entry.linkname) header.write(entry.linkname, 157, 100, 'utf8');
    header.write('ustar\0', 257, 'ascii');
    header.write('00', 263, 'ascii');
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    blocks.push(header);
    if (!entry.type || entry.type === 'file') {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const makeTgz = (entries: TarEntry[]) => zlib.gzipSync(makeTar(entries));

export interface FakePackage {
  name: string;
  versions: Record<string, Buffer>;
  latest?: string;
  manifest?: Record<string, unknown>;
}

export interface FakeRegistry {
  url: string;
  hits: Map<string, number>;
  /** 'ok' serves; 'fail' answers 500; 'hang' never answers. */
  mode: 'ok' | 'fail' | 'hang';
  /** Holds tarball answers back, so concurrent first requests really overlap. */
  tarballDelayMs: number;
  publish(pkg: FakePackage): void;
  close(): Promise<void>;
}

export async function startFakeRegistry(packages: FakePackage[]): Promise<FakeRegistry> {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const hanging = new Set<http.ServerResponse>();
  const registry: FakeRegistry = {
    url: '', hits: new Map(), mode: 'ok', tarballDelayMs: 0,
    publish: (pkg) => byName.set(pkg.name, pkg),
    close: () => new Promise((resolve) => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = http.createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    registry.hits.set(path, (registry.hits.get(path) ?? 0) + 1);
    if (registry.mode === 'hang') { hanging.add(response); return; }
    if (registry.mode === 'fail') { response.writeHead(500).end('down'); return; }
    const tarball = /^\/(.+)\/-\/(.+)-(\d[^/]*)\.tgz$/.exec(path);
    if (tarball) {
      const body = byName.get(tarball[1]!)?.versions[tarball[3]!];
      if (!body) { response.writeHead(404).end(); return; }
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body), registry.tarballDelayMs);
      return;
    }
    const parts = path.slice(1).split('/');
    const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    const version = parts[0]!.startsWith('@') ? parts[2] : parts[1];
    const pkg = byName.get(name);
    if (!pkg) { response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}'); return; }
    const versions = Object.keys(pkg.versions);
    const latest = pkg.latest ?? versions[versions.length - 1]!;
    const manifestOf = (v: string) => ({
      name, version: v, description: `${name} fixture`, license: 'MIT', ...pkg.manifest,
      dist: { tarball: `${registry.url}/${name}/-/${name.split('/').pop()}-${v}.tgz` },
    });
    if (version) {
      const resolved = version === 'latest' ? latest : version;
      if (!pkg.versions[resolved]) { response.writeHead(404).end('{}'); return; }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(manifestOf(resolved)));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      name, 'dist-tags': { latest }, versions: Object.fromEntries(versions.map((v) => [v, manifestOf(v)])),
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return registry;
}

/** A small, well-formed package: README with a quickstart, a guide under docs/, and a declaration file. */
export function goodPackage(name: string, version: string, extra = ''): Buffer {
  return makeTgz([
    { name: 'package/package.json', body: JSON.stringify({ name, version, types: 'index.d.ts', type: 'module', engines: { node: '>=18' }, exports: { '.': './index.js', './extra': './extra.js' } }) },
    { name: 'package/README.md', body: `# ${name}\n\nTurns frobnicators into widgets.\n\n## Install\n\n\`\`\`sh\nnpm install ${name}\n\`\`\`\n\n## Usage\n\n\`\`\`js\nimport { frobnicate } from '${name}';\n\nconsole.log(frobnicate(3));\n\`\`\`\n\n## Retrying failed widgets\n\nCall \`retryWidget\` with a backoff in milliseconds to retry a widget that failed to frobnicate.${extra}\n` },
    { name: 'package/docs/guide.md', body: '---\ntitle: Configuration guide\n---\n\n## Colour themes\n\nSet `theme: "dark"` in the configuration object to render widgets on a dark background.\n' },
    { name: 'package/index.d.ts', body: '/**\n * Frobnicates a number of widgets.\n * @example\n * frobnicate(3)\n */\nexport declare function frobnicate(count: number): string;\n\nexport declare class Widget {\n  /** Sets the maximum retry count before giving up on a widget. */\n  setMaxRetries(count: number): this;\n}\n' },
    { name: 'package/index.js', body: 'export const frobnicate = (n) => `widgets:${n}`;\n' },
  ]);
}

export interface FakeSite { url: string; hits: Map<string, number>; pages: Record<string, [string, string | Buffer]>; close(): Promise<void> }

/** A documentation site on loopback: path → [content-type, body]; anything else is 404. */
export async function startFakeSite(pages: Record<string, [string, string | Buffer]>): Promise<FakeSite> {
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = pages[path];
    if (!page) { response.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
    if (page[0] === 'redirect') { response.writeHead(301, { location: String(page[1]) }).end(); return; }
    response.writeHead(200, { 'content-type': page[0] }).end(page[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    pages,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
