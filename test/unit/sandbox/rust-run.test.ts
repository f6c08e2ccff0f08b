// The Rust runtime's run step: the program runs with the compiler it was built with on PATH (build-script helpers
// such as autocfg probe rustc when their examples run), and nothing else of the host.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCrateSpec, rustRuntime } from '../../../src/sandbox/runtimes/rust.ts';
import { BASE_PATH } from '../../../src/sandbox/runtimes/types.ts';

describe('rust run step', () => {
  it('puts the toolchain\'s bin folder before the base PATH, and runs the built executable without network or caches', () => {
    const ctx = { toolchain: { paths: { bin: '/opt/rust/sysroot/bin', cargo: '/opt/rust/sysroot/bin/cargo' } } } as unknown as Parameters<typeof rustRuntime.run>[0];
    const step = rustRuntime.run(ctx, 'src/main.rs', []);
    assert.equal(step.kind, 'run');
    assert.equal(step.env?.PATH, `/opt/rust/sysroot/bin:${BASE_PATH}`);
    assert.equal(step.cache, 'none');
    assert.equal(step.script, 'exec /build/bin/main', 'the executable the build copied out of its target folder');
  });
});

describe('rust crate specs with features', () => {
  it('reads name, version and features; refuses anything else', () => {
    assert.deepEqual(parseCrateSpec('tokio@1[macros,rt-multi-thread,time]'), { name: 'tokio', version: '1', features: ['macros', 'rt-multi-thread', 'time'], defaultFeatures: true });
    assert.deepEqual(parseCrateSpec('serde[derive]'), { name: 'serde', version: undefined, features: ['derive'], defaultFeatures: true });
    assert.deepEqual(parseCrateSpec('itoa@1'), { name: 'itoa', version: '1', features: [], defaultFeatures: true });
    assert.deepEqual(parseCrateSpec('hex@0.4[-default,alloc]'), { name: 'hex', version: '0.4', features: ['alloc'], defaultFeatures: false });
    assert.deepEqual(parseCrateSpec('hex@0.4[-default]'), { name: 'hex', version: '0.4', features: [], defaultFeatures: false });
    for (const bad of ['tokio@1[]', 'tokio@1[-std]', 'tokio@1[-]', 'tokio@1[a', 'tokio@1[dep:x]', 'tokio@1[x/y]', 'tokio[a]@1', 'tokio@1[a b]', '../x']) assert.equal(parseCrateSpec(bad), undefined, bad);
  });
  it('enables features in the fetch step, one cargo add per crate with features', () => {
    const ctx = { toolchain: { paths: { bin: '/opt/rust/bin' } }, source: { url: 'https://index.crates.io' } } as unknown as Parameters<typeof rustRuntime.install>[0];
    const pins = ['itoa@1', 'tokio@1[macros,time]'].map((spec) => rustRuntime.parsePackage(spec));
    const { first } = rustRuntime.install(ctx, { changed: pins, all: pins });
    assert.equal(first.kind, 'fetch');
    assert.match(first.script, /cargo add --quiet 'itoa@1' && cargo add --quiet 'tokio@1' --features 'macros,time'/);
    assert.match(first.script, /cargo remove --quiet 'tokio'/);
  });
  it('default features off (`-default`) reach the fetch step and the build\'s rewrite of the pin', () => {
    const ctx = { toolchain: { paths: { bin: '/opt/rust/bin' } }, source: { url: 'https://index.crates.io' } } as unknown as Parameters<typeof rustRuntime.install>[0];
    const pins = [rustRuntime.parsePackage('hex@0.4[-default,alloc]')];
    assert.match(rustRuntime.install(ctx, { changed: pins, all: pins }).first.script, /cargo add --quiet 'hex@0\.4' --no-default-features --features 'alloc'/);
    const build = rustRuntime.build!(ctx, 'src/main.rs', [{ name: 'hex', version: '0.4.3', features: ['alloc'], defaultFeatures: false }, { name: 'itoa', version: '1.0.1' }]);
    assert.match(build.script, /cargo add --offline --quiet "\$@" 'hex@=0\.4\.3' --no-default-features --features 'alloc'/);
    assert.match(build.script, /cargo add --offline --quiet "\$@" 'itoa@=1\.0\.1'( |$)/);
  });
  it('the build makes anew only the entries of pins changed through packages; the others are updated, keeping their keys', () => {
    const ctx = { toolchain: { paths: { bin: '/opt/rust/bin' } }, source: { url: 'https://index.crates.io' } } as unknown as Parameters<typeof rustRuntime.install>[0];
    const build = rustRuntime.build!(ctx, 'src/main.rs', [{ name: 'hex', version: '0.4.3' }, { name: 'itoa', version: '1.0.1' }], new Set(['hex']));
    assert.doesNotMatch(build.script, /cargo remove [^;]*'hex'/);
    assert.match(build.script, /cargo remove --offline --quiet "\$@" 'itoa'/);
    assert.match(build.script, /cargo add --offline --quiet "\$@" 'hex@=0\.4\.3' 'itoa@=1\.0\.1'/);
  });
});

