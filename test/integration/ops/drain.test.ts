// Deploys that do not cut work: on SIGTERM a real `tooldex serve` refuses new work (503 shutting_down with
// Retry-After, readiness 503, liveness 200), lets in-flight sandbox runs and docs ingestions finish, logs what it
// drained and exits 0; past TOOLDEX_DRAIN_TIMEOUT_MS it cuts what remains, says so, and still exits 0.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freshHome } from '../../helpers/stores.ts';
import { repoRoot, startTooldex, type TooldexProcess } from '../../helpers/processes.ts';
import { startGatedNpm, type GatedNpm } from './fakes.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const runBody = (seconds: number) => JSON.stringify({
  language: 'javascript', runtime: 'node',
  files: [{ path: 'index.mjs', code: `await new Promise((r) => setTimeout(r, ${seconds * 1000})); console.log('finished after ${seconds} s');` }],
  timeoutMs: 30_000,
});
const postRun = (base: string, seconds: number) =>
  fetch(`${base}/tools/test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: runBody(seconds) })
    .then(async (r) => ({ status: r.status, body: await r.json() as { status?: string; stdout?: string } }));

describe('draining on SIGTERM', () => {
  let npm: GatedNpm;
  let sandboxWorks = false;
  let home: string;
  before(async () => {
    npm = await startGatedNpm(['ms', 'chalk'], '2.1.3');
    home = await freshHome();
    // Whether this machine can run sandboxes at all (bubblewrap, root, cgroups): `tooldex doctor` exits 0 when they work.
    sandboxWorks = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), 'doctor', '--json'],
      { cwd: repoRoot, stdio: 'ignore', env: { ...process.env, TOOLDEX_HOME: home } }).status === 0;
  });
  after(async () => {
    await npm?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('finishes in-flight runs and ingestions, refuses new work meanwhile, and exits 0', async (t) => {
    const server: TooldexProcess = await startTooldex({ TOOLDEX_HOME: home, TOOLDEX_NPM_REGISTRY: npm.url, TOOLDEX_TEST_RPM: '100', TOOLDEX_DOCS_DEADLINE_MS: '60000' });
    try {
      npm.hold();
      const question = fetch(`${server.url}/tools/docs/ms?q=frobnicate`).then(async (r) => ({ status: r.status, body: await r.json() }));
      const run = sandboxWorks ? postRun(server.url, 3) : undefined;
      t.diagnostic(sandboxWorks ? 'a sandbox run and a docs ingestion are in flight' : 'sandbox cannot run on this machine: the drain is checked with the docs ingestion only');
      for (let i = 0; i < 100 && !npm.hits.get('/ms/-/ms-2.1.3.tgz'); i++) await sleep(100);
      assert.equal(npm.hits.get('/ms/-/ms-2.1.3.tgz'), 1, 'the ingestion is under way');
      await sleep(300);

      server.signal('SIGTERM');
      await server.waitForLog((line) => line.msg.startsWith('draining'));
      const refused = await fetch(`${server.url}/tools/search?q=zod`);
      assert.equal(refused.status, 503);
      assert.equal((await refused.json()).error.code, 'shutting_down');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      const ready = await fetch(`${server.url}/healthz`);
      assert.equal(ready.status, 503, 'not ready while draining');
      assert.equal((await fetch(`${server.url}/livez`)).status, 200, 'alive while draining');

      await sleep(1000);
      npm.release(); // the registry answers: the ingestion can finish
      const answered = await question;
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      if (run) {
        const ran = await run;
        assert.equal(ran.status, 200);
        assert.equal(ran.body.status, 'ran');
        assert.match(ran.body.stdout ?? '', /finished after 3 s/);
      }
      const { code } = await server.exited;
      assert.equal(code, 0);
      const finished = server.logs.find((line) => line.msg === 'drain finished: all in-flight work completed');
      assert.ok(finished, 'the drain is logged');
      const byKind = finished.drainedByKind as Record<string, number>;
      assert.ok((byKind.request ?? 0) >= (run ? 2 : 1), JSON.stringify(byKind));
      assert.equal(byKind['docs-ingestion'], 1);
      if (run) assert.equal(byKind['sandbox-run'], 1);
    } finally {
      await server.dispose();
    }
  });

  it('cuts work still running at the drain deadline, logs what it cut, and exits 0', async () => {
    npm.hold();
    const server = await startTooldex({ TOOLDEX_HOME: home, TOOLDEX_NPM_REGISTRY: npm.url, TOOLDEX_DRAIN_TIMEOUT_MS: '1500', TOOLDEX_DOCS_DEADLINE_MS: '60000' });
    try {
      const hung = fetch(`${server.url}/tools/docs/chalk@2.1.3?q=frobnicate`).catch((error: Error) => error);
      for (let i = 0; i < 100 && !npm.hits.get('/chalk/-/chalk-2.1.3.tgz'); i++) await sleep(100);
      await sleep(500);
      const signalled = Date.now();
      server.signal('SIGTERM');
      const { code } = await server.exited;
      assert.equal(code, 0);
      assert.ok(Date.now() - signalled < 15_000, 'stopped soon after the 1.5 s deadline');
      const cut = server.logs.find((line) => line.msg === 'drain deadline reached: cutting work still running');
      assert.ok(cut, 'the cut is logged');
      const labels = (cut.cut as Array<{ kind: string; label: string }>).map((entry) => `${entry.kind} ${entry.label}`);
      assert.ok(labels.includes('request GET /tools/docs/chalk@2.1.3'), labels.join(', '));
      assert.ok(labels.includes('docs-ingestion npm-chalk@2.1.3'), labels.join(', '));
      assert.ok(server.logs.some((line) => line.msg === 'drain finished with work cut'));
      assert.ok(await hung instanceof Error, 'the cut request ends with the connection');
    } finally {
      npm.release();
      await server.dispose();
    }
  });
});
