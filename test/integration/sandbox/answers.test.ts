// Answers that are true, through POST /tools/test: exactly the pinned versions run in a reused session, a run sees only
// the standard library and its session's installs, a sandbox that cannot be built is the service's 503 (retried first),
// one failed probe is not a minute of 503s, an unreachable registry says so in one line, and provisionMs is always set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestServer } from '../../helpers/server.ts';
import { file, postTest, startSandboxServer } from './helpers.ts';

const js = (code: string, extra: Record<string, unknown> = {}) => ({ language: 'javascript', runtime: 'node', files: [file('main.js', code)], ...extra });

describe('exact packages and clean environments', () => {
  let server: TestServer;
  before(async () => { server = await startSandboxServer({ TOOLDEX_DISABLED_RUNTIMES: 'ruby' }); });
  after(() => server.close());

  it('node: zod 3.23.8 → 3.22.0 → 3.23.8 in one session runs each pinned version', async () => {
    let sessionId: string | undefined;
    for (const version of ['3.23.8', '3.22.0', '3.23.8']) {
      const reply = await postTest(server, { ...js('console.log(require("zod/package.json").version)'), sessionId, packages: [`zod@${version}`] });
      assert.equal(reply.body.status, 'ran', reply.text);
      assert.equal(reply.body.stdout, `${version}\n`);
      assert.ok(reply.body.phases.installMs > 0, `${version} was installed, not assumed`);
      sessionId = reply.body.sessionId;
    }
    const same = await postTest(server, { ...js('console.log(require("zod/package.json").version)'), sessionId, packages: ['zod@3.23.8'] });
    assert.equal(same.body.stdout, '3.23.8\n');
    assert.equal(same.body.phases.installMs, 0, 'an unchanged pin does not reinstall');
  });

  it('python: six==1.16.0 → 1.15.0 → 1.16.0 runs each pin, with one installed distribution', async () => {
    let sessionId: string | undefined;
    const code = 'import six, importlib.metadata as m, glob\nprint(six.__version__, m.version("six"), len(glob.glob("/deps/venv/lib/python*/site-packages/six-*.dist-info")))';
    for (const version of ['1.16.0', '1.15.0', '1.16.0']) {
      const reply = await postTest(server, { language: 'python', runtime: 'python', sessionId, packages: [`six==${version}`], files: [file('v.py', code)] });
      assert.equal(reply.body.status, 'ran', reply.text);
      assert.equal(reply.body.stdout, `${version} ${version} 1\n`);
      sessionId = reply.body.sessionId;
    }
  });

  it('a run sees the standard library and its own installs only: none of the host\'s packages', async () => {
    const python = await postTest(server, { language: 'python', runtime: 'python', files: [file('p.py', `import sys, os, json
found = {}
for name in ["pip", "setuptools", "pytest", "six"]:
    try:
        __import__(name); found[name] = "importable"
    except ImportError:
        found[name] = "absent"
extra = [p for p in sys.path if os.path.isdir(p) and "site-packages" in p and os.listdir(p)]
print(json.dumps({"found": found, "site": extra}))`)] });
    assert.equal(python.body.status, 'ran', python.text);
    const seen = JSON.parse(python.body.stdout);
    assert.deepEqual(seen, { found: { pip: 'absent', setuptools: 'absent', pytest: 'absent', six: 'absent' }, site: [] });
    const node = await postTest(server, js(`const found = {};
for (const name of ['fastify', 'zod', 'tsx', 'esbuild', 'bun', 'typescript']) { try { require.resolve(name); found[name] = 'resolvable'; } catch { found[name] = 'absent'; } }
console.log(JSON.stringify(found));`));
    assert.equal(node.body.status, 'ran', node.text);
    for (const [name, state] of Object.entries(JSON.parse(node.body.stdout))) assert.equal(state, 'absent', name);
  });

  it('fills provisionMs and queueMs on every status', async () => {
    const replies = await Promise.all([
      postTest(server, js('console.log(1)')),
      postTest(server, js('process.exit(3)')),
      postTest(server, js('for(;;);', { timeoutMs: 1000 })),
      postTest(server, js('1', { packages: ['tooldex-no-such-package-4242'] })),
      postTest(server, { language: 'ruby', runtime: 'ruby', files: [file('a.rb', 'puts 1')] }),
    ]);
    assert.deepEqual(replies.map((reply) => reply.body.status), ['ran', 'failed_run', 'timeout', 'failed_install', 'blocked']);
    for (const reply of replies) {
      assert.equal(typeof reply.body.phases.queueMs, 'number', reply.text);
      assert.equal(typeof reply.body.phases.provisionMs, 'number', reply.text);
    }
    for (const reply of replies.slice(0, 4)) assert.ok(reply.body.phases.provisionMs > 0, reply.text);
  });
});

