// The Rust runtime's run step: the program runs with the compiler it was built with on PATH (build-script helpers
// such as autocfg probe rustc when their examples run), and nothing else of the host.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rustRuntime } from '../../../src/sandbox/runtimes/rust.ts';
import { BASE_PATH } from '../../../src/sandbox/runtimes/types.ts';

describe('rust run step', () => {
  it('puts the toolchain\'s bin folder before the base PATH, and runs the built executable without network or caches', () => {
    const ctx = { toolchain: { paths: { bin: '/opt/rust/sysroot/bin', cargo: '/opt/rust/sysroot/bin/cargo' } } } as unknown as Parameters<typeof rustRuntime.run>[0];
    const step = rustRuntime.run(ctx, 'src/main.rs', []);
    assert.equal(step.kind, 'run');
    assert.equal(step.env?.PATH, `/opt/rust/sysroot/bin:${BASE_PATH}`);
    assert.equal(step.cache, 'none');
    assert.match(step.script, /^exec "\$\(cat .*\/bin\/exe\)"$/);
  });
});
