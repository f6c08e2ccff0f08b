// Fair sharing through POST /tools/test: one owner's runs are capped without holding up another's, waiting shows as
// queueMs, CPU is weighted per owner, and installs have their own budget (builds: build-limits.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '../../helpers/server.ts';
import { file, postTest, startSandboxServer } from './helpers.ts';

/** The cpu cgroup folder of a process (cgroup v1), from /proc/<pid>/cgroup. */
function cpuGroup(pid: number): string | undefined {
  const line = fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n').find((entry) => entry.split(':')[1]?.split(',').includes('cpu'));
  return line ? path.join('/sys/fs/cgroup/cpu', line.split(':')[2] ?? '') : undefined;
}

describe('fair sharing', () => {
  let server: TestServer;
  before(async () => {
    server = await startSandboxServer({ TOOLDEX_SANDBOX_CONCURRENCY: 4, TOOLDEX_SANDBOX_OWNER_CONCURRENCY: 1 });
  });
  after(() => server.close());
  const sleeper = (ms: number, from?: string) => postTest(server, {
    language: 'javascript', runtime: 'node', files: [file('s.js', `setTimeout(() => console.log("slept"), ${ms})`)],
  }, { from });

  it('caps one owner\'s concurrent runs, reports the wait as queueMs, and does not hold up another owner', async () => {
    const started = Date.now();
    const [first, second, other] = await Promise.all([
      sleeper(1500), sleeper(1500),
      new Promise<Awaited<ReturnType<typeof sleeper>>>((resolve) => { setTimeout(() => resolve(sleeper(0, '127.0.0.2')), 300); }),
    ]);
    for (const reply of [first, second, other]) assert.equal(reply.body.status, 'ran', reply.text);
    const [early, late] = [first, second].sort((a, b) => a.body.phases.queueMs - b.body.phases.queueMs);
    assert.ok(early && late);
    assert.ok(early.body.phases.queueMs < 500, `first run waited ${early.body.phases.queueMs} ms`);
    assert.ok(late.body.phases.queueMs >= 1000, `the owner's second run waited only ${late.body.phases.queueMs} ms`);
    assert.ok(other.body.phases.queueMs < 500, `another owner waited ${other.body.phases.queueMs} ms`);
    assert.ok(Date.now() - started >= 3000, 'the capped owner\'s runs did not overlap');
  });

  it('weights CPU per owner: each run has its own cpu.shares inside a group of its owner', async () => {
    // Read while the run is alive: an owner's group goes away with its last run.
    const seen: Array<{ owner: string; ownerShares: string; runShares: string }> = [];
    server.app.sandbox.onSandboxReady = (pid) => {
      const group = cpuGroup(pid);
      if (!group) return;
      const owner = path.dirname(group);
      seen.push({ owner, ownerShares: fs.readFileSync(path.join(owner, 'cpu.shares'), 'utf8').trim(), runShares: fs.readFileSync(path.join(group, 'cpu.shares'), 'utf8').trim() });
    };
    try {
      await sleeper(0);
      await sleeper(0, '127.0.0.2');
    } finally {
      server.app.sandbox.onSandboxReady = undefined;
    }
    assert.equal(seen.length, 2, JSON.stringify(seen));
    assert.notEqual(seen[0]?.owner, seen[1]?.owner, 'two owners, two groups');
    for (const { owner, ownerShares, runShares } of seen) {
      assert.match(path.basename(owner), /^o-[0-9a-f]{16}$/);
      assert.equal(ownerShares, '1024');
      assert.equal(runShares, '1024');
    }
  });
});

describe('install budget', () => {
  let hanging: http.Server;
  let server: TestServer;
  before(async () => {
    // A registry that accepts the connection and never answers.
    hanging = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as AddressInfo;
    server = await startSandboxServer({ TOOLDEX_NPM_REGISTRY: `http://127.0.0.1:${port}`, TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS: 5000 });
  });
  after(async () => {
    await server.close();
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });

  it('ends an install at TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS with status timeout in the install phase', async () => {
    const reply = await postTest(server, { language: 'javascript', runtime: 'node', packages: ['is-number@7.0.0'], files: [file('a.js', '1')] });
    assert.equal(reply.body.status, 'timeout', reply.text);
    assert.deepEqual(reply.body.endedBy, { limit: 'timeout', phase: 'install', max: 5000, unit: 'ms' });
    assert.match(reply.body.stderr, /install stopped by the 5000 ms wall-clock limit \(TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS\)/);
    assert.ok(reply.body.phases.installMs >= 5000, JSON.stringify(reply.body.phases));
  });
});
