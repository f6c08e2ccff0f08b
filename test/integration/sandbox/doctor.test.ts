// `tooldex doctor` as a user runs it: JSON when piped, every runtime checked inside a real sandbox, exit 1 when broken.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
const doctor = (env: Record<string, string> = {}) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'doctor'], {
  cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000,
});

describe('tooldex doctor', () => {
  it('reports working isolation, each runtime answering from inside a sandbox, and which package sources answer', () => {
    // RubyGems itself is not reachable from this machine; a closed loopback port stands in for an unreachable gem source.
    const run = doctor({ TOOLDEX_GEM_SOURCE: 'http://127.0.0.1:9/' });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.isolation.ok, true);
    assert.deepEqual(report.isolation.cgroups.sort(), ['cpu', 'freezer', 'memory', 'pids']);
    assert.deepEqual(report.runtimes.map((r: { runtime: string }) => r.runtime).sort(), ['golang', 'node', 'python', 'ruby', 'rust']);
    for (const runtime of report.runtimes) {
      assert.equal(runtime.inSandbox, 'ok', JSON.stringify(runtime));
      assert.ok(runtime.version, runtime.runtime);
    }
    const sources = Object.fromEntries(report.sources.map((source: { runtime: string }) => [source.runtime, source]));
    for (const runtime of ['node', 'python', 'golang', 'rust']) assert.equal(sources[runtime].ok, true, JSON.stringify(sources[runtime]));
    assert.equal(sources.ruby.ok, false);
    assert.equal(sources.ruby.url, 'http://10.0.2.2:9/specs.4.8.gz');
    assert.ok(sources.ruby.error, 'says why');
  });

  it('exits 1 and names the missing piece when bubblewrap is absent or a toolchain is', () => {
    const run = doctor({ TOOLDEX_BWRAP: '/nonexistent/bwrap', TOOLDEX_TOOLCHAIN_PATH: '/nonexistent' });
    assert.equal(run.status, 1);
    const report = JSON.parse(run.stdout);
    assert.equal(report.isolation.ok, false);
    assert.match(report.isolation.problem, /bubblewrap/);
    const go = report.runtimes.find((r: { runtime: string }) => r.runtime === 'golang');
    assert.equal(go.available, false);
  });
});
