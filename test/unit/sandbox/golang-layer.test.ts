// The Go compiled layer: keyed by the exact module graph (and toolchain), filled only with packages of the graph's
// modules that the sent .go files import — never the session's own packages, the standard library or odd paths.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { layerKey, stepHash } from '../../../src/sandbox/layers.ts';
import { compileStep, golangRuntime } from '../../../src/sandbox/runtimes/golang.ts';
import type { RuntimeContext } from '../../../src/sandbox/runtimes/types.ts';
import type { Toolchain } from '../../../src/sandbox/toolchains.ts';

const ctx = (version = 'go1.26.8'): RuntimeContext => ({
  toolchain: { runtime: 'golang', available: true, version, mounts: [], fetchMounts: [], runMounts: [], hostPackageDirs: [], paths: { goroot: '/usr/local/go' } } as unknown as Toolchain,
  source: { url: 'https://proxy.golang.org' },
});
const graph = [{ name: 'gorm.io/gorm', version: 'v1.31.2' }, { name: 'github.com/glebarez/sqlite', version: 'v1.11.0' }];
const MAIN = 'package main\n\nimport (\n\t"fmt"\n\tdb "gorm.io/gorm"\n\t_ "github.com/glebarez/sqlite"\n\t"gorm.io/gorm/logger"\n\t"example.com/shop/internal/x"\n' +
  '\t"gorm.io/gorm/../../etc"\n\t"gorm.io/gorm/..."\n)\n\nfunc main() { fmt.Println(db.ErrRecordNotFound, logger.Info, x.Y) }\n';

describe('go compiled layer', () => {
  it('compiles only the graph\'s packages the files import, in a copy of the fetch-written module, offline', async () => {
    const shared = await golangRuntime.sharedLayer!(ctx(), graph, [{ path: 'main.go', code: MAIN }, { path: 'go.mod', code: 'module example.com/shop\n' }], '/nonexistent');
    assert.ok(shared?.step);
    assert.match(shared.key, /^[0-9a-f]{32}$/);
    assert.equal(shared.step.kind, 'compile');
    assert.equal(shared.step.env.GOPROXY, 'off');
    assert.equal(shared.step.script, "cp -r /deps/gomod /tmp/graph && cd /tmp/graph && exec go build 'gorm.io/gorm' 'github.com/glebarez/sqlite' 'gorm.io/gorm/logger'");
  });

  it('the key is the exact graph and toolchain, in any order; no graph import means no compile step', async () => {
    const key = (await golangRuntime.sharedLayer!(ctx(), graph, [], '/nonexistent'))?.key;
    assert.equal((await golangRuntime.sharedLayer!(ctx(), [...graph].reverse(), [], '/nonexistent'))?.key, key);
    assert.notEqual((await golangRuntime.sharedLayer!(ctx(), [graph[0]!, { name: 'github.com/glebarez/sqlite', version: 'v1.10.0' }], [], '/nonexistent'))?.key, key);
    assert.notEqual((await golangRuntime.sharedLayer!(ctx('go1.27.0'), graph, [], '/nonexistent'))?.key, key);
    assert.equal((await golangRuntime.sharedLayer!(ctx(), graph, [{ path: 'main.go', code: 'package main\nimport "fmt"\nfunc main() { fmt.Println() }\n' }], '/nonexistent'))?.step, undefined);
    assert.equal(await golangRuntime.sharedLayer!(ctx(), [], [{ path: 'main.go', code: MAIN }], '/nonexistent'), undefined);
  });

  it('the key hashes the compile step that runs (its packages left out), so a changed step is a new key with no format to bump', async () => {
    const withImports = await golangRuntime.sharedLayer!(ctx(), graph, [{ path: 'main.go', code: MAIN }], '/nonexistent');
    const without = await golangRuntime.sharedLayer!(ctx(), graph, [], '/nonexistent');
    assert.equal(withImports?.key, without?.key, 'which of the graph\'s packages a call imports does not change the layer');
    assert.deepEqual(withImports?.step, compileStep(ctx(), ['gorm.io/gorm', 'github.com/glebarez/sqlite', 'gorm.io/gorm/logger']), 'the step that runs is the hashed recipe\'s');
    const recipe = compileStep(ctx(), []);
    const sortedGraph = graph.map((pin) => `${pin.name}@${pin.version}`).sort();
    assert.equal(without?.key, layerKey(sortedGraph, recipe, 'go1.26.8'));
    assert.notEqual(layerKey(sortedGraph, { ...recipe, env: { ...recipe.env, GOFLAGS: `${recipe.env.GOFLAGS ?? ''} -trimpath` } }, 'go1.26.8'), without?.key);
  });

  it('two calls on one graph that import other packages share the key but not the step: neither waits on the other\'s compile', async () => {
    const one = await golangRuntime.sharedLayer!(ctx(), graph, [{ path: 'main.go', code: MAIN }], '/nonexistent');
    const other = await golangRuntime.sharedLayer!(ctx(), graph, [{ path: 'main.go', code: 'package main\nimport "gorm.io/gorm"\nfunc main() { _ = gorm.ErrRecordNotFound }\n' }], '/nonexistent');
    const again = await golangRuntime.sharedLayer!(ctx(), graph, [{ path: 'x.go', code: MAIN }], '/nonexistent');
    assert.ok(one?.step && other?.step && again?.step);
    assert.equal(one.key, other.key);
    assert.notEqual(stepHash(one.step), stepHash(other.step), 'another package list is another step');
    assert.equal(stepHash(again.step), stepHash(one.step), 'the same imports are the same step');
  });
});
