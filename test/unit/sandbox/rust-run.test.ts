// The Rust runtime's run step: the program runs with the compiler it was built with on PATH (build-script helpers
// such as autocfg probe rustc when their examples run), and nothing else of the host.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseCrateSpec, rustRuntime } from '../../../src/sandbox/runtimes/rust.ts';
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

describe('rust crate specs with features', () => {
  it('reads name, version and features; refuses anything else', () => {
    assert.deepEqual(parseCrateSpec('tokio@1[macros,rt-multi-thread,time]'), { name: 'tokio', version: '1', features: ['macros', 'rt-multi-thread', 'time'] });
    assert.deepEqual(parseCrateSpec('serde[derive]'), { name: 'serde', version: undefined, features: ['derive'] });
    assert.deepEqual(parseCrateSpec('itoa@1'), { name: 'itoa', version: '1', features: [] });
    for (const bad of ['tokio@1[]', 'tokio@1[a', 'tokio@1[dep:x]', 'tokio@1[x/y]', 'tokio[a]@1', 'tokio@1[a b]', '../x']) assert.equal(parseCrateSpec(bad), undefined, bad);
  });
  it('enables features in the fetch step, one cargo add per crate with features', () => {
    const ctx = { toolchain: { paths: { bin: '/opt/rust/bin' } }, source: { url: 'https://index.crates.io' } } as unknown as Parameters<typeof rustRuntime.install>[0];
    const pins = ['itoa@1', 'tokio@1[macros,time]'].map((spec) => rustRuntime.parsePackage(spec));
    const { first } = rustRuntime.install(ctx, { changed: pins, all: pins });
    assert.equal(first.kind, 'fetch');
    assert.match(first.script, /cargo add --quiet 'itoa@1' && cargo add --quiet 'tokio@1' --features 'macros,time'/);
    assert.match(first.script, /cargo remove --quiet 'tokio'/);
  });
});
