// Build limits apart from run limits, through POST /tools/test with real sandboxes: a build (here a Rust build script,
// package code like any compile) gets TOOLDEX_SANDBOX_BUILD_MEMORY_MB and TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS, the program
// keeps TOOLDEX_SANDBOX_MEMORY_MB and the caller's timeoutMs, and `endedBy` says which phase's limit ended a step.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestServer } from '../../helpers/server.ts';
import { file, postTest, SHARED_CACHE, startSandboxServer } from './helpers.ts';

const MIB = 1024 * 1024;
/** Allocates and touches `mib` MiB (black_box: the optimiser may not drop it), then prints how much. */
const hog = (mib: string) => `fn main() {\n    let v = std::hint::black_box(vec![1u8; ${mib} << 20]);\n    println!("held {} MiB", v.len() >> 20);\n}\n`;
const forever = 'fn main() {\n    let mut keep = Vec::new();\n    loop { keep.push(std::hint::black_box(vec![1u8; 16 << 20])); }\n}\n';

describe('build limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startSandboxServer({ TOOLDEX_SANDBOX_MEMORY_MB: 128, TOOLDEX_SANDBOX_BUILD_MEMORY_MB: 512, TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS: 120_000 });
  });
  after(() => server.close());

  it('a build may use more memory than the program: 200 MiB in the build script passes, the same in the program ends at the run limit', async () => {
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', timeoutMs: 20_000, entry: 'src/main.rs', files: [file('build.rs', hog('200')), file('src/main.rs', hog('200'))],
    });
    assert.equal(reply.body.status, 'limit_exceeded', reply.text.slice(0, 2000));
    assert.deepEqual(reply.body.endedBy, { limit: 'memory', phase: 'run', max: 128 * MIB, unit: 'bytes' });
    assert.match(reply.body.stderr, /\[sandbox\] run killed: memory limit of 128 MiB reached \(TOOLDEX_SANDBOX_MEMORY_MB\)/);
    const small = await postTest(server, {
      language: 'rust', runtime: 'rust', sessionId: reply.body.sessionId, entry: 'src/main.rs', files: [file('src/main.rs', hog('16'))],
    });
    assert.equal(small.body.status, 'ran', small.text.slice(0, 2000));
    assert.equal(small.body.stdout, 'held 16 MiB\n');
  });

  it('a build past the build memory limit ends as limit_exceeded in the build phase, naming TOOLDEX_SANDBOX_BUILD_MEMORY_MB', async () => {
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', entry: 'src/main.rs', files: [file('build.rs', forever), file('src/main.rs', 'fn main() { println!("never"); }\n')],
    });
    assert.equal(reply.body.status, 'limit_exceeded', reply.text.slice(0, 2000));
    assert.deepEqual(reply.body.endedBy, { limit: 'memory', phase: 'build', max: 512 * MIB, unit: 'bytes' });
    assert.match(reply.body.stderr, /\[sandbox\] build killed: memory limit of 512 MiB reached \(TOOLDEX_SANDBOX_BUILD_MEMORY_MB\)/);
    assert.equal(reply.body.stdout, '');
  });
});

describe('build timeout', () => {
  let server: TestServer;
  before(async () => {
    server = await startSandboxServer({ TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS: 6000 });
  });
  after(() => server.close());

  it('bounds a build script that never ends by TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS, not the caller\'s (shorter) timeoutMs', async () => {
    const started = Date.now();
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', timeoutMs: 2000, entry: 'src/main.rs',
      files: [file('build.rs', 'fn main() { loop { std::hint::spin_loop(); } }\n'), file('src/main.rs', 'fn main() { println!("never"); }\n')],
    });
    assert.equal(reply.body.status, 'timeout', reply.text);
    assert.deepEqual(reply.body.endedBy, { limit: 'timeout', phase: 'build', max: 6000, unit: 'ms' });
    assert.match(reply.body.stderr, /\[sandbox\] build stopped by the 6000 ms wall-clock limit \(TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS\)/);
    assert.ok(reply.body.phases.runMs >= 6000 && reply.body.phases.runMs < 20_000, String(reply.body.phases.runMs));
    assert.ok(Date.now() - started < 60_000);
  });

  it('the program keeps the caller\'s timeoutMs', async () => {
    const reply = await postTest(server, {
      language: 'javascript', runtime: 'node', timeoutMs: 1500, files: [file('spin.js', 'for (;;) {}')],
    });
    assert.equal(reply.body.status, 'timeout', reply.text);
    assert.deepEqual(reply.body.endedBy, { limit: 'timeout', phase: 'run', max: 1500, unit: 'ms' });
    assert.match(reply.body.stderr, /\[sandbox\] run stopped by the 1500 ms wall-clock limit \(timeoutMs\)/);
  });
});

