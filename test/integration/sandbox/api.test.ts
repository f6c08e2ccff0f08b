// The POST /tools/test contract on both stores: validation errors that name the field, policy statuses,
// session ownership and eviction (404 session_not_found), per-session serialisation, 503s and the dedicated rate limit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';
import { file, postTest, startSandboxServer } from './helpers.ts';

const node = (code: string, extra: Record<string, unknown> = {}) =>
  ({ language: 'javascript', runtime: 'node', files: [file('index.js', code)], ...extra });

for (const store of storeKinds()) {
  describe(`POST /tools/test contract on ${store}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startSandboxServer({
        TOOLDEX_DISABLED_RUNTIMES: 'ruby', TOOLDEX_DENY_PACKAGES: 'left-pad,python:evil-dist', TOOLDEX_SANDBOX_DISK_MB: 16,
      }, store);
    });
    after(() => server.close());

    const invalid: Array<[string, Record<string, unknown>, string]> = [
      ['unknown runtime', { language: 'x', runtime: 'java', files: [file('a', '1')] }, 'runtime'],
      ['no files and no session', { language: 'js', runtime: 'node', files: [] }, 'files'],
      ['timeout too small', node('1', { timeoutMs: 999 }), 'timeoutMs'],
      ['timeout too large', node('1', { timeoutMs: 60001 }), 'timeoutMs'],
      ['unknown field', node('1', { image: 'ubuntu' }), 'image'],
      ['env without value or secret', node('1', { env: [{ name: 'A' }] }), 'env.0'],
      ['bad env name', node('1', { env: [{ name: '1A', value: 'x' }] }), 'env.0.name'],
      ['missing language', { runtime: 'node', files: [file('a.js', '1')] }, 'language'],
    ];
    for (const [name, body, field] of invalid) {
      it(`422 for ${name}, naming the field`, async () => {
        const reply = await postTest(server, body);
        assert.equal(reply.status, 422, reply.text);
        assert.equal(reply.body.error.status, 422);
        assert.equal(reply.body.error.field, field, reply.text);
        assert.ok(reply.body.error.message.length > 10);
      });
    }

    it('422 invalid_package for a URL or flag instead of a package', async () => {
      const reply = await postTest(server, node('1', { packages: ['--registry=http://127.0.0.1:1/'] }));
      assert.equal(reply.status, 422);
      assert.equal(reply.body.error.code, 'invalid_package');
    });

    it('blocked: a runtime the operator turned off and a denied package', async () => {
      const ruby = await postTest(server, { language: 'ruby', runtime: 'ruby', files: [file('a.rb', 'puts 1')] });
      assert.equal(ruby.status, 200);
      assert.equal(ruby.body.status, 'blocked');
      assert.equal(ruby.body.ok, false);
      assert.equal(ruby.body.error.code, 'runtime_disabled');
      const denied = await postTest(server, node('1', { packages: ['left-pad@1.3.0'] }));
      assert.equal(denied.body.status, 'blocked');
      assert.equal(denied.body.error.code, 'package_denied');
      const scoped = await postTest(server, { language: 'python', runtime: 'python', packages: ['Evil_Dist==1'], files: [file('a.py', '1')] });
      assert.equal(scoped.body.status, 'blocked');
    });

    it('a session belongs to its client: another address gets 404 session_not_found', async () => {
      const mine = await postTest(server, node('console.log(1)'));
      assert.equal(mine.body.status, 'ran', mine.text);
      const theirs = await postTest(server, { language: 'javascript', runtime: 'node', sessionId: mine.body.sessionId, entry: 'index.js', files: [] }, { from: '127.0.0.2' });
      assert.equal(theirs.status, 404);
      assert.equal(theirs.body.error.code, 'session_not_found');
      const unknown = await postTest(server, { language: 'javascript', runtime: 'node', sessionId: 'sbx_doesnotexist0000000', entry: 'index.js', files: [] });
      assert.equal(unknown.status, 404);
      const wrongRuntime = await postTest(server, { language: 'python', runtime: 'python', sessionId: mine.body.sessionId, files: [file('a.py', '1')] });
      assert.equal(wrongRuntime.status, 422);
      assert.equal(wrongRuntime.body.error.code, 'session_runtime_mismatch');
      const noEntry = await postTest(server, { language: 'javascript', runtime: 'node', sessionId: mine.body.sessionId, entry: 'missing.js', files: [] });
      assert.equal(noEntry.status, 422);
      assert.equal(noEntry.body.error.code, 'entry_not_found');
    });

    it('calls on one session run one at a time', async () => {
      const first = await postTest(server, node('console.log("ready")'));
      const sessionId = first.body.sessionId;
      const stamp = 'const fs=require("fs"); const s=Date.now(); const until=s+700; while(Date.now()<until); fs.appendFileSync("log.txt", `${s} ${Date.now()}\\n`);';
      const call = () => postTest(server, { language: 'javascript', runtime: 'node', sessionId, files: [file('stamp.js', stamp)], entry: 'stamp.js' });
      const results = await Promise.all([call(), call()]);
      for (const result of results) assert.equal(result.body.status, 'ran', result.text);
      const log = await postTest(server, { language: 'javascript', runtime: 'node', sessionId, files: [file('read.js', 'process.stdout.write(require("fs").readFileSync("log.txt","utf8"))')], entry: 'read.js' });
      const spans = log.body.stdout.trim().split('\n').map((line: string) => line.split(' ').map(Number)).sort((a: number[], b: number[]) => (a[0] ?? 0) - (b[0] ?? 0));
      assert.equal(spans.length, 2);
      assert.ok(spans[1][0] >= spans[0][1], `overlap: ${JSON.stringify(spans)}`);
    });

    it('evicts the least recently used session past the disk budget; a call on it is 404 session_not_found', async () => {
      const fill = 'require("fs").writeFileSync("blob.bin", Buffer.alloc(10 * 1024 * 1024, 7)); console.log("filled")';
      const older = await postTest(server, node(fill));
      assert.equal(older.body.status, 'ran', older.text);
      const newer = await postTest(server, node(fill));
      assert.equal(newer.body.status, 'ran', newer.text);
      await server.app.sandbox.settled(); // sizes are measured and eviction runs after each reply
      const gone = await postTest(server, { language: 'javascript', runtime: 'node', sessionId: older.body.sessionId, entry: 'index.js', files: [] });
      assert.equal(gone.status, 404, gone.text);
      assert.equal(gone.body.error.code, 'session_not_found');
      assert.match(gone.body.error.message, /evicted/);
      const kept = await postTest(server, { language: 'javascript', runtime: 'node', sessionId: newer.body.sessionId, entry: 'index.js', files: [] });
      assert.equal(kept.body.status, 'ran', kept.text);
    });
  });
}

describe('POST /tools/test limits and unavailability', () => {
  it('answers 429 with Retry-After past TOOLDEX_TEST_RPM', async () => {
    const server = await startSandboxServer({ TOOLDEX_TEST_RPM: 2 });
    try {
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<typeof postTest>> | undefined;
      for (let i = 0; i < 3; i++) {
        const reply = await postTest(server, node('1', { timeoutMs: 999 }));
        statuses.push(reply.status);
        if (reply.status === 429) limited = reply;
      }
      assert.deepEqual(statuses, [422, 422, 429]);
      assert.ok(Number(limited?.headers['retry-after']) >= 1);
      assert.equal(limited?.body.error.code, 'rate_limited');
      assert.equal((await fetch(`${server.url}/tools/search?q=zod`)).status, 200, 'other routes keep their own budget');
    } finally {
      await server.close();
    }
  });

  it('answers 503 sandbox_busy with Retry-After when every slot and the queue are taken', async () => {
    const server = await startSandboxServer({ TOOLDEX_SANDBOX_CONCURRENCY: 1, TOOLDEX_SANDBOX_QUEUE: 0 });
    try {
      const slow = postTest(server, node('setTimeout(() => console.log("done"), 2500)'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const busy = await postTest(server, node('console.log(1)'));
      assert.equal(busy.status, 503, busy.text);
      assert.equal(busy.body.error.code, 'sandbox_busy');
      assert.ok(Number(busy.headers['retry-after']) >= 1);
      assert.equal((await slow).body.status, 'ran');
    } finally {
      await server.close();
    }
  });

  it('answers 503 sandbox_unavailable when bubblewrap is missing, unavailable when a toolchain is', async () => {
    const noBwrap = await startSandboxServer({ TOOLDEX_BWRAP: '/nonexistent/bwrap' });
    try {
      const reply = await postTest(noBwrap, node('1'));
      assert.equal(reply.status, 503);
      assert.equal(reply.body.error.code, 'sandbox_unavailable');
      assert.match(reply.body.error.message, /bubblewrap/);
      assert.ok(Number(reply.headers['retry-after']) >= 1);
    } finally {
      await noBwrap.close();
    }
    const noToolchains = await startSandboxServer({ TOOLDEX_TOOLCHAIN_PATH: '/nonexistent' });
    try {
      const reply = await postTest(noToolchains, { language: 'go', runtime: 'golang', files: [file('main.go', 'package main\nfunc main(){}')] });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.status, 'unavailable');
      assert.equal(reply.body.error.code, 'runtime_unavailable');
      assert.equal((await postTest(noToolchains, node('console.log(2)'))).body.status, 'ran', 'node still runs');
    } finally {
      await noToolchains.close();
    }
  });
});
