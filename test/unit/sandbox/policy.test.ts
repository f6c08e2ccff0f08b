// Pure sandbox policy: workspace paths, package specs per runtime, pins, host firewall rules, the run queue, step kinds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { safeRelativePath } from '../../../src/sandbox/paths.ts';
import { RUNTIME_ADAPTERS } from '../../../src/sandbox/runtimes/index.ts';
import { BLOCKED_V4, BLOCKED_V6, hostRules } from '../../../src/sandbox/network.ts';
import { installPlan } from '../../../src/sandbox/index.ts';
import { stepSpec, type StepOptions } from '../../../src/sandbox/steps.ts';
import { testRequestSchema } from '../../../src/sandbox/schema.ts';
import type { Toolchain } from '../../../src/sandbox/toolchains.ts';
import { RunQueue } from '../../../src/sandbox/queue.ts';
import { isToolDexError } from '../../../src/errors.ts';

const rejects = (fn: () => unknown, code: string) => assert.throws(fn, (error) => isToolDexError(error) && error.code === code);

describe('safeRelativePath', () => {
  for (const bad of ['/etc/passwd', '../x', 'a/../../b', 'a//b', './a', 'a/.', 'a\u0000b', 'a\nb', '\\\\server\\x', '.tooldex/x']) {
    it(`refuses ${JSON.stringify(bad)}`, () => rejects(() => safeRelativePath(bad), 'invalid_path'));
  }
  for (const good of ['index.ts', 'src/main.rs', 'données/été.py', '日本語/ファイル.js', '😀.txt', 'a b/c d.py', '..hidden', 'x..y']) {
    it(`accepts ${JSON.stringify(good)}`, () => assert.ok(safeRelativePath(good).length >= 1));
  }
  it('normalises to NFC', () => assert.deepEqual(safeRelativePath('e\u0301.py'), ['\u00e9.py']));
});

describe('package specs', () => {
  const ok: Record<string, string[]> = {
    node: ['zod', 'zod@3.23.8', '@types/node@^20', 'is-number@>=7 <8'],
    python: ['requests', 'requests==2.32.3', 'uvicorn[standard]>=0.30', 'Django~=5.0'],
    golang: ['github.com/google/uuid', 'github.com/google/uuid@v1.6.0', 'golang.org/x/text@latest'],
    rust: ['itoa', 'itoa@1', 'serde@1.0.210'],
    ruby: ['rack', 'rack@3.1.8', 'rack:3.1.8'],
  };
  const bad: Record<string, string[]> = {
    node: ['--registry=http://evil', 'git+https://x/y.git', 'file:../x', 'https://evil/x.tgz', 'a b', 'zod@$(id)'],
    python: ['-e .', '--index-url=http://evil', 'git+https://x', 'requests @ https://evil/x.whl', '../pkg'],
    golang: ['-insecure', '../x', 'github.com/x/y@$(id)', 'http://evil/x'],
    rust: ['--git=https://x', 'serde --path ../x', 'a/b'],
    ruby: ['--source=http://evil', 'rack@1@2', 'x;id'],
  };
  for (const [runtime, specs] of Object.entries(ok)) {
    for (const spec of specs) it(`${runtime} accepts ${spec}`, () => assert.ok(RUNTIME_ADAPTERS[runtime as 'node'].parsePackage(spec).name));
  }
  for (const [runtime, specs] of Object.entries(bad)) {
    for (const spec of specs) it(`${runtime} refuses ${spec}`, () => rejects(() => RUNTIME_ADAPTERS[runtime as 'node'].parsePackage(spec), 'invalid_package'));
  }
});