describe('build timeout of a compiled layer', () => {
  let server: TestServer;
  // A cache of its own: no layer of these crates exists, so the call's compile step (dependencies only) runs. The graph
  // must take well over the limit to compile on any machine: tokio with its proc macros alone compiled in 5.5 s on a
  // fast quiet machine, so regex (regex-automata) and serde's derive (syn with full features) are added.
  const LIMIT_MS = 6000;
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-layer-timeout-'));
  before(async () => {
    fs.chmodSync(cache, 0o755); // the sandbox uid traverses it, as it does the default cache folder
    server = await startSandboxServer({ TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS: LIMIT_MS, TOOLDEX_SANDBOX_CACHE_DIR: cache });
  });
  after(async () => {
    await server.close();
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('a compile step past the build limit ends the call in the build phase, without a second build of the same crates', { timeout: 300_000 }, async () => {
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', packages: ['tokio@1[macros,rt-multi-thread,time]', 'regex@1', 'serde@1[derive]'],
      files: [file('src/main.rs', '#[tokio::main]\nasync fn main() { println!("never"); }\n')],
    });
    assert.equal(reply.body.status, 'timeout', reply.text.slice(0, 2000));
    assert.deepEqual(reply.body.endedBy, { limit: 'timeout', phase: 'build', max: LIMIT_MS, unit: 'ms' });
    assert.match(reply.body.stderr, new RegExp(`\\[sandbox\\] build stopped by the ${LIMIT_MS} ms wall-clock limit \\(TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS\\)`));
    assert.ok(reply.body.phases.runMs >= LIMIT_MS && reply.body.phases.runMs < 2 * LIMIT_MS, `one build's time, not two: ${reply.body.phases.runMs} ms`);
    assert.deepEqual(fs.readdirSync(path.join(cache, 'layers', 'rust')).filter((name) => !name.startsWith('.')), [], 'no layer');
  });

  it('calls waiting for another call\'s compile of the same graph share its outcome: one compile past the limit, not one per caller', { timeout: 300_000 }, async () => {
    const request = {
      language: 'rust', runtime: 'rust', packages: ['tokio@1[macros,rt-multi-thread,time]', 'regex@1', 'serde@1[derive]'],
      files: [file('src/main.rs', '#[tokio::main]\nasync fn main() { println!("never"); }\n')],
    };
    const from = ['127.0.0.31', '127.0.0.32'];
    const replies = await Promise.all(from.map((address) => postTest(server, request, { from: address })));
    for (const reply of replies) {
      assert.equal(reply.body.status, 'timeout', reply.text.slice(0, 2000));
      assert.deepEqual(reply.body.endedBy, { limit: 'timeout', phase: 'build', max: LIMIT_MS, unit: 'ms' });
    }
    // One call ran the compile (its build time is the limit's); the other waited for it and ran no build of its own.
    const waited = replies.filter((reply) => /that was the compile of the same dependencies for another call/.test(reply.body.stderr));
    assert.equal(waited.length, 1, replies.map((reply) => reply.body.stderr).join('\n---\n'));
    assert.ok(waited[0]!.body.phases.runMs < LIMIT_MS, `the waiting call compiled nothing itself: ${waited[0]!.body.phases.runMs} ms`);
    assert.deepEqual(fs.readdirSync(path.join(cache, 'layers', 'rust')).filter((name) => !name.startsWith('.')), [], 'no layer');

    // Which reply ran the compile is up to the scheduler: the other one waited.
    const ranIndex = replies.findIndex((reply) => reply !== waited[0]);
    const waitedIndex = 1 - ranIndex;

    // The next call of that compile by the owner whose call ran it (a verification's next example, in the same session)
    // ends at once with the remembered outcome.
    const again = await postTest(server, { ...request, sessionId: replies[ranIndex]!.body.sessionId }, { from: from[ranIndex] });
    assert.equal(again.body.status, 'timeout', again.text.slice(0, 2000));
    assert.deepEqual(again.body.endedBy, { limit: 'timeout', phase: 'build', max: LIMIT_MS, unit: 'ms' });
    assert.match(again.body.stderr, /the compile of these same dependencies \(same graph, same step\) ended by that limit \d+ s ago for this caller/);
    assert.ok(again.body.phases.runMs < 1000, `no compile ran: ${again.body.phases.runMs} ms`);
    // The owner that only waited is not refused later: its next call compiles on its own account (else a tenant who made
    // a shared compile time out would lock out everyone who waited on it).
    const waiter = await postTest(server, { ...request, sessionId: replies[waitedIndex]!.body.sessionId }, { from: from[waitedIndex] });
    assert.equal(waiter.body.status, 'timeout', waiter.text.slice(0, 2000));
    assert.doesNotMatch(waiter.body.stderr, /for this caller|for another call/);
    assert.ok(waiter.body.phases.runMs >= LIMIT_MS, `the waiting owner compiles itself: ${waiter.body.phases.runMs} ms`);
    const stranger = await postTest(server, request, { from: '127.0.0.33' });
    assert.equal(stranger.body.status, 'timeout', stranger.text.slice(0, 2000));
    assert.doesNotMatch(stranger.body.stderr, /for this caller|for another call/);
    assert.ok(stranger.body.phases.runMs >= LIMIT_MS, `another owner compiles itself: ${stranger.body.phases.runMs} ms`);
  });
});

