// Pure sandbox policy: workspace paths, package specs per runtime, firewall rules, the run queue.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { safeRelativePath } from '../../../src/sandbox/paths.ts';
import { RUNTIME_ADAPTERS } from '../../../src/sandbox/runtimes/index.ts';
import { BLOCKED_RANGES, firewallRules } from '../../../src/sandbox/network.ts';
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

describe('firewallRules', () => {
  it('rejects every private, link-local and special range and allows only slirp DNS', () => {
    const rules = firewallRules({});
    for (const range of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']) {
      assert.ok(BLOCKED_RANGES.includes(range));
      assert.match(rules, new RegExp(`-A OUTPUT -d ${range.replace(/\./g, '\\.')} -j REJECT`));
    }
    assert.match(rules, /-d 10\.0\.2\.3\/32 -p udp --dport 53 -j ACCEPT/);
    assert.doesNotMatch(rules, /10\.0\.2\.2/);
  });
  it('opens exactly the allowed host port before the private ranges', () => {
    const rules = firewallRules({ hostPorts: [8808] });
    const allow = rules.indexOf('-d 10.0.2.2/32 -p tcp --dport 8808 -j ACCEPT');
    assert.ok(allow > 0 && allow < rules.indexOf('-d 10.0.0.0/8 -j REJECT'));
  });
});

describe('RunQueue', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  it('serialises one session and runs different sessions in parallel up to the limit', async () => {
    const queue = new RunQueue(2, 10);
    const log: string[] = [];
    const job = (name: string) => async () => { log.push(`+${name}`); await sleep(30); log.push(`-${name}`); };
    await Promise.all([queue.run('a', job('a1')), queue.run('a', job('a2')), queue.run('b', job('b1'))]);
    assert.ok(log.indexOf('-a1') < log.indexOf('+a2'), log.join(' '));
    assert.ok(log.indexOf('+b1') < log.indexOf('-a1'), log.join(' '));
  });
  it('answers 503 sandbox_busy with retryAfterSeconds once the queue is full', async () => {
    const queue = new RunQueue(1, 1);
    const running = [queue.run('a', () => sleep(50)), queue.run('b', () => sleep(50))];
    await assert.rejects(queue.run('c', () => sleep(1)), (error) =>
      isToolDexError(error) && error.status === 503 && error.code === 'sandbox_busy' && Number(error.details?.retryAfterSeconds) >= 1);
    await Promise.all(running);
    await queue.run('d', () => sleep(1));
  });
});