describe('hostRules', () => {
  it('lets DNS to the host resolvers through, then rejects every local address and private range (IPv4)', () => {
    const rules = hostRules(61000, 4, ['10.255.255.53', 'fd00::53']);
    const dns = rules.indexOf('-d 10.255.255.53/32 -p udp --dport 53 -j RETURN');
    const local = rules.indexOf('-m addrtype --dst-type LOCAL -j REJECT');
    assert.ok(dns > 0 && dns < local, rules);
    for (const range of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '127.0.0.0/8', '100.64.0.0/10']) {
      assert.ok(BLOCKED_V4.includes(range));
      assert.ok(rules.indexOf(`-d ${range} -j REJECT`) > local, range);
    }
    assert.doesNotMatch(rules, /fd00::53/);
  });
  it('does the same for IPv6', () => {
    const rules = hostRules(61000, 6, ['10.255.255.53', 'fd00::53']);
    assert.match(rules, /-d fd00::53\/128 -p udp --dport 53 -j RETURN/);
    for (const range of ['::1/128', 'fc00::/7', 'fe80::/10']) {
      assert.ok(BLOCKED_V6.includes(range));
      assert.ok(rules.includes(`-d ${range} -j REJECT`), range);
    }
  });
});

describe('installPlan', () => {
  const node = RUNTIME_ADAPTERS.node;
  const pins = (specs: string[]) => specs.map((spec) => node.parsePackage(spec));
  it('a changed pin is changed, an unchanged one is not', () => {
    const plan = installPlan(node, ['zod@3.22.0', 'is-number@7.0.0'], pins(['zod@3.23.8', 'is-number@7.0.0']));
    assert.deepEqual(plan.changed.map((p) => p.spec), ['zod@3.23.8']);
    assert.deepEqual(plan.all.map((p) => p.spec), ['zod@3.23.8', 'is-number@7.0.0']);
  });
  it('switching back to an earlier pin reinstalls it (3.23.8 → 3.22.0 → 3.23.8)', () => {
    let installed: string[] = [];
    for (const spec of ['zod@3.23.8', 'zod@3.22.0', 'zod@3.23.8']) {
      const plan = installPlan(node, installed, pins([spec]));
      assert.deepEqual(plan.changed.map((p) => p.spec), [spec]);
      installed = plan.all.map((p) => p.spec);
    }
    assert.deepEqual(installed, ['zod@3.23.8']);
  });
  it('one name asked twice in a call installs the last', () => {
    assert.deepEqual(installPlan(node, [], pins(['zod@3.22.0', 'zod@3.23.8'])).changed.map((p) => p.spec), ['zod@3.23.8']);
  });
});

describe('step kinds', () => {
  const toolchain: Toolchain = {
    runtime: 'node', available: true, mounts: [{ host: '/tc/node', dest: '/tc/node' }], fetchMounts: [{ host: '/tc/bun', dest: '/opt/tooldex/bin/bun' }],
    runMounts: [{ host: '/tc/tsx', dest: '/opt/tooldex/node_modules/tsx' }], hostPackageDirs: ['/tc/site'], paths: {},
  };
  const options = {
    identity: { uid: 61000, gid: 61000, etcDir: '/x/etc', bwrap: 'bwrap' }, toolchain,
    folders: { work: '/v/work', deps: '/v/deps', build: '/v/build', overlay: '/nonexistent/overlay' },
    cacheDir: '/x/cache/node', limits: { memoryBytes: 1, pids: 1, cpus: 1 }, owner: 'o', timeoutMs: 1, fileSizeBytes: 1,
    extraEnv: { SECRET: 'x' },
  } satisfies StepOptions;
  it('a fetch step writes the cache and /deps, sees no session files, starts in an empty folder, gets no caller env', () => {
    const spec = stepSpec({ kind: 'fetch', name: 'install', script: 'true', env: { A: '1' }, network: {} }, options);
    assert.deepEqual(spec.mounts.map((m) => [m.dest, Boolean(m.writable)]), [['/tc/node', false], ['/opt/tooldex/bin/bun', false], ['/deps', true], ['/cache', true]]);
    assert.equal(spec.cwd, '/tmp');
    assert.equal(spec.env.A, '1');
    assert.equal(spec.env.SECRET, undefined);
  });
  it('a run step sees the shared cache never writable and /deps read-only, and the host packages hidden', () => {
    const spec = stepSpec({ kind: 'run', name: 'run', script: 'true', env: {}, network: {}, cache: 'none' }, options);
    const byDest = Object.fromEntries(spec.mounts.map((m) => [m.dest, Boolean(m.writable)]));
    assert.deepEqual(byDest, { '/tc/node': false, '/opt/tooldex/node_modules/tsx': false, '/workspace': true, '/build': true, '/deps': false });
    assert.equal(spec.overlays?.length, 0);
    assert.deepEqual(spec.hidden, ['/tc/site']);
    assert.equal(spec.env.SECRET, 'x');
  });
});