describe('rust compiled layer', () => {
  const ctx = (version = 'rustc 1.95.0') => ({ toolchain: { version, paths: { bin: '/opt/rust/bin' } }, source: { url: 'https://index.crates.io' } }) as unknown as Parameters<typeof rustRuntime.install>[0];
  const LOCK = (tokio: string) => 'version = 4\n\n[[package]]\nname = "sandbox"\nversion = "0.1.0"\ndependencies = ["tokio"]\n\n' +
    `[[package]]\nname = "tokio"\nversion = "${tokio}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "ab"\n`;
  const deps = (lock: string, manifest: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-rust-layer-'));
    fs.mkdirSync(path.join(dir, 'cargo'));
    fs.writeFileSync(path.join(dir, 'cargo', 'Cargo.lock'), lock);
    fs.writeFileSync(path.join(dir, 'cargo', 'Cargo.toml'), manifest);
    return dir;
  };
  const TOML = (features: string) => `[package]\nname = "sandbox"\n\n[dependencies]\ntokio = { version = "1", features = [${features}] }\n`;
  const pin = [{ name: 'tokio', version: '1.40.0' }];

  it('the key is the exact graph, the dependency entries and the toolchain; the compile step builds the fetch-written project offline', async () => {
    const base = await rustRuntime.sharedLayer!(ctx(), pin, [], deps(LOCK('1.40.0'), TOML('"time"')));
    assert.match(base?.key ?? '', /^[0-9a-f]{32}$/);
    assert.equal(base?.step?.kind, 'compile');
    assert.match(base?.step?.script ?? '', /^cp -r \/deps\/cargo \/tmp\/graph && cd \/tmp\/graph && set -- .*vendored.* && cargo build "\$@" --offline --quiet && rm -rf \/cache\/target\/debug\/sandbox /);
    assert.equal(base?.step?.env.CARGO_TARGET_DIR, '/cache/target');
    assert.equal((await rustRuntime.sharedLayer!(ctx(), pin, [], deps(LOCK('1.40.0'), TOML('"time"'))))?.key, base?.key, 'same graph, same key');
    for (const other of [
      await rustRuntime.sharedLayer!(ctx(), pin, [], deps(LOCK('1.40.1'), TOML('"time"'))),
      await rustRuntime.sharedLayer!(ctx(), pin, [], deps(LOCK('1.40.0'), TOML('"time", "macros"'))),
      await rustRuntime.sharedLayer!(ctx(), pin, [], deps(LOCK('1.40.0'), TOML('"time"').replace('] }', '], default-features = false }'))),
      await rustRuntime.sharedLayer!(ctx('rustc 1.96.0'), pin, [], deps(LOCK('1.40.0'), TOML('"time"'))),
    ]) assert.notEqual(other?.key, base?.key);
    assert.equal(await rustRuntime.sharedLayer!(ctx(), [], [], deps(LOCK('1.40.0'), TOML('"time"'))), undefined, 'no dependency, no layer');
    assert.equal(await rustRuntime.sharedLayer!(ctx(), pin, [], '/nonexistent'), undefined, 'no lock, no layer');
  });

  it('the build reads the layer beneath its own writes (the target folder in the cache overlay, no shared cache) and copies the executable out', () => {
    const build = rustRuntime.build!(ctx(), 'src/main.rs', pin);
    assert.equal(build.cache, 'layers');
    assert.equal(build.env.CARGO_TARGET_DIR, '/cache/target');
    assert.match(build.script, /cp -f "\$\(cat \/tmp\/exe\)" \/build\/bin\/main$/);
  });
});
