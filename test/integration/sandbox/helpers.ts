// Shared pieces of the sandbox integration tests: a server with a shared sandbox cache, POST helpers
// (optionally from another loopback address, i.e. another client), and a loopback gem source built with gem.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sendFileUnder } from '../../helpers/static-files.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import type { StoreKind } from '../../helpers/stores.ts';
import type { ConfigOverrides } from '../../../src/config.ts';

/** One cache folder for every test server of a run, so the Go standard library is compiled once, not per test. */
export const SHARED_CACHE = path.join(os.tmpdir(), 'tooldex-test-sandbox-cache');

export function startSandboxServer(config: ConfigOverrides = {}, store?: StoreKind): Promise<TestServer> {
  return startServer({ store, config: { TOOLDEX_TEST_RPM: 1000, TOOLDEX_SANDBOX_CACHE_DIR: SHARED_CACHE, ...config } });
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** POST /tools/test; `from` picks the client's loopback source address (another "client" for ownership tests). */
export function postTest(server: TestServer, body: unknown, options: { from?: string; query?: string; raw?: string } = {}): Promise<Reply> {
  const url = new URL(`${server.url}/tools/test${options.query ?? ''}`);
  const payload = options.raw ?? JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST', localAddress: options.from,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // toon or empty
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed, text });
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Builds a gem with `gem build`, indexes it with `gem generate_index` and serves the folder on 127.0.0.1. */
export async function startGemSource(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-gems-'));
  const src = path.join(dir, 'src');
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(path.join(src, 'lib'), { recursive: true });
  fs.mkdirSync(path.join(repo, 'gems'), { recursive: true });
  fs.writeFileSync(path.join(src, 'tooldex_hello.gemspec'), `Gem::Specification.new do |s|
  s.name = 'tooldex_hello'
  s.version = '0.2.0'
  s.summary = 'tooldex test gem'
  s.authors = ['tooldex']
  s.files = ['lib/tooldex_hello.rb']
  s.license = 'MIT'
end
`);
  fs.writeFileSync(path.join(src, 'lib', 'tooldex_hello.rb'), 'module ToolDexHello\n  def self.greet(name) = "hello #{name} from a gem"\nend\n');
  execFileSync('gem', ['build', 'tooldex_hello.gemspec'], { cwd: src, stdio: 'ignore' });
  fs.copyFileSync(path.join(src, 'tooldex_hello-0.2.0.gem'), path.join(repo, 'gems', 'tooldex_hello-0.2.0.gem'));
  execFileSync('gem', ['generate_index', '--directory', repo], { stdio: 'ignore' });
  const server = http.createServer((request, response) => {
    sendFileUnder(repo, decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/'), response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const file = (filePath: string, code: string) => ({ path: filePath, code });

/**
 * A PyPI simple index on 127.0.0.1 serving the given source distributions (name → files of the sdist) itself and
 * redirecting every other name to pypi.org (so pip's build isolation still finds setuptools).
 */
export async function startFakePypi(sdists: Record<string, Record<string, string>>): Promise<{ url: string; close(): Promise<void> }> {
  const { create } = await import('tar');
  const crypto = await import('node:crypto');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-pypi-'));
  const archives = new Map<string, { file: string; sha256: string; name: string }>();
  for (const [name, files] of Object.entries(sdists)) {
    const base = `${name.replace(/-/g, '_')}-1.0`;
    for (const [relative, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, base, relative)), { recursive: true });
      fs.writeFileSync(path.join(dir, base, relative), content);
    }
    const file = path.join(dir, `${base}.tar.gz`);
    await create({ gzip: true, cwd: dir, file, portable: true }, [base]);
    archives.set(name, { file, name: `${base}.tar.gz`, sha256: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') });
  }
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    const simple = /^\/simple\/([^/]+)\/?$/.exec(url);
    const archive = simple && archives.get(simple[1]?.toLowerCase() ?? '');
    if (archive) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><a href="/files/${archive.name}#sha256=${archive.sha256}">${archive.name}</a></body></html>`);
    } else if (simple) {
      response.writeHead(302, { location: `https://pypi.org/simple/${simple[1]}/` }).end();
    } else {
      const file = [...archives.values()].find((candidate) => url === `/files/${candidate.name}`);
      if (file) response.writeHead(200, { 'content-type': 'application/gzip' }).end(fs.readFileSync(file.file));
      else response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Files (not folders) under `dir` whose name starts with `prefix`: how a test finds trap markers in a shared cache. */
export function findNamed(dir: string, prefix: string): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.name.startsWith(prefix)) found.push(full);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return found;
}
