// Shared pieces of the sandbox integration tests: a server with a shared sandbox cache, POST helpers
// (optionally from another loopback address, i.e. another client), and a loopback gem source built with gem.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
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
    const file = path.join(repo, decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/'));
    if (!file.startsWith(repo) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(response);
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
