// Real builds (issue 24 §5), through POST /tools/test with real sandboxes and the real registries (crates.io, the Go
// module proxy, npm), each request written as the MCP test_tool description says: crate features in `packages`, and a
// Cargo.toml, go.mod or package.json sent in `files`, whose dependencies the fetch step fetches before an offline build.
// The builds run under the build limits (TOOLDEX_SANDBOX_BUILD_MEMORY_MB / _TIMEOUT_MS), the programs under the run limits.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { exposureBase } from '../../../src/sandbox/exposure.ts';
import type { TestServer } from '../../helpers/server.ts';
import { file, postTest, SHARED_CACHE, startSandboxServer } from './helpers.ts';

/** Files under `dir`, recursively (0 when it does not exist). */
function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).length;
}

/** What a session's builds wrote to its cache overlay (its own upper), found by the session id under any instance. */
function sessionUpper(sessionId: string): string {
  for (const instance of fs.readdirSync(exposureBase())) {
    const upper = path.join(exposureBase(), instance, 'sessions', sessionId, 'overlay', 'upper');
    if (fs.existsSync(upper)) return upper;
  }
  throw new Error(`no volume for ${sessionId}`);
}
/** The Go build cache a session's builds wrote. */
const sessionBuildCache = (sessionId: string) => path.join(sessionUpper(sessionId), 'build');

/** Compiled Rust libraries (.rlib) under `dir`. */
function rlibNames(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.rlib')).map((name) => path.basename(name));
}

function countRlibs(dir: string): number {
  return rlibNames(dir).length;
}

// Whether hex's error type implements std::error::Error, decided at compile time (autoref specialization): it does only
// with hex's default feature `std`, so the program prints which features its build really had.
const HEX_PROBE = 'use std::marker::PhantomData;\n\nstruct Probe<T>(PhantomData<T>);\n' +
  'trait IsError { fn std_error(&self) -> bool { true } }\nimpl<T: std::error::Error> IsError for &Probe<T> {}\n' +
  'trait NotError { fn std_error(&self) -> bool { false } }\nimpl<T> NotError for Probe<T> {}\n\n' +
  'fn main() {\n    let mut buf = [0u8; 4];\n    hex::encode_to_slice([0xde, 0xad], &mut buf).unwrap();\n' +
  '    println!("{} std: {}", std::str::from_utf8(&buf).unwrap(), (&&Probe::<hex::FromHexError>(PhantomData)).std_error());\n}\n';

const TOKIO = 'use std::time::Duration;\n\n#[tokio::main]\nasync fn main() {\n' +
  '    let slow = tokio::time::sleep(Duration::from_secs(5));\n' +
  '    match tokio::time::timeout(Duration::from_millis(50), slow).await {\n' +
  '        Ok(()) => println!("finished"),\n        Err(_) => println!("timed out after 50 ms"),\n    }\n}\n';

const CLAP_TOML = '[package]\nname = "greet"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nclap = { version = "4", features = ["derive"] }\n';
const CLAP = 'use clap::Parser;\n\n/// Greets someone.\n#[derive(Parser)]\n#[command(name = "greet")]\nstruct Args {\n' +
  '    /// Who to greet\n    #[arg(long)]\n    name: String,\n    /// How many times\n    #[arg(short, long, default_value_t = 1)]\n    count: u8,\n}\n\n' +
  'fn main() {\n    let args = Args::parse_from(["greet", "--name", "sandbox", "-c", "2"]);\n' +
  '    for _ in 0..args.count {\n        println!("hello {}", args.name);\n    }\n' +
  '    let help = <Args as clap::CommandFactory>::command().render_help().to_string();\n' +
  '    println!("help mentions --count: {}", help.contains("--count"));\n}\n';

const GORM_MOD = 'module example.com/shop\n\ngo 1.22\n\nrequire (\n\tgithub.com/glebarez/sqlite v1.11.0\n\tgorm.io/gorm v1.31.2\n)\n';
const GORM = `package main

import (
	"fmt"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
)

type Product struct {
	ID    uint
	Code  string
	Price uint
}

func main() {
	db, err := gorm.Open(sqlite.Open("file::memory:"), &gorm.Config{})
	if err != nil {
		panic(err)
	}
	if err := db.AutoMigrate(&Product{}); err != nil {
		panic(err)
	}
	db.Create(&Product{Code: "D42", Price: 100})
	db.Create(&Product{Code: "F7", Price: 250})
	var cheap Product
	db.First(&cheap, "price < ?", 200)
	var count int64
	db.Model(&Product{}).Count(&count)
	fmt.Printf("products: %d, cheapest: %s at %d\\n", count, cheap.Code, cheap.Price)
}
`;