/** A stand-in for bubblewrap that fails like a set-up failure (message on stderr, exit 1, program never started) on cue. */
function fakeBwrap(rule: (dir: string) => string): { path: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-fake-bwrap-'));
  fs.chmodSync(dir, 0o777); // the sandbox uid runs it and keeps its count here
  const script = path.join(dir, 'bwrap');
  fs.writeFileSync(script, `#!/bin/sh
n=$(cat ${dir}/count 2>/dev/null || echo 0); n=$((n + 1)); echo $n > ${dir}/count
${rule(dir)}
exec bwrap "$@"
`, { mode: 0o755 });
  return { path: script, dir };
}
const FAIL = 'echo "bwrap: loopback: Failed RTM_NEWADDR: simulated" >&2; exit 1';

describe('honest statuses', () => {
  it('retries a sandbox that failed to build, and answers 503 (never failed_run) when it keeps failing', async () => {
    const fake = fakeBwrap((dir) => `case "$*" in *tooldex-always-fails*) ${FAIL};; esac
if [ -f ${dir}/until ] && [ $n -le $(cat ${dir}/until) ]; then ${FAIL}; fi`);
    const server = await startSandboxServer({ TOOLDEX_BWRAP: fake.path });
    try {
      assert.equal((await postTest(server, js('console.log("warm")'))).body.status, 'ran');
      const count = Number(fs.readFileSync(path.join(fake.dir, 'count'), 'utf8'));
      fs.writeFileSync(path.join(fake.dir, 'until'), String(count + 2));
      const retried = await postTest(server, js('console.log("third time")'));
      assert.equal(retried.body.status, 'ran', retried.text);
      assert.equal(retried.body.stdout, 'third time\n');
      const broken = await postTest(server, { language: 'javascript', runtime: 'node', files: [file('tooldex-always-fails.js', 'console.log(1)')] });
      assert.equal(broken.status, 503, broken.text);
      assert.equal(broken.body.error.code, 'sandbox_unavailable');
      assert.match(broken.body.error.message, /3 attempts; the service's fault, not the snippet's\): [\s\S]*Failed RTM_NEWADDR: simulated/);
      assert.ok(Number(broken.headers['retry-after']) >= 1);
    } finally {
      await server.close();
      fs.rmSync(fake.dir, { recursive: true, force: true });
    }
  });

  it('one failed start-up probe means 503s for seconds, not a minute: the next call after 5 s probes again', async () => {
    const fake = fakeBwrap(() => `if [ $n -le 3 ]; then ${FAIL}; fi`); // the probe's three attempts fail, then bwrap works
    const server = await startSandboxServer({ TOOLDEX_BWRAP: fake.path });
    try {
      const first = await postTest(server, js('console.log(1)'));
      assert.equal(first.status, 503, first.text);
      assert.equal(first.body.error.code, 'sandbox_unavailable');
      assert.ok(Number(first.headers['retry-after']) <= 5);
      await new Promise((resolve) => setTimeout(resolve, 5200));
      const later = await postTest(server, js('console.log(2)'));
      assert.equal(later.body.status, 'ran', later.text);
    } finally {
      await server.close();
      fs.rmSync(fake.dir, { recursive: true, force: true });
    }
  });

  it('an unreachable registry is failed_install with one clear line naming it', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve)); // nothing listens there now
    const server = await startSandboxServer({ TOOLDEX_NPM_REGISTRY: `http://127.0.0.1:${port}` });
    try {
      const reply = await postTest(server, js('1', { packages: ['is-number@7.0.0'] }));
      assert.equal(reply.body.status, 'failed_install', reply.text);
      assert.equal(reply.body.error.code, 'registry_unreachable');
      assert.match(reply.body.error.message, /^\[sandbox\] install: the package source http:\/\/10\.0\.2\.2:\d+\/ did not answer from the sandbox \(.*\); node packages cannot be installed/);
      assert.ok(reply.body.stderr.trimEnd().endsWith(reply.body.error.message), 'the same line ends stderr');
      assert.ok(reply.body.phases.provisionMs > 0);
    } finally {
      await server.close();
    }
  });
});
