// Manifests sent in files (Cargo.toml, go.mod, package.json) become pins under the `packages` rules; anything that is not
// a registry dependency is refused with 422 invalid_manifest naming the file and the dependency.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ToolDexError } from '../../../src/errors.ts';
import { MAX_MANIFEST_DEPENDENCIES, manifestPackages } from '../../../src/sandbox/manifests.ts';
import { RUNTIME_ADAPTERS } from '../../../src/sandbox/runtimes/index.ts';
import type { Runtime } from '../../../src/sandbox/schema.ts';

const pins = (runtime: Runtime, path: string, code: string) =>
  manifestPackages(runtime, RUNTIME_ADAPTERS[runtime], [{ path: 'main.x', code: '' }, { path, code }]).map((pin) => pin.spec);

function refused(runtime: Runtime, path: string, code: string, message: RegExp) {
  assert.throws(() => pins(runtime, path, code), (error: unknown) => {
    assert.ok(error instanceof ToolDexError);
    assert.equal(error.status, 422);
    assert.equal(error.code, 'invalid_manifest');
    assert.equal(error.details?.field, 'files.1.code');
    assert.match(error.message, message);
    return true;
  });
}

describe('sandbox manifests', () => {
  it('Cargo.toml: crates.io dependencies of every table, with their features, as pins', () => {
    const toml = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nclap = { version = "4", features = ["derive"] }\n' +
      'itoa = "1"\nanyhow = "*"\n\n[target.\'cfg(unix)\'.dependencies]\nlibc = "0.2"\n\n[build-dependencies]\nclap = { version = "4", features = ["env"] }\n';
    assert.deepEqual(pins('rust', 'Cargo.toml', toml), ['clap@4[derive,env]', 'itoa@1', 'anyhow', 'libc@0.2']);
  });

  it('Cargo.toml: `default-features = false` is kept as `-default` (off only when every entry of the crate says so)', () => {
    const toml = '[dependencies]\nhex = { version = "0.4", default-features = false, features = ["alloc"] }\nserde = { version = "1", default-features = false }\n' +
      'log = { version = "0.4", default_features = false }\n[build-dependencies]\nserde = "1"\n';
    assert.deepEqual(pins('rust', 'Cargo.toml', toml), ['hex@0.4[-default,alloc]', 'serde@1', 'log@0.4[-default]']);
    const dev = '[dependencies]\nhex = { version = "0.4", default-features = false }\n[dev-dependencies]\nhex = "0.4"\nitoa = { version = "1", default-features = false }\n';
    assert.deepEqual(pins('rust', 'Cargo.toml', dev), ['hex@0.4[-default]', 'itoa@1[-default]'], 'a dev-dependency does not turn on what the build turned off');
    refused('rust', 'Cargo.toml', '[dependencies]\nx = { version = "1", default-features = "no" }\n', /default-features must be true or false/);
  });

  it('Cargo.toml: git, path, workspace, other registries, renames, [patch] and bad TOML are refused', () => {
    refused('rust', 'Cargo.toml', '[dependencies]\nx = { git = "https://example.com/x" }\n', /dependency "x" uses `git`.*crates\.io/);
    refused('rust', 'Cargo.toml', '[dependencies]\nx = { path = "../x" }\n', /uses `path`/);
    refused('rust', 'Cargo.toml', '[dependencies]\nx = { workspace = true }\n', /uses `workspace`/);
    refused('rust', 'Cargo.toml', '[dependencies]\nx = { version = "1", registry = "mine" }\n', /uses `registry`/);
    refused('rust', 'Cargo.toml', '[dependencies]\nx = { version = "1", package = "y" }\n', /renamed/);
    refused('rust', 'Cargo.toml', '[dependencies]\nx = "1"\n[patch.crates-io]\nx = { path = "x" }\n', /\[patch\] is not supported/);
    refused('rust', 'Cargo.toml', '[dependencies\nx = 1', /not valid TOML/);
    refused('rust', 'Cargo.toml', '[dependencies]\nx = { version = "1", features = ["a/../b"] }\n', /dependency "x@1\[a\/\.\.\/b\]" is not a plain registry dependency/);
  });

  it('go.mod: every required module at its version; replace directives and bad grammar are refused', () => {
    const mod = 'module example.com/app\n\ngo 1.22\n\nrequire (\n\tgorm.io/gorm v1.31.2\n\tgithub.com/glebarez/sqlite v1.11.0\n' +
      '\tmodernc.org/sqlite v1.23.1 // indirect\n)\n';
    assert.deepEqual(pins('golang', 'go.mod', mod), ['gorm.io/gorm@v1.31.2', 'github.com/glebarez/sqlite@v1.11.0', 'modernc.org/sqlite@v1.23.1']);
    refused('golang', 'go.mod', `${mod}replace gorm.io/gorm => ../gorm\n`, /replace directives are not supported/);
    refused('golang', 'go.mod', `${mod}replace gorm.io/gorm => example.com/fork v1.0.0\n`, /replace directives/);
    refused('golang', 'go.mod', 'module x\nrequire (\n', /not closed/);
  });

  it('package.json: registry ranges of dependencies, devDependencies and optionalDependencies; other sources refused', () => {
    const json = JSON.stringify({ name: 'app', type: 'module', dependencies: { zod: '^3.23.0', '@scope/pkg': '1.2.3', chalk: '*' }, devDependencies: { tsx: '>=4 <5' } });
    assert.deepEqual(pins('node', 'package.json', json), ['zod@^3.23.0', '@scope/pkg@1.2.3', 'chalk', 'tsx@>=4 <5']);
    for (const range of ['file:../x', 'link:x', 'git+https://example.com/x.git', 'github:user/repo', 'user/repo', 'https://example.com/x.tgz', 'workspace:*', 'npm:other@1']) {
      refused('node', 'package.json', JSON.stringify({ dependencies: { x: range } }), /only npm registry versions are fetched/);
    }
    refused('node', 'package.json', '{"dependencies": ', /not valid JSON/);
    refused('node', 'package.json', JSON.stringify({ dependencies: ['x'] }), /dependencies must be an object/);
  });

  it('at most MAX_MANIFEST_DEPENDENCIES dependencies are fetched for one manifest', () => {
    const many = (n: number) => JSON.stringify({ dependencies: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, '1.0.0'])) });
    assert.equal(pins('node', 'package.json', many(MAX_MANIFEST_DEPENDENCIES)).length, MAX_MANIFEST_DEPENDENCIES);
    refused('node', 'package.json', many(MAX_MANIFEST_DEPENDENCIES + 1), new RegExp(`${MAX_MANIFEST_DEPENDENCIES + 1} dependencies; at most ${MAX_MANIFEST_DEPENDENCIES}`));
  });

  it('only the runtime\'s own manifest at the top of the workspace counts', () => {
    assert.deepEqual(pins('python', 'package.json', '{"dependencies":{"x":"file:y"}}'), []);
    assert.deepEqual(pins('node', 'sub/package.json', '{"dependencies":{"x":"file:y"}}'), []);
    assert.deepEqual(pins('rust', 'go.mod', 'module x\nreplace a => ../b\n'), []);
  });
});
