// The Rust fetch step empties the vendored crates no build compiles on this host (Cargo.lock lists Windows crates and
// optional crates of features left off; `cargo vendor` copied them all and burn's vendored sources alone filled a
// session's disk). Real cargo, offline: a directory source made here, a project with a Windows-only dependency. And the
// fetch script around it (round 20): a `cargo add` that fails fails the fetch (round 19's script ran `cargo vendor` anyway).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fetchScript, stubUnbuilt, unstubVendored } from '../../../src/sandbox/runtimes/rust.ts';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** A vendored crate folder as `cargo vendor --versioned-dirs` writes it: its files and their checksums. */
function vendorCrate(vendor: string, name: string, files: Record<string, string>): void {
  const dir = path.join(vendor, `${name}-1.0.0`);
  const all: Record<string, string> = { 'Cargo.toml': `[package]\nname = "${name}"\nversion = "1.0.0"\nedition = "2021"\n`, ...files };
  for (const [file, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const sums = Object.fromEntries(Object.entries(all).map(([file, text]) => [file, sha256(text)]));
  fs.writeFileSync(path.join(dir, '.cargo-checksum.json'), JSON.stringify({ files: sums, package: sha256(name) }));
}

describe('rust: vendored crates no build compiles here are emptied', () => {
  it('a Windows-only crate becomes a stub (manifest and package checksum kept), the build still resolves and runs; stubs are removed before the next vendor (cargo)', async (t) => {
    try { execFileSync('cargo', ['--version'], { stdio: 'ignore' }); } catch { t.skip('no cargo here'); return; }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-vendor-stubs-'));
    try {
      const vendor = path.join(dir, 'vendor');
      vendorCrate(vendor, 'needed', { 'src/lib.rs': 'pub fn hi() -> &\'static str { "hi from needed" }\n' });
      vendorCrate(vendor, 'winonly', { 'src/lib.rs': 'pub fn win() {}\n', 'data/big.bin': 'x'.repeat(64 * 1024) });
      const project = path.join(dir, 'project');
      fs.mkdirSync(path.join(project, 'src'), { recursive: true });
      fs.writeFileSync(path.join(project, 'Cargo.toml'), '[package]\nname = "sandbox"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nneeded = "1"\n\n' +
        '[target.\'cfg(windows)\'.dependencies]\nwinonly = "1"\n');
      fs.writeFileSync(path.join(project, 'src', 'main.rs'), 'fn main() { println!("{}", needed::hi()); }\n');
      const source = `set -- --config 'source.crates-io.replace-with="v"' --config 'source.v.directory="${vendor}"'`;
      const env = { ...process.env, CARGO_TARGET_DIR: path.join(dir, 'target'), CARGO_TERM_COLOR: 'never' };
      const sh = (script: string) => execFileSync('bash', ['-c', `${source}; ${script}`], { cwd: project, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      sh('cargo generate-lockfile "$@" --offline --quiet');
      assert.match(fs.readFileSync(path.join(project, 'Cargo.lock'), 'utf8'), /name = "winonly"/, 'the lock lists the Windows-only crate');

      sh(stubUnbuilt(vendor));
      const stub = path.join(vendor, 'winonly-1.0.0');
      assert.equal(fs.existsSync(path.join(stub, 'data')), false, 'the unused crate\'s files are gone');
      assert.equal(fs.readFileSync(path.join(stub, 'src', 'lib.rs'), 'utf8'), '');
      assert.match(fs.readFileSync(path.join(stub, 'Cargo.toml'), 'utf8'), /name = "winonly"/);
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(stub, '.cargo-checksum.json'), 'utf8')), { files: {}, package: sha256('winonly') });
      assert.ok(fs.existsSync(path.join(stub, '.tooldex-stub')));
      assert.equal(fs.readFileSync(path.join(vendor, 'needed-1.0.0', 'src', 'lib.rs'), 'utf8'), 'pub fn hi() -> &\'static str { "hi from needed" }\n', 'a crate the build compiles is untouched');
      assert.equal(fs.existsSync(path.join(vendor, 'needed-1.0.0', '.tooldex-stub')), false);

      assert.equal(sh('cargo run "$@" --offline --quiet'), 'hi from needed\n');

      sh(unstubVendored(vendor));
      assert.equal(fs.existsSync(stub), false, 'a stub is removed, so the next cargo vendor copies the crate again');
      assert.ok(fs.existsSync(path.join(vendor, 'needed-1.0.0', 'src', 'lib.rs')));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when cargo tree fails, nothing is emptied', async (t) => {
    try { execFileSync('cargo', ['--version'], { stdio: 'ignore' }); } catch { t.skip('no cargo here'); return; }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-vendor-stubs-'));
    try {
      const vendor = path.join(dir, 'vendor');
      vendorCrate(vendor, 'winonly', { 'src/lib.rs': 'pub fn win() {}\n' });
      // No Cargo.toml in the folder: cargo tree fails.
      execFileSync('bash', ['-c', stubUnbuilt(vendor)], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      assert.equal(fs.readFileSync(path.join(vendor, 'winonly-1.0.0', 'src', 'lib.rs'), 'utf8'), 'pub fn win() {}\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rust: the fetch script fails when a cargo add fails', () => {
  /** A registry as a directory source (what crates-io is replaced with here) and a CARGO_HOME that uses it, offline. */
  function registry(dir: string): NodeJS.ProcessEnv {
    const source = path.join(dir, 'registry');
    vendorCrate(source, 'needed', { 'src/lib.rs': 'pub fn hi() -> &\'static str { "hi from needed" }\n' });
    const home = path.join(dir, 'home');
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, 'config.toml'), `[source.crates-io]\nreplace-with = "local"\n\n[source.local]\ndirectory = "${source}"\n`);
    // `cargo vendor` reads crates.io itself unless told to respect the source replacement: a wrapper first on PATH
    // tells it, so the real cargo vendors from the directory source offline.
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    const real = execFileSync('bash', ['-c', 'command -v cargo'], { encoding: 'utf8' }).trim();
    fs.writeFileSync(path.join(bin, 'cargo'), `#!/bin/sh\nif [ "$1" = vendor ]; then shift; exec "${real}" vendor --respect-source-config "$@"; fi\nexec "${real}" "$@"\n`, { mode: 0o755 });
    return { ...process.env, PATH: `${bin}:${process.env.PATH}`, CARGO_HOME: home, CARGO_NET_OFFLINE: 'true', CARGO_TARGET_DIR: path.join(dir, 'target'), CARGO_TERM_COLOR: 'never' };
  }
  const run = (script: string, env: NodeJS.ProcessEnv) => spawnSync('bash', ['-c', script], { env, encoding: 'utf8' });

  it('a crate that does not exist fails the fetch, before cargo vendor; crates that exist are vendored (cargo)', async (t) => {
    try { execFileSync('cargo', ['--version'], { stdio: 'ignore' }); } catch { t.skip('no cargo here'); return; }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-fetch-script-'));
    try {
      const env = registry(dir);
      const project = path.join(dir, 'project');
      const vendor = path.join(dir, 'vendor');
      const removes = '{ true; } && ';
      const failing = run(fetchScript(project, vendor, removes, 'cargo add --quiet needed@1 && cargo add --quiet no-such-crate-anywhere'), env);
      assert.notEqual(failing.status, 0, 'a failed cargo add fails the fetch');
      assert.match(failing.stderr, /no-such-crate-anywhere/);
      assert.equal(fs.existsSync(vendor), false, 'cargo vendor did not run');

      const working = run(fetchScript(project, vendor, removes, 'cargo add --quiet needed@1'), env);
      assert.equal(working.status, 0, working.stderr);
      assert.ok(fs.existsSync(path.join(vendor, 'needed-1.0.0', 'src', 'lib.rs')), 'the crate is vendored');
      assert.equal(fs.existsSync(path.join(vendor, 'needed-1.0.0', '.tooldex-stub')), false, 'a crate the build compiles is not emptied');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
