// The shared download caches are bounded (TOOLDEX_SANDBOX_CACHE_MB), end to end through POST /tools/test: a fetch that
// takes the caches past the budget empties the runtime's cache once its call has ended, and the next session of that
// runtime still installs (the package is fetched again). Without the bound (100000 MiB), node's cache held 5.2 MB
// after this install (measured 2026-11-29), so 1 MiB is passed and enforced.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allocatedBytes } from '../../../src/sandbox/layers.ts';
import type { TestServer } from '../../helpers/server.ts';
import { postTest, startSandboxServer } from './helpers.ts';

const file = (p: string, code: string) => ({ path: p, code });
const request = {
  language: 'javascript', runtime: 'node', packages: ['lodash@4.17.21'],
  files: [file('index.mjs', "import _ from 'lodash';\nconsole.log(_.chunk([1, 2, 3, 4], 2).length);\n")],
};

describe('download cache byte budget', () => {
  let server: TestServer;
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-dlcache-'));
  before(async () => {
    fs.chmodSync(cache, 0o755); // the sandbox uid traverses it, as it does the default cache folder
    server = await startSandboxServer({ TOOLDEX_SANDBOX_CACHE_MB: 1, TOOLDEX_SANDBOX_CACHE_DIR: cache });
  });
  after(async () => {
    await server?.close();
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('a fetch past the budget empties the idle runtime\'s cache after the call; the next session installs again', { timeout: 300_000 }, async () => {
    const first = await postTest(server, request);
    assert.equal(first.body.status, 'ran', first.text.slice(0, 2000));
    assert.equal(first.body.stdout.trim(), '2');
    await server.app.sandbox.settled(); // the bound is enforced after the reply, with the other bookkeeping
    const node = path.join(cache, 'node');
    assert.ok(allocatedBytes(node) <= 1024 * 1024, `node's cache within 1 MiB: ${allocatedBytes(node)} bytes`);
    assert.equal(fs.statSync(node).uid, 61000, 'recreated for the sandbox uid');
    assert.deepEqual(fs.readdirSync(cache).filter((name) => name.startsWith('.old-')), [], 'nothing set aside is left');
    const second = await postTest(server, request);
    assert.equal(second.body.status, 'ran', second.text.slice(0, 2000));
    assert.equal(second.body.stdout.trim(), '2');
  });
});

describe('download cache byte budget, Go', () => {
  // Go's module sources live only in the shared cache (the session keeps go.mod/go.sum), and the compile of a layer runs
  // with the proxy off: a session whose cache was emptied since its install fetches its graph again before its build.
  let server: TestServer;
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-dlcache-go-'));
  const program = file('main.go', 'package main\n\nimport (\n\t"fmt"\n\t"github.com/google/uuid"\n)\n\nfunc main() { fmt.Println("uuid", len(uuid.NewString())) }\n');
  const layersOf = () => {
    const dir = path.join(cache, 'layers', 'golang');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.startsWith('.')) : [];
  };
  before(async () => {
    fs.chmodSync(cache, 0o755);
    server = await startSandboxServer({ TOOLDEX_SANDBOX_CACHE_MB: 1, TOOLDEX_SANDBOX_CACHE_DIR: cache });
  });
  after(async () => {
    await server?.close();
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('after the Go cache was emptied, the session\'s next build fetches its modules again and its layer compiles', { timeout: 900_000 }, async () => {
    const first = await postTest(server, { language: 'go', runtime: 'golang', packages: ['github.com/google/uuid@v1.6.0'], timeoutMs: 60_000, files: [program] });
    assert.equal(first.body.status, 'ran', first.text.slice(0, 2000));
    assert.equal(first.body.stdout, 'uuid 36\n');
    await server.app.sandbox.settled();
    assert.ok(fs.existsSync(path.join(cache, '.generation-golang')), 'the Go cache was emptied (a new generation)');
    assert.equal(fs.existsSync(path.join(cache, 'golang', 'mod', 'github.com', 'google')), false, 'uuid\'s sources are gone with it');
    // The graph's layer goes too, so the next call must compile it — from the modules, with the proxy off.
    assert.equal(layersOf().length, 1, 'the first call made the layer');
    fs.rmSync(path.join(cache, 'layers', 'golang'), { recursive: true, force: true });

    const again = await postTest(server, { language: 'go', runtime: 'golang', sessionId: first.body.sessionId, timeoutMs: 60_000, files: [program] });
    assert.equal(again.body.status, 'ran', again.text.slice(0, 2000));
    assert.equal(again.body.stdout, 'uuid 36\n');
    assert.equal(layersOf().length, 1, 'the layer compiled again: the modules were fetched back before the compile');
  });
});