describe('real builds from plain requests', () => {
  let server: TestServer;
  before(async () => {
    server = await startSandboxServer();
  });
  after(async () => {
    await server.close();
  });

  it('tokio with features in packages: a program using tokio::time::timeout runs', { timeout: 400_000 }, async () => {
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', packages: ['tokio@1[macros,rt-multi-thread,time]'], files: [file('src/main.rs', TOKIO)],
    });
    assert.equal(reply.body.status, 'ran', reply.text.slice(0, 3000));
    assert.equal(reply.body.stdout, 'timed out after 50 ms\n');

    // A new session with the same crates builds on the compiled layer the first call's compile step made (the fetch
    // step's project, dependencies only): tokio and its dependencies are not compiled again in the new session.
    const second = await postTest(server, {
      language: 'rust', runtime: 'rust', packages: ['tokio@1[macros,rt-multi-thread,time]'], files: [file('src/main.rs', TOKIO)],
    });
    assert.equal(second.body.status, 'ran', second.text.slice(0, 3000));
    assert.equal(second.body.stdout, 'timed out after 50 ms\n');
    const layers = path.join(SHARED_CACHE, 'layers', 'rust');
    const layerRlibs = fs.readdirSync(layers).filter((name) => /^[0-9a-f]{32}$/.test(name)).map((name) => countRlibs(path.join(layers, name, 'upper', 'target')));
    assert.ok(layerRlibs.some((count) => count >= 5), `a layer holds tokio and its dependencies compiled: ${layerRlibs.join(', ')}`);
    assert.equal(countRlibs(sessionUpper(second.body.sessionId)), 0, 'the new session compiled no dependency itself');
    assert.ok(!fs.readdirSync(layers).some((name) => fs.existsSync(path.join(layers, name, 'upper', 'target', 'debug', 'sandbox'))), 'the layer keeps no program');

    // A pin added to that session changes its graph: it keeps building on the layer it had (only the new crate is
    // compiled, in its own overlay) rather than compiling every crate again into a new layer.
    const layersBefore = new Set(fs.readdirSync(layers));
    const added = await postTest(server, {
      language: 'rust', runtime: 'rust', sessionId: second.body.sessionId, packages: ['itoa@1'],
      files: [file('src/main.rs', TOKIO.replace('println!("timed out after 50 ms")', 'println!("timed out after {} ms", itoa::Buffer::new().format(50u8))'))],
    });
    assert.equal(added.body.status, 'ran', added.text.slice(0, 3000));
    assert.equal(added.body.stdout, 'timed out after 50 ms\n');
    assert.equal(countRlibs(sessionUpper(second.body.sessionId)), 1, 'only itoa was compiled in the session');
    // Other test files share this cache and may compile layers of their own (itoa alone) meanwhile, so the check is
    // that no new layer holds the changed graph (tokio and itoa together), not that the count of layers is unchanged.
    const newLayers = fs.readdirSync(layers).filter((name) => !layersBefore.has(name) && /^[0-9a-f]{32}$/.test(name));
    const compiled = (layer: string, crate: string) => rlibNames(path.join(layers, layer, 'upper', 'target')).some((name) => name.startsWith(`lib${crate}-`));
    assert.ok(!newLayers.some((layer) => compiled(layer, 'tokio') && compiled(layer, 'itoa')), `no new layer was compiled for the changed graph: ${newLayers.join(', ')}`);
  });

  it('default-features = false and optional = true in a Cargo.toml, and `-default` in packages, reach the build (hex without std)', { timeout: 400_000 }, async () => {
    // The entry's other keys stay too: hex is optional, enabled by the package's default feature (`dep:hex` needs
    // `optional = true`; an entry made anew without it fails to build).
    const manifest = '[package]\nname = "probe"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\ndefault = ["hexing"]\nhexing = ["dep:hex"]\n\n' +
      '[dependencies]\nhex = { version = "0.4", default-features = false, optional = true }\n';
    const fromManifest = await postTest(server, {
      language: 'rust', runtime: 'rust', files: [file('src/main.rs', HEX_PROBE), file('Cargo.toml', manifest)], entry: 'src/main.rs',
    });
    assert.equal(fromManifest.body.status, 'ran', fromManifest.text.slice(0, 3000));
    assert.equal(fromManifest.body.stdout, 'dead std: false\n');
    // The manifest as the build left it: the exact version written in, the entry's own keys and the feature kept.
    const manifestAfter = await postTest(server, {
      language: 'rust', runtime: 'rust', sessionId: fromManifest.body.sessionId, entry: 'src/main.rs',
      files: [file('src/main.rs', 'fn main() {\n    for line in std::fs::read_to_string("Cargo.toml").unwrap().lines().filter(|l| l.starts_with("hex")) {\n        println!("{line}");\n    }\n}\n')],
    });
    assert.equal(manifestAfter.body.status, 'ran', manifestAfter.text.slice(0, 3000));
    assert.match(manifestAfter.body.stdout, /^hexing = \["dep:hex"\]\nhex = \{ version = "=0\.4\.\d+", default-features = false, optional = true \}\n$/);
    const fromPackages = await postTest(server, { language: 'rust', runtime: 'rust', packages: ['hex@0.4[-default]'], files: [file('src/main.rs', HEX_PROBE)] });
    assert.equal(fromPackages.body.status, 'ran', fromPackages.text.slice(0, 3000));
    assert.equal(fromPackages.body.stdout, 'dead std: false\n');
    // The same session asking for the defaults again gets them: the pin changed, so the entry is written anew.
    const withDefaults = await postTest(server, { language: 'rust', runtime: 'rust', sessionId: fromPackages.body.sessionId, packages: ['hex@0.4'], files: [file('src/main.rs', HEX_PROBE)] });
    assert.equal(withDefaults.body.status, 'ran', withDefaults.text.slice(0, 3000));
    assert.equal(withDefaults.body.stdout, 'dead std: true\n');
  });

  it('clap derive from a Cargo.toml in files: its dependencies fetched, the build offline', { timeout: 400_000 }, async () => {
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', files: [file('src/main.rs', CLAP), file('Cargo.toml', CLAP_TOML)], entry: 'src/main.rs',
    });
    assert.equal(reply.body.status, 'ran', reply.text.slice(0, 3000));
    assert.equal(reply.body.stdout, 'hello sandbox\nhello sandbox\nhelp mentions --count: true\n');
  });

  it('gorm with a pure-Go SQLite driver from a go.mod in files: compiles under the build limits, creates, inserts, queries', { timeout: 600_000 }, async () => {
    const reply = await postTest(server, {
      language: 'go', runtime: 'golang', files: [file('main.go', GORM), file('go.mod', GORM_MOD)], entry: 'main.go',
    });
    assert.equal(reply.body.status, 'ran', reply.text.slice(0, 3000));
    assert.equal(reply.body.stdout, 'products: 2, cheapest: D42 at 100\n');

    // A new session with the same module graph builds on the compiled layer the first made (package code only): its own
    // cache gets the program's compile and link, not the hundreds of packages of gorm, the driver and modernc's libc.
    const second = await postTest(server, {
      language: 'go', runtime: 'golang', files: [file('main.go', GORM), file('go.mod', GORM_MOD)], entry: 'main.go',
    });
    assert.equal(second.body.status, 'ran', second.text.slice(0, 3000));
    assert.equal(second.body.stdout, 'products: 2, cheapest: D42 at 100\n');
    const layers = path.join(SHARED_CACHE, 'layers', 'golang');
    const layerFiles = fs.readdirSync(layers).filter((name) => /^[0-9a-f]{32}$/.test(name)).map((name) => countFiles(path.join(layers, name, 'upper', 'build')));
    assert.ok(layerFiles.some((count) => count > 200), `a layer holds the graph's compiled packages: ${layerFiles.join(', ')}`);
    for (const session of [reply.body.sessionId, second.body.sessionId]) {
      const own = countFiles(sessionBuildCache(session));
      assert.ok(own < 60, `session ${session} compiled only its own package: ${own} cache files`);
    }
  });

  it('package.json in files: its registry dependencies installed, the ES module imports them', { timeout: 120_000 }, async () => {
    const reply = await postTest(server, {
      language: 'javascript', runtime: 'node', entry: 'main.js',
      files: [file('main.js', 'import isNumber from "is-number";\nconsole.log(isNumber(5), isNumber("x"));\n'),
        file('package.json', JSON.stringify({ name: 'app', type: 'module', dependencies: { 'is-number': '^7.0.0' } }))],
    });
    assert.equal(reply.body.status, 'ran', reply.text.slice(0, 3000));
    assert.equal(reply.body.stdout, 'true false\n');
  });

  it('a manifest with a git, path or URL dependency is refused (422 invalid_manifest), nothing runs', async () => {
    const cases = [
      { runtime: 'rust', language: 'rust', files: [file('src/main.rs', 'fn main() {}'), file('Cargo.toml', '[package]\nname = "x"\nversion = "0.1.0"\n\n[dependencies]\nevil = { git = "https://example.com/evil" }\n')], field: 'files.1.code' },
      { runtime: 'golang', language: 'go', files: [file('main.go', 'package main\nfunc main() {}\n'), file('go.mod', 'module x\n\nrequire gorm.io/gorm v1.31.2\n\nreplace gorm.io/gorm => ./gorm\n')], field: 'files.1.code' },
      { runtime: 'node', language: 'javascript', files: [file('package.json', '{"dependencies":{"x":"https://example.com/x.tgz"}}'), file('main.js', '1')], field: 'files.0.code' },
      { runtime: 'node', language: 'javascript', files: [file('package.json', '{"dependencies": '), file('main.js', '1')], field: 'files.0.code' },
    ];
    for (const { field, ...body } of cases) {
      const reply = await postTest(server, { ...body, entry: body.files.find((f) => !/Cargo|go\.mod|package\.json/.test(f.path))?.path });
      assert.equal(reply.status, 422, reply.text);
      assert.equal(reply.body.error.code, 'invalid_manifest', reply.text);
      assert.equal(reply.body.error.field, field);
      assert.match(reply.body.error.message, /^(Cargo\.toml|go\.mod|package\.json): /);
    }
  });
});
