// What a sandbox cannot do, through POST /tools/test with real sandboxes: reach any address of the host, see anything of
// the service, change its own network, outgrow its quota (blocks and inodes), or get a secret back into any response.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '../../helpers/server.ts';
import { readHostRules } from '../../../src/sandbox/network.ts';
import { file, postTest, startSandboxServer } from './helpers.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** An address of the TEST-NET-3 documentation range, added to the host's loopback device during one test only. */
const LATER_ADDRESS = '203.0.113.77';

describe('sandbox isolation', () => {
  let server: TestServer;
  let listener: http.Server;
  let listenerPort: number;
  let hits = 0;
  before(async () => {
    server = await startSandboxServer({ TOOLDEX_SANDBOX_SESSION_MB: 16, TOOLDEX_SANDBOX_SESSION_INODES: 20_000 });
    // A stand-in for a service listening on every address of the host (0.0.0.0 and ::).
    listener = http.createServer((_request, response) => { hits++; response.end('host'); });
    await new Promise<void>((resolve) => listener.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
    listenerPort = (listener.address() as AddressInfo).port;
  });
  after(async () => {
    await server.close();
    await new Promise((resolve) => listener.close(resolve));
  });
  const js = (code: string, extra: Record<string, unknown> = {}) =>
    postTest(server, { language: 'javascript', runtime: 'node', files: [file('main.js', code)], timeoutMs: 20_000, ...extra });
  const py = (code: string, extra: Record<string, unknown> = {}) =>
    postTest(server, { language: 'python', runtime: 'python', files: [file('main.py', code)], timeoutMs: 20_000, ...extra });

  it('reaches no address of the host (every current one, one added later, the slirp gateway) on any port; the internet stays', async () => {
    execFileSync('ip', ['addr', 'add', `${LATER_ADDRESS}/32`, 'dev', 'lo']);
    try {
      const addresses = [...new Set(Object.values(os.networkInterfaces()).flat()
        .flatMap((info) => (info ? [info.family === 'IPv6' && info.scopeid ? `${info.address}%${info.scopeid}` : info.address] : [])))];
      assert.ok(addresses.includes(LATER_ADDRESS), 'the added address is one of the host\'s');
      const targets = [...addresses, '10.0.2.2'].flatMap((host) => [[host, listenerPort], [host, Number(new URL(server.url).port)]]);
      const reply = await js(`
        const net = require('net');
        const probe = ([host, port]) => new Promise((resolve) => {
          const socket = net.connect({ host: host.split('%')[0], port, timeout: 2000 }, () => { socket.destroy(); resolve([host, port, 'connected']); });
          socket.on('error', (e) => resolve([host, port, e.code])); socket.on('timeout', () => { socket.destroy(); resolve([host, port, 'timeout']); });
        });
        (async () => {
          const results = await Promise.all(${JSON.stringify(targets)}.map(probe));
          const registry = await fetch('https://registry.npmjs.org/is-number').then((r) => r.status, (e) => String(e.cause?.code ?? e));
          console.log(JSON.stringify({ results, registry }));
          process.exit(0); // an idle keep-alive connection would hold the loop open
        })();`);
      assert.equal(reply.body.status, 'ran', reply.text);
      const seen = JSON.parse(reply.body.stdout) as { results: Array<[string, number, string]>; registry: number };
      assert.equal(seen.results.length, targets.length);
      for (const [host, port, outcome] of seen.results) assert.notEqual(outcome, 'connected', `${host}:${port}`);
      assert.equal(hits, 0, 'nothing reached the listener');
      assert.equal(seen.registry, 200, 'outbound internet (a registry) is reachable');
    } finally {
      execFileSync('ip', ['addr', 'del', `${LATER_ADDRESS}/32`, 'dev', 'lo']);
    }
  });

  it('host rules reject every local address and every private, link-local and metadata range, IPv4 and IPv6 (read, not probed)', async () => {
    const rules = await readHostRules(61000);
    assert.match(rules.output, /-A OUTPUT -m owner --gid-owner 61000 -j TOOLDEX-SBX-61000/);
    for (const v of [rules.v4, rules.v6]) assert.match(v, /-m addrtype --dst-type LOCAL -j REJECT/);
    for (const range of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10', '127.0.0.0/8']) {
      assert.ok(rules.v4.includes(`-d ${range} -j REJECT`), range);
    }
    for (const range of ['::1/128', 'fc00::/7', 'fe80::/10']) assert.ok(rules.v6.includes(`-d ${range} -j REJECT`), range);
  });

  it('cannot change its own network: no capability, and the namespace belongs to the host', async () => {
    const reply = await py(`import subprocess, json
status = open("/proc/self/status").read()
out = {"capeff": status.split("CapEff:")[1].split()[0], "capbnd": status.split("CapBnd:")[1].split()[0]}
for name, cmd in [("lo_down", ["/usr/sbin/ip", "link", "set", "lo", "down"]), ("route", ["/usr/sbin/ip", "route", "add", "192.0.2.0/24", "dev", "lo"]),
                  ("iptables", ["/usr/sbin/iptables", "-F"])]:
    done = subprocess.run(cmd, capture_output=True, text=True)
    out[name] = done.returncode
print(json.dumps(out))`);
    assert.equal(reply.body.status, 'ran', reply.text);
    const seen = JSON.parse(reply.body.stdout);
    assert.equal(seen.capeff, '0000000000000000');
    assert.equal(seen.capbnd, '0000000000000000');
    for (const name of ['lo_down', 'route', 'iptables']) assert.notEqual(seen[name], 0, name);
  });

  it('sees nothing of the service: its install, data, node_modules, command lines, mounts; /tmp is private; toolchains read-only', async () => {
    const secret = 'cmdline-secret-9131';
    const reply = await js(`
      const fs = require('fs');
      const tryList = (p) => { try { return fs.readdirSync(p).length >= 0 ? 'listed' : ''; } catch (e) { return e.code; } };
      const tryWrite = (p) => { try { fs.writeFileSync(p, 'x'); return 'written'; } catch (e) { return e.code; } };
      const read = (p) => { try { return fs.readFileSync(p, 'utf8'); } catch (e) { return ''; } };
      fs.writeFileSync('/tmp/mine.txt', 'one run');
      console.log(JSON.stringify({
        repo: tryList(${JSON.stringify(repoRoot)}), modules: tryList(${JSON.stringify(path.join(repoRoot, 'node_modules'))}),
        home: tryList(${JSON.stringify(server.home)}), run: tryList('/run/tooldex-sandbox'), tooling: fs.readdirSync('/opt/tooldex/node_modules').sort(),
        pid1: read('/proc/1/cmdline'), self: read('/proc/self/cmdline'), environ: read('/proc/self/environ').replace(${JSON.stringify(secret)}, 'SECRET-SEEN-BY-ITSELF'),
        mountinfo: read('/proc/self/mountinfo'), tmp: fs.readdirSync('/tmp'),
        usr: tryWrite('/usr/bin/tooldex-x'), deps: tryWrite('/deps/x'), tooling_write: tryWrite('/opt/tooldex/node_modules/tsx/x'),
      }));`, { env: [{ name: 'TOKEN', secret }] });
    assert.equal(reply.body.status, 'ran', reply.text);
    const seen = JSON.parse(reply.body.stdout);
    assert.equal(seen.repo, 'ENOENT');
    assert.equal(seen.modules, 'ENOENT');
    assert.equal(seen.home, 'ENOENT');
    assert.equal(seen.run, 'ENOENT');
    assert.deepEqual(seen.tooling, ['@esbuild', 'esbuild', 'tsx'].sort(), 'only tsx and its dependencies, nothing else of node_modules');
    for (const text of [seen.pid1, seen.self, seen.environ, seen.mountinfo]) {
      assert.ok(!text.includes(repoRoot), `the install path shows: ${text.slice(0, 300)}`);
      assert.ok(!text.includes(server.home), 'the data folder shows');
      assert.ok(!text.includes(secret), 'the secret shows');
    }
    assert.match(seen.pid1, /^bwrap\0--args\0/, 'bwrap\'s own options never reach its command line');
    assert.deepEqual(seen.tmp, ['mine.txt']);
    for (const name of ['usr', 'deps', 'tooling_write']) assert.ok(['EROFS', 'EACCES'].includes(seen[name]), `${name}: ${seen[name]}`);
    const again = await postTest(server, { language: 'javascript', runtime: 'node', sessionId: reply.body.sessionId, entry: 'main2.js',
      files: [file('main2.js', 'console.log(JSON.stringify(require("fs").readdirSync("/tmp")))')] });
    assert.equal(again.body.stdout, '[]\n', 'each run gets a new /tmp');
  });

  it('counts disk in blocks: 1-byte files fill a 16 MiB quota, and the answer says how much was used of what', async () => {
    const reply = await py('import os\nos.makedirs("many", exist_ok=True)\nfor i in range(20000):\n    open(f"many/{i}", "w").write("x")\n', { timeoutMs: 60_000 });
    assert.equal(reply.body.status, 'limit_exceeded', reply.text);
    assert.match(reply.body.stderr, /No space left on device/);
    assert.equal(reply.body.endedBy.limit, 'disk');
    assert.equal(reply.body.endedBy.phase, 'run');
    assert.equal(reply.body.endedBy.max, 16 * 1024 * 1024);
    assert.ok(reply.body.endedBy.used > 15 * 1024 * 1024, JSON.stringify(reply.body.endedBy));
    assert.match(reply.body.stderr, /\[sandbox\] run ran out of session disk: 1[56] MiB used of the 16 MiB quota/);
    // What it costs the host: the volume image's allocated blocks, bounded by the quota (plus the volume's own metadata).
    const image = path.join(server.home, 'sandbox', 'sessions', `${reply.body.sessionId}.img`);
    assert.ok(fs.statSync(image).blocks * 512 < 24 * 1024 * 1024, `${fs.statSync(image).blocks * 512} bytes on the host`);
  });

  it('counts files: empty files stop at the inode quota, with numbers', async () => {
    const reply = await py('import os\nos.makedirs("e", exist_ok=True)\nfor i in range(30000):\n    open(f"e/{i}", "w").close()\n', { timeoutMs: 60_000 });
    assert.equal(reply.body.status, 'limit_exceeded', reply.text);
    assert.equal(reply.body.endedBy.limit, 'inodes');
    assert.ok(reply.body.endedBy.used >= 20_000 && reply.body.endedBy.used === reply.body.endedBy.max, JSON.stringify(reply.body.endedBy));
    assert.match(reply.body.stderr, /ran out of session files: \d+ used of the \d+ files \(inodes\) quota/);
  });

  it('redacts every listed encoding of a secret in this call and in every later call of the session, which never stores it', async () => {
    const secret = 'hunter2-"é/+x'; // 14 characters, 16 UTF-8 bytes (2 mod 3: the old loader printed a base64 error for these)
    const show = `import base64, json, urllib.parse, os
s = open(".keep").read() if os.path.exists(".keep") else os.environ["S"]
open(".keep", "w").write(s)
b = s.encode()
for form in [s, s[::-1], base64.b64encode(b).decode(), base64.urlsafe_b64encode(b).decode().rstrip("="), base64.b64encode(b"x" + b).decode(),
             base64.b64encode(b"xy" + b).decode(), b.hex(), b.hex().upper(), urllib.parse.quote(s), urllib.parse.quote_plus(s),
             urllib.parse.quote(s, safe="").lower(), json.dumps(s), json.dumps(s, ensure_ascii=False)]:
    print(form)
`;
    const first = await py(show, { env: [{ name: 'S', secret }] });
    assert.equal(first.body.status, 'ran', first.text);
    assert.equal(first.body.stderr, '', 'nothing on stderr (no base64 error for a secret of 2 mod 3 bytes)');
    const later = await postTest(server, { language: 'python', runtime: 'python', sessionId: first.body.sessionId, entry: 'main.py', files: [] });
    assert.equal(later.body.status, 'ran', later.text);
    for (const reply of [first, later]) {
      const lines = reply.body.stdout.trim().split('\n');
      assert.equal(lines.length, 13);
      for (const line of lines) assert.match(line, /\[REDACTED\]/, line);
      assert.ok(!reply.text.includes('hunter2'), reply.body.stdout);
    }
    // Not in the store: no table, no file of the embedded database holds the secret (plain or base64).
    const rows = await server.app.store.query<{ row: string }>('select row_to_json(s)::text as row from sandbox_sessions s');
    assert.ok(rows.length > 0 && rows.every(({ row }) => !row.includes('hunter2')));
    const needles = [Buffer.from(secret), Buffer.from(Buffer.from(secret).toString('base64'))];
    const scan = (dir: string): boolean => fs.readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return scan(full);
      if (!entry.isFile() || entry.name.endsWith('.img')) return false;
      const bytes = fs.readFileSync(full);
      return needles.some((needle) => bytes.includes(needle));
    });
    await server.app.sandbox.settled();
    assert.equal(scan(server.home), false, 'a file of the service\'s home holds the secret');
  });

  it('refuses secrets under 8 characters and a language the runtime does not run (422)', async () => {
    const short = await js('1', { env: [{ name: 'S', secret: 'abc' }] });
    assert.equal(short.status, 422);
    assert.equal(short.body.error.field, 'env.0.secret');
    const mismatch = await postTest(server, { language: 'python', runtime: 'node', files: [file('main.py', 'print(1)')] });
    assert.equal(mismatch.status, 422, mismatch.text);
    assert.equal(mismatch.body.error.field, 'language');
    assert.match(mismatch.body.error.message, /python runs on the python runtime/);
  });

  it('starts many sandboxes in a row and in parallel without a set-up failure (loopback is never raced)', async () => {
    const replies = await Promise.all(Array.from({ length: 24 }, (_, i) => js(`console.log(${i})`)));
    replies.forEach((reply, i) => {
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.status, 'ran', reply.text);
      assert.equal(reply.body.stdout, `${i}\n`);
    });
  });
});