describe('disk of a compiled layer', () => {
  let server: TestServer;
  // A cache of its own (no layer of this graph exists, so the compile step runs) and the smallest session quota: the
  // compile of serde's derive (syn, proc-macro2, the proc macro itself) writes well over 16 MiB in a debug build.
  const SESSION_MB = 16;
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-layer-disk-'));
  before(async () => {
    fs.chmodSync(cache, 0o755);
    server = await startSandboxServer({ TOOLDEX_SANDBOX_SESSION_MB: SESSION_MB, TOOLDEX_SANDBOX_CACHE_DIR: cache });
  });
  after(async () => {
    await server.close();
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('a compile step writes into a volume of its own, capped while it runs: past the quota it ends the call (disk, build) and the shared cache holds none of it', { timeout: 300_000 }, async () => {
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', packages: ['serde@1[derive]'],
      files: [file('src/main.rs', 'use serde::Serialize;\n#[derive(Serialize)]\nstruct Point { x: i32 }\nfn main() { let _ = Point { x: 1 }; println!("never"); }\n')],
    });
    assert.equal(reply.body.status, 'limit_exceeded', reply.text.slice(0, 2000));
    assert.equal(reply.body.endedBy?.limit, 'disk', reply.text.slice(0, 2000));
    assert.equal(reply.body.endedBy?.phase, 'build');
    assert.equal(reply.body.endedBy?.max, SESSION_MB * MIB);
    assert.match(reply.body.stderr, /\[sandbox\] build: the compile of the dependencies ran out of its disk: \d+ MiB used of the 16 MiB it may write/);
    const layers = path.join(cache, 'layers', 'rust');
    assert.deepEqual(fs.readdirSync(layers), [], 'no layer, and nothing half-written beside the layers');
  });
});

describe('a limit-ended Go compile of other packages of the same graph', () => {
  // Go's layer key leaves out the packages (they come from each call's files): a call that imports other packages of the
  // graph must not wait for, and end with, a stranger's compile of heavy packages that hit a limit. The shared cache
  // (modules downloaded once per run); the graph (gorm + the SQLite driver + uuid v1.6.0) is this test's own, and the
  // layer the light call makes is removed afterwards, so every run compiles.
  const LIMIT_MS = 20_000;
  const GO_MOD = 'module example.com/shop\n\ngo 1.22\n\nrequire (\n\tgithub.com/glebarez/sqlite v1.11.0\n\tgorm.io/gorm v1.31.2\n\tgithub.com/google/uuid v1.6.0\n)\n';
  const HEAVY = 'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/glebarez/sqlite"\n\t"gorm.io/gorm"\n)\n\nfunc main() { _, err := gorm.Open(sqlite.Open(":memory:"), &gorm.Config{}); fmt.Println(err) }\n';
  const LIGHT = 'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/dustin/go-humanize"\n)\n\nfunc main() { fmt.Println(humanize.Bytes(82854982)) }\n';
  const layersDir = path.join(SHARED_CACHE, 'layers', 'golang');
  const listLayers = () => (fs.existsSync(layersDir) ? fs.readdirSync(layersDir).filter((name) => /^[0-9a-f]{32}$/.test(name)) : []);
  let existing: string[] = [];
  let server: TestServer;
  before(async () => {
    server = await startSandboxServer({ TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS: LIMIT_MS });
  });
  after(async () => {
    await server.close();
    for (const name of listLayers().filter((layer) => !existing.includes(layer))) fs.rmSync(path.join(layersDir, name), { recursive: true, force: true });
  });

  it('the heavy call ends at its limit; a call importing a light package of the graph builds and runs', { timeout: 300_000 }, async () => {
    existing = listLayers();
    // The light call is sent once the heavy call's compile runs, so without the fix it would find that compile and wait.
    let compiling!: () => void;
    const heavyCompiling = new Promise<void>((resolve) => { compiling = resolve; });
    server.app.sandbox.onSandboxReady = (_pid, step) => {
      if (step === 'compile') compiling();
    };
    const heavy = postTest(server, { language: 'go', runtime: 'golang', files: [file('main.go', HEAVY), file('go.mod', GO_MOD)], entry: 'main.go' }, { from: '127.0.0.41' });
    await Promise.race([heavyCompiling, heavy]);
    server.app.sandbox.onSandboxReady = undefined;
    const light = await postTest(server, { language: 'go', runtime: 'golang', files: [file('main.go', LIGHT), file('go.mod', GO_MOD)], entry: 'main.go' }, { from: '127.0.0.42' });
    const heavyReply = await heavy;
    assert.ok(['timeout', 'limit_exceeded'].includes(heavyReply.body.status), heavyReply.text.slice(0, 2000));
    assert.equal(heavyReply.body.endedBy?.phase, 'build', heavyReply.text.slice(0, 2000));
    assert.equal(light.body.status, 'ran', light.text.slice(0, 2000));
    assert.equal(light.body.stdout, '83 MB\n');
    assert.doesNotMatch(light.body.stderr, /compile of the same dependencies for another call/);
    assert.equal(listLayers().filter((layer) => !existing.includes(layer)).length, 1, 'the graph had no layer: the light call compiled one');
  });
});
