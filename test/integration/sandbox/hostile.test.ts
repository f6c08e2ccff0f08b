// The hostile-program suite: each program ends in the right status, the host is unharmed (no stray processes,
// no files outside the workspace, no reach into the service) and the server keeps answering.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '../../helpers/server.ts';
import { readHostRules } from '../../../src/sandbox/network.ts';
import { file, postTest, startSandboxServer } from './helpers.ts';

const strays = (marker: string) => {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

describe('hostile programs', () => {
  let server: TestServer;
  let hostPort: number;
  let hostHits = 0;
  let hostListener: http.Server;
  before(async () => {
    process.env.TOOLDEX_HOST_ONLY_MARKER = 'host-env-must-not-leak';
    hostListener = http.createServer((_request, response) => { hostHits++; response.end('host'); });
    await new Promise<void>((resolve) => hostListener.listen(0, '127.0.0.1', resolve));
    hostPort = (hostListener.address() as AddressInfo).port;
    server = await startSandboxServer({ TOOLDEX_SANDBOX_MEMORY_MB: 128, TOOLDEX_SANDBOX_PIDS: 64, TOOLDEX_SANDBOX_SESSION_MB: 64 });
  });
  after(async () => {
    delete process.env.TOOLDEX_HOST_ONLY_MARKER;
    await server.close();
    await new Promise((resolve) => hostListener.close(resolve));
  });
  const healthy = async () => assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  const py = (code: string, extra: Record<string, unknown> = {}) =>
    postTest(server, { language: 'python', runtime: 'python', files: [file('main.py', code)], timeoutMs: 8000, ...extra });
  const js = (code: string, extra: Record<string, unknown> = {}) =>
    postTest(server, { language: 'javascript', runtime: 'node', files: [file('main.js', code)], timeoutMs: 8000, ...extra });

  it('fork bomb: stopped by the process limit or the clock, nothing left behind', async () => {
    const reply = await postTest(server, {
      language: 'python', runtime: 'python', timeoutMs: 5000,
      files: [file('main.py', 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n')],
    });
    assert.ok(['limit_exceeded', 'timeout'].includes(reply.body.status), reply.text);
    assert.match(reply.body.stderr, /process limit|wall-clock/);
    await healthy();
  });

  it('memory hog: limit_exceeded naming the memory limit', async () => {
    const reply = await js('const keep = []; for (;;) keep.push(Buffer.alloc(16 * 1024 * 1024, 1));');
    assert.equal(reply.body.status, 'limit_exceeded', reply.text);
    assert.match(reply.body.stderr, /memory limit of 128 MiB/);
    await healthy();
  });

  it('infinite output: capped at 8 KB with a marker, killed past 1 MiB', async () => {
    const reply = await py('import sys\nwhile True:\n    sys.stdout.write("é" * 1000 + "\\n")\n');
    assert.equal(reply.body.status, 'limit_exceeded', reply.text.slice(0, 500));
    assert.ok(Buffer.byteLength(reply.body.stdout) < 8 * 1024 + 200);
    assert.match(reply.body.stdout, /output truncated/);
    assert.ok(!reply.body.stdout.includes('\uFFFD'));
    assert.match(reply.body.stderr, /more than 1 MiB of output/);
    await healthy();
  });

  it('disk fill: stopped at the session quota', async () => {
    const reply = await py('f = open("big.bin", "wb")\nwhile True:\n    f.write(b"x" * (1 << 20))\n    f.flush()\n', { timeoutMs: 30_000 });
    assert.equal(reply.body.status, 'limit_exceeded', reply.text);
    assert.match(reply.body.stderr, /session disk|No space left|File too large|EFBIG|errno 2[78]/i);
    await healthy();
  });

  it('CPU spin past the timeout: timeout, and the whole tree is gone', async () => {
    const started = Date.now();
    const reply = await py('import subprocess\nsubprocess.Popen(["sh", "-c", "while :; do :; done # tooldex-spin-7781"])\nwhile True:\n    pass\n', { timeoutMs: 1500 });
    assert.equal(reply.body.status, 'timeout', reply.text);
    assert.ok(reply.body.phases.runMs >= 1500 && reply.body.phases.runMs < 5000, String(reply.body.phases.runMs));
    assert.ok(Date.now() - started < 20_000);
    assert.equal(strays('tooldex-spin-7781'), '');
    await healthy();
  });

  it('cannot read /etc/shadow, the host environment or the service data folder', async () => {
    const reply = await js(`
      const fs = require('fs');
      const tryRead = (p) => { try { return fs.readdirSync(p).length >= 0 ? 'listed' : ''; } catch (e) { try { fs.readFileSync(p); return 'read'; } catch (e2) { return e2.code; } } };
      console.log(JSON.stringify({ shadow: tryRead('/etc/shadow'), home: tryRead(${JSON.stringify(server.home)}),
        pgdata: tryRead(${JSON.stringify(path.join(server.home, 'pgdata'))}), root: tryRead('/root/.ssh'), env: Object.keys(process.env).sort(),
        marker: process.env.TOOLDEX_HOST_ONLY_MARKER ?? null, uid: process.getuid() }));`);
    assert.equal(reply.body.status, 'ran', reply.text);
    const seen = JSON.parse(reply.body.stdout);
    assert.equal(seen.shadow, 'ENOENT');
    assert.equal(seen.home, 'ENOENT');
    assert.equal(seen.pgdata, 'ENOENT');
    assert.equal(seen.root, 'ENOENT');
    assert.equal(seen.marker, null);
    assert.deepEqual(seen.env.filter((name: string) => !/CERT|CA_BUNDLE|NODE_OPTIONS/.test(name)), ['HOME', 'NODE_ENV', 'PATH', 'PWD']);
    assert.equal(seen.uid, 1000);
  });

  it('cannot reach the service or another port on host loopback; private ranges are rejected by host rules on the sandbox gid', async () => {
    const servicePort = new URL(server.url).port;
    {
      const reply = await js(`
        const net = require('net');
        const probe = (host, port) => new Promise((resolve) => {
          const socket = net.connect({ host, port, timeout: 1500 }, () => { socket.destroy(); resolve('connected'); });
          socket.on('error', (e) => resolve(e.code)); socket.on('timeout', () => { socket.destroy(); resolve('timeout'); });
        });
        (async () => console.log(JSON.stringify(await Promise.all([
          probe('127.0.0.1', ${servicePort}), probe('127.0.0.1', ${hostPort}), probe('10.0.2.2', ${servicePort}), probe('10.0.2.2', ${hostPort}),
        ]))))();`);
      assert.equal(reply.body.status, 'ran', reply.text);
      const results = JSON.parse(reply.body.stdout) as string[];
      for (const result of results) assert.notEqual(result, 'connected', reply.body.stdout);
      assert.equal(hostHits, 0);
    }
    const rules = await readHostRules(61000);
    for (const range of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']) {
      assert.ok(rules.v4.includes(`-A TOOLDEX-SBX-61000 -d ${range} -j REJECT`), `rule for ${range} in:\n${rules.v4}`);
    }
  });

  it('risky kernel interfaces are refused by the seccomp filter; the program runs as an unprivileged user', async () => {
    const reply = await py(`import ctypes
libc = ctypes.CDLL(None, use_errno=True)
out = {}
for name, nr in [("ptrace", 101), ("keyctl", 250), ("bpf", 321), ("perf_event_open", 298), ("io_uring_setup", 425), ("setns", 308)]:
    ctypes.set_errno(0)
    out[name] = (libc.syscall(nr, 0, 0, 0, 0, 0), ctypes.get_errno())
status = open("/proc/self/status").read()
out["seccomp"] = status.split("Seccomp:")[1].split()[0]
out["capeff"] = status.split("CapEff:")[1].split()[0]
out["nnp"] = status.split("NoNewPrivs:")[1].split()[0]
import json; print(json.dumps(out))`);
    assert.equal(reply.body.status, 'ran', reply.text);
    const seen = JSON.parse(reply.body.stdout);
    for (const name of ['ptrace', 'keyctl', 'bpf', 'perf_event_open', 'setns']) assert.deepEqual(seen[name], [-1, 1], name);
    assert.deepEqual(seen.io_uring_setup, [-1, 38]);
    assert.equal(seen.seccomp, '2');
    assert.equal(seen.capeff, '0000000000000000');
    assert.equal(seen.nnp, '1');
  });

  it('a secret reaches the program but never a host command line or the response', async () => {
    const secret = 'hunter2-unique-8812';
    const pending = py('import os, time\nprint(os.environ["DB_PASSWORD"] == "hunter2-unique-8812", os.environ["DB_PASSWORD"])\ntime.sleep(1.5)',
      { env: [{ name: 'DB_PASSWORD', secret }] });
    let seenInPs = false;
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      if (execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).includes(secret)) seenInPs = true;
    }
    const reply = await pending;
    assert.equal(reply.body.status, 'ran', reply.text);
    assert.equal(reply.body.stdout, 'True [REDACTED]\n');
    assert.equal(seenInPs, false, 'secret visible in the host process list');
  });

  it('background processes that try to outlive the run are gone when it ends', async () => {
    const reply = await py(`
import subprocess, os
subprocess.Popen(["sh", "-c", "while :; do date +%s%N >> beat.txt; sleep 0.1; done # tooldex-daemon-5521"], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if os.fork() == 0:
    os.setsid()
    os.execvp("sleep", ["sleep", "313"])
print("parent exits")`);
    assert.equal(reply.body.status, 'ran', reply.text);
    assert.equal(strays('tooldex-daemon-5521'), '');
    assert.equal(strays('sleep 313'), '');
    const beat = path.join(server.home, 'sandbox', 'sessions', reply.body.sessionId, 'work', 'beat.txt');
    const before = fs.existsSync(beat) ? fs.statSync(beat).size : 0;
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(fs.existsSync(beat) ? fs.statSync(beat).size : 0, before, 'nothing writes after the run');
  });

  it('symlinks planted by a run cannot redirect later writes; .. and absolute paths are refused', async () => {
    const planted = await py('import os\nos.symlink("/etc", "etc-link")\nos.symlink("/etc/hostname", "host.txt")\nprint("planted")');
    assert.equal(planted.body.status, 'ran', planted.text);
    const hostname = fs.readFileSync('/etc/hostname', 'utf8');
    const sessionId = planted.body.sessionId;
    const through = await postTest(server, { language: 'python', runtime: 'python', sessionId, files: [file('etc-link/hostname', 'pwned')] });
    assert.equal(through.status, 422);
    assert.equal(through.body.error.code, 'invalid_path');
    const onto = await postTest(server, { language: 'python', runtime: 'python', sessionId, files: [file('host.txt', 'pwned')] });
    assert.equal(onto.status, 422);
    assert.equal(fs.readFileSync('/etc/hostname', 'utf8'), hostname);
    for (const bad of ['../escape.py', '/tmp/abs.py', 'a/../../b.py']) {
      const reply = await py('print(1)', { files: [file(bad, 'print(1)')] });
      assert.equal(reply.status, 422, bad);
      assert.equal(reply.body.error.code, 'invalid_path');
    }
  });

  it('21 files, an oversized file and a huge body are refused with JSON errors', async () => {
    const many = await py('', { files: Array.from({ length: 21 }, (_, i) => file(`f${i}.py`, 'print(1)')) });
    assert.equal(many.status, 422);
    assert.equal(many.body.error.field, 'files');
    const big = await py('', { files: [file('big.py', 'x'.repeat(300 * 1024))] });
    assert.equal(big.status, 422);
    const huge = await postTest(server, undefined, { raw: JSON.stringify({ language: 'python', runtime: 'python', files: [file('a.py', 'y'.repeat(3 * 1024 * 1024))] }) });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.error.code, 'payload_too_large');
    await healthy();
  });

  it('odd Unicode paths run; control characters are refused', async () => {
    const name = 'données/été 😀/‮نص.js';
    const reply = await postTest(server, { language: 'javascript', runtime: 'node', files: [file(name, 'console.log(require("path").basename(__filename))')] });
    assert.equal(reply.body.status, 'ran', reply.text);
    assert.equal(reply.body.stdout, '‮نص.js\n');
    const bad = await js('1', { files: [file('bad\u0007name.js', '1')] });
    assert.equal(bad.status, 422);
    await healthy();
  });
});