describe('language and runtime', () => {
  const body = (language: string, runtime: string, file: string) => ({ language, runtime, files: [{ path: file, code: '1' }] });
  it('refuses a language of another runtime, and an entry of another runtime', () => {
    const wrong = testRequestSchema.safeParse(body('python', 'node', 'a.py'));
    assert.equal(wrong.success, false);
    assert.deepEqual(wrong.error?.issues[0]?.path, ['language']);
    assert.match(wrong.error?.issues[0]?.message ?? '', /python runs on the python runtime/);
    const entry = testRequestSchema.safeParse(body('javascript', 'node', 'a.py'));
    assert.deepEqual(entry.error?.issues[0]?.path, ['entry']);
  });
  it('accepts the usual names', () => {
    for (const [language, runtime, file] of [['typescript', 'node', 'a.ts'], ['js', 'node', 'a.mjs'], ['go', 'golang', 'main.go'], ['rust', 'rust', 'src/main.rs'], ['ruby', 'ruby', 'a.rb'], ['Python', 'python', 'main']]) {
      assert.equal(testRequestSchema.safeParse(body(language!, runtime!, file!)).success, true, `${language} ${runtime}`);
    }
  });
  it('refuses a secret shorter than 8 characters', () => {
    const short = testRequestSchema.safeParse({ ...body('js', 'node', 'a.js'), env: [{ name: 'S', secret: 'abc' }] });
    assert.equal(short.success, false);
    assert.match(short.error?.issues[0]?.message ?? '', /at least 8/);
  });
});

describe('RunQueue', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  it('serialises one session and runs different sessions in parallel up to the limit', async () => {
    const queue = new RunQueue(2, 10, 2);
    const log: string[] = [];
    const job = (name: string) => async () => { log.push(`+${name}`); await sleep(30); log.push(`-${name}`); };
    await Promise.all([queue.run('a', 'o', job('a1')), queue.run('a', 'o', job('a2')), queue.run('b', 'o', job('b1'))]);
    assert.ok(log.indexOf('-a1') < log.indexOf('+a2'), log.join(' '));
    assert.ok(log.indexOf('+b1') < log.indexOf('-a1'), log.join(' '));
  });
  it('answers 503 sandbox_busy with retryAfterSeconds once the queue is full', async () => {
    const queue = new RunQueue(1, 1, 1);
    const running = [queue.run('a', 'o', () => sleep(50)), queue.run('b', 'p', () => sleep(50))];
    await assert.rejects(queue.run('c', 'q', () => sleep(1)), (error) =>
      isToolDexError(error) && error.status === 503 && error.code === 'sandbox_busy' && Number(error.details?.retryAfterSeconds) >= 1);
    await Promise.all(running);
    await queue.run('d', 'o', () => sleep(1));
  });
  it('caps one owner without holding up another, and reports the wait', async () => {
    const queue = new RunQueue(3, 10, 1);
    const started: string[] = [];
    const waits: Record<string, number> = {};
    const job = (name: string, ms: number) => async (queueMs: number) => { started.push(name); waits[name] = queueMs; await sleep(ms); };
    await Promise.all([queue.run('a1', 'busy', job('a1', 80)), queue.run('a2', 'busy', job('a2', 10)), queue.run('b1', 'other', job('b1', 10))]);
    assert.deepEqual(started, ['a1', 'b1', 'a2'], 'the second run of the capped owner waits; the other owner does not');
    assert.ok((waits.a2 ?? 0) >= 60, `a2 waited ${waits.a2} ms`);
    assert.ok((waits.b1 ?? 99) < 30);
  });
});
