// The trust boundary of the shared caches, per runtime, through POST /tools/test: session A plants every trap a run can
// plant (git fsmonitor hook, go.work, cargo rustc-wrapper, .npmrc, bunfig.toml, pip.conf, a shadowing pip module,
// .gemrc, .bundle/config) and installs packages whose build code tries to write the caches; then the next fetch step of
// A runs, session B installs the same packages, and the host's shared cache folders hold no trace of any trap.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { TestServer } from '../../helpers/server.ts';
import { file, findNamed, postTest, SHARED_CACHE, startFakePypi, startGemSource, startSandboxServer, type Reply } from './helpers.ts';

const TRAP = 'TRAP-';

/** Files under `dir` whose bytes contain `text` (a layer another test is still writing or evicting is skipped). */
function filesContaining(dir: string, text: string): string[] {
  const needle = Buffer.from(text);
  const found: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return found;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    try {
      if (fs.statSync(full).isFile() && fs.readFileSync(full).includes(needle)) found.push(full);
    } catch { /* removed while we read: not a layer that stays */ }
  }
  return found;
}

describe('shared caches: a session can plant traps, no trusted step runs them', () => {
  let server: TestServer;
  let gems: Awaited<ReturnType<typeof startGemSource>>;
  let pypi: Awaited<ReturnType<typeof startFakePypi>>;
  before(async () => {
    gems = await startGemSource();
    pypi = await startFakePypi({
      // A source-only package: installing it runs its setup.py, which tries to write the shared cache and /deps.
      'tooldex-trap-sdist': {
        'setup.py': `import json, os
report = {}
for target in ["/cache/${TRAP}pip-build", "/deps/${TRAP}pip-build"]:
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "w").write("poison")
        report[target] = "written"
    except OSError as error:
        report[target] = error.strerror
open("/workspace/setup-report.json", "w").write(json.dumps(report))
from setuptools import setup
setup(name="tooldex-trap-sdist", version="1.0", py_modules=["tooldex_trap"])
`,
        'tooldex_trap.py': 'VALUE = "built from source"\n',
        'pyproject.toml': '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n',
        'PKG-INFO': 'Metadata-Version: 2.1\nName: tooldex-trap-sdist\nVersion: 1.0\n',
      },
    });
    server = await startSandboxServer({ TOOLDEX_GEM_SOURCE: gems.url, TOOLDEX_PYPI_URL: pypi.url });
  });
  after(async () => {
    await server.close();
    await gems.close();
    await pypi.close();
  });
  const call = (runtime: string, language: string, body: Record<string, unknown>) =>
    postTest(server, { runtime, language, timeoutMs: 60_000, ...body });
  const ran = (reply: Reply, what: string) => {
    assert.equal(reply.status, 200, `${what}: ${reply.text}`);
    assert.equal(reply.body.status, 'ran', `${what}: ${reply.text.slice(0, 3000)}`);
  };
  const noTrapInSharedCache = () => assert.deepEqual(findNamed(SHARED_CACHE, TRAP), [], 'a trap left a file in a shared cache');

  it('node: .npmrc and bunfig.toml in the workspace do not steer the install; /deps and the cache are out of a run\'s reach', async () => {
    const plant = await call('node', 'javascript', { files: [file('plant.js', `
      const fs = require('fs');
      fs.writeFileSync('.npmrc', 'registry=http://127.0.0.1:9/\\n');
      fs.writeFileSync('bunfig.toml', '[install]\\nregistry = "http://127.0.0.1:9/"\\n[install.cache]\\ndir = "/workspace/${TRAP}stolen-cache"\\n');
      const attempt = (p) => { try { fs.mkdirSync(require('path').dirname(p), { recursive: true }); fs.writeFileSync(p, 'poison'); return 'written'; } catch (e) { return e.code; } };
      console.log(JSON.stringify({ deps: attempt('/deps/bunfig.toml'), npmrc: attempt('/deps/.npmrc'), cache: attempt('/cache/${TRAP}node') }));`)] });
    ran(plant, 'plant');
    const report = JSON.parse(plant.body.stdout);
    for (const target of ['deps', 'npmrc', 'cache']) assert.notEqual(report[target], 'written', target);
    const use = (sessionId?: string) => call('node', 'javascript', {
      sessionId, packages: ['is-number@7.0.0'],
      files: [file('use.js', 'console.log(require("is-number")(5), require("fs").existsSync("${TRAP}stolen-cache"))'.replace('${TRAP}', TRAP))],
    });
    const again = await use(plant.body.sessionId);
    ran(again, 'install after planting');
    assert.equal(again.body.stdout, 'true false\n', 'the workspace\'s registry and cache settings were not read');
    ran(await use(), 'another session');
    noTrapInSharedCache();
  });

  it('python: pip.conf, a shadowing pip module and sitecustomize are ignored; a source package\'s build code cannot write the cache', async () => {
    const plant = await call('python', 'python', { files: [file('plant.py', `import os, json
open("pip.conf", "w").write("[global]\\nindex-url = http://127.0.0.1:9/simple\\n")
os.makedirs("pip", exist_ok=True)
open("pip/__init__.py", "w").write("open('/cache/${TRAP}pip-shadow', 'w').write('poison')\\n")
open("sitecustomize.py", "w").write("open('/cache/${TRAP}sitecustomize', 'w').write('poison')\\n")
report = {}
for target in ["/deps/pip.conf", "/cache/${TRAP}python"]:
    try:
        open(target, "w").write("poison"); report[target] = "written"
    except OSError as error:
        report[target] = error.strerror
print(json.dumps(report))`)] });
    ran(plant, 'plant');
    for (const [target, outcome] of Object.entries(JSON.parse(plant.body.stdout))) assert.notEqual(outcome, 'written', target);
    const wheel = await call('python', 'python', { sessionId: plant.body.sessionId, packages: ['six==1.16.0'], files: [file('use.py', 'import six; print(six.__version__)')] });
    ran(wheel, 'wheel install after planting');
    assert.equal(wheel.body.stdout, '1.16.0\n');
    const source = await call('python', 'python', {
      sessionId: plant.body.sessionId, packages: ['tooldex-trap-sdist'],
      files: [file('built.py', 'import tooldex_trap, six, json; print(tooldex_trap.VALUE, six.__version__); print(open("setup-report.json").read())')],
    });
    ran(source, 'source install');
    const [value, setupReport] = source.body.stdout.trim().split('\n');
    assert.equal(value, 'built from source 1.16.0', 'the source package and the earlier pin are both installed');
    for (const [target, outcome] of Object.entries(JSON.parse(setupReport))) assert.notEqual(outcome, 'written', `setup.py wrote ${target}`);
    ran(await call('python', 'python', { packages: ['six==1.16.0'], files: [file('b.py', 'import six; print(six.__version__)')] }), 'another session');
    noTrapInSharedCache();
  });

  it('golang: a .git fsmonitor hook and a go.work never run or steer go get / go build', async () => {
    const plant = await call('golang', 'go', { files: [file('main.go', `package main

import (
	"fmt"
	"os"
	"os/exec"
)

func main() {
	hook := "#!/bin/sh\\necho ran > /workspace/${TRAP}git-ran\\necho poison > /cache/${TRAP}git 2>/dev/null\\nexit 1\\n"
	os.WriteFile("hook.sh", []byte(hook), 0o755)
	exec.Command("git", "init", "-q").Run()
	exec.Command("git", "config", "core.fsmonitor", "/workspace/hook.sh").Run()
	exec.Command("git", "status").Run() // the hook is armed: a git command runs it
	_, armed := os.Stat("${TRAP}git-ran")
	os.Remove("${TRAP}git-ran")
	os.MkdirAll("evil", 0o755)
	os.WriteFile("evil/go.mod", []byte("module github.com/google/uuid\\n\\ngo 1.21\\n"), 0o644)
	os.WriteFile("evil/uuid.go", []byte("package uuid\\n\\nfunc NewString() string { return \\"pwned\\" }\\n"), 0o644)
	os.WriteFile("go.work", []byte("go 1.21\\n\\nuse (\\n\\t.\\n\\t./evil\\n)\\n"), 0o644)
	fmt.Println(armed == nil)
}
`)] });
    ran(plant, 'plant');
    assert.equal(plant.body.stdout, 'true\n', 'the fsmonitor hook is armed (git runs it)');
    const use = (sessionId?: string) => call('golang', 'go', {
      sessionId, packages: ['github.com/google/uuid@v1.6.0'], files: [file('main.go', `package main

import (
	"fmt"
	"os"

	"github.com/google/uuid"
)

func main() {
	_, err := os.Stat("${TRAP}git-ran")
	fmt.Println(len(uuid.NewString()), os.IsNotExist(err))
}
`)],
    });
    const again = await use(plant.body.sessionId);
    ran(again, 'go get and build after planting');
    assert.equal(again.body.stdout, '36 true\n', 'the real module was built and git never ran');
    ran(await use(), 'another session');
    noTrapInSharedCache();
  });

  it('golang: a session that replaces a module with its own code never puts it in the compiled layer other sessions read', async () => {
    const layers = path.join(SHARED_CACHE, 'layers', 'golang');
    const listLayers = () => (fs.existsSync(layers) ? fs.readdirSync(layers).filter((name) => /^[0-9a-f]{32}$/.test(name)) : []);
    const before = listLayers();
    // The session's own go.mod (written by its program, so no manifest check sees it) points uuid at its own folder.
    const plant = await call('golang', 'go', { files: [file('main.go', `package main

import (
	"fmt"
	"os"
)

func main() {
	os.MkdirAll("evil", 0o755)
	os.WriteFile("evil/go.mod", []byte("module github.com/google/uuid\\n\\ngo 1.21\\n"), 0o644)
	os.WriteFile("evil/uuid.go", []byte("package uuid\\n\\nfunc NewString() string { return \\"${TRAP}layer\\" }\\n"), 0o644)
	os.WriteFile("go.mod", []byte("module sandbox\\n\\ngo 1.21\\n\\nreplace github.com/google/uuid => ./evil\\n"), 0o644)
	fmt.Println("planted")
}
`)] });
    ran(plant, 'plant');
    const program = file('main.go', 'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/google/uuid"\n)\n\nfunc main() { fmt.Println(uuid.NewString()) }\n');
    const own = await call('golang', 'go', { sessionId: plant.body.sessionId, packages: ['github.com/google/uuid@v1.5.0'], files: [program] });
    ran(own, 'the planting session builds its own replacement');
    assert.equal(own.body.stdout, `${TRAP}layer\n`, 'its own code, in its own session');
    // Other test files build Go layers in the same shared cache at the same time (the runner's --test-concurrency), so
    // how many layers appeared says nothing; what matters is that none of them holds the planted module, by a file's
    // name or in its compiled bytes.
    const made = listLayers().filter((name) => !before.includes(name));
    for (const name of made) {
      assert.deepEqual(findNamed(path.join(layers, name), TRAP), []);
      assert.deepEqual(filesContaining(path.join(layers, name), `${TRAP}layer`), [], `layer ${name} holds the planted code`);
    }
    const other = await call('golang', 'go', { packages: ['github.com/google/uuid@v1.5.0'], files: [program] });
    ran(other, 'another session with the same module graph');
    assert.match(other.body.stdout, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/, 'the real module, not the planted one');
    noTrapInSharedCache();
  });

  it('rust: a rustc-wrapper in .cargo/config.toml and a build script run only as the session\'s own code; what they write to /cache stays in the session', async () => {
    const wrapper = `#!/bin/sh\necho "CARGO_HOME=$CARGO_HOME" >> /workspace/wrapper-report.txt\n` +
      `(mkdir -p /cache && echo poison > /cache/${TRAP}rust-wrapper) 2>/dev/null && echo "cache written" >> /workspace/wrapper-report.txt\nexec "$@"\n`;
    const plant = await call('rust', 'rust', { files: [
      file('build.rs', `fn main() {
    let outcome = match std::fs::create_dir_all("/cache").and_then(|_| std::fs::write("/cache/${TRAP}build-rs", "poison")) {
        Ok(_) => "written".to_string(),
        Err(error) => error.to_string(),
    };
    std::fs::write("/workspace/build-report.txt", outcome).unwrap();
}
`),
      file('src/main.rs', `fn main() {
    std::fs::create_dir_all(".cargo").unwrap();
    std::fs::write(".cargo/config.toml", "[build]\\nrustc-wrapper = \\"/workspace/wrapper.sh\\"\\n").unwrap();
    std::fs::write("wrapper.sh", ${JSON.stringify(wrapper)}).unwrap();
    std::process::Command::new("chmod").args(["755", "wrapper.sh"]).status().unwrap();
    println!("{}", std::fs::read_to_string("build-report.txt").unwrap());
}
`)] });
    ran(plant, 'plant');
    // The build's /cache is the session's own overlay (its target folder above the compiled layer, if any): a write there
    // lands in the session's volume, never in the shared cache or a layer (checked at the end).
    assert.match(plant.body.stdout, /^(written|.*(denied|Read-only|No such file).*)/, plant.body.stdout);
    const again = await call('rust', 'rust', {
      sessionId: plant.body.sessionId, packages: ['itoa@1'],
      files: [file('src/main.rs', 'fn main() { println!("{} {}", itoa::Buffer::new().format(42u8), std::fs::read_to_string("wrapper-report.txt").unwrap_or_default().trim().replace(\'\\n\', "|")); }\n')],
    });
    ran(again, 'cargo add and build after planting');
    const [value, report = ''] = again.body.stdout.trim().split(' ');
    assert.equal(value, '42');
    assert.match(report, /CARGO_HOME=\/build\/cargo/, 'the wrapper ran as the session\'s own build');
    for (const line of report.split('|').filter((entry: string) => entry.startsWith('CARGO_HOME='))) {
      assert.equal(line, 'CARGO_HOME=/build/cargo', 'the wrapper never ran in a fetch step (/cache/home) or a compile step (/tmp/cargo)');
    }
    const other = await call('rust', 'rust', { packages: ['itoa@1'], files: [file('src/main.rs', 'fn main() { println!("{} {}", itoa::Buffer::new().format(7u8), std::path::Path::new("/cache").exists()); }\n')] });
    ran(other, 'another session');
    assert.equal(other.body.stdout, '7 false\n', 'another session\'s program sees no /cache');
    noTrapInSharedCache();
  });

  it('ruby: .gemrc, .bundle/config and a Gemfile in the workspace do not steer gem install', async () => {
    const plant = await call('ruby', 'ruby', { files: [file('plant.rb', `require "fileutils"
File.write(".gemrc", ":sources:\\n- http://127.0.0.1:9/\\n")
FileUtils.mkdir_p(".bundle")
File.write(".bundle/config", "---\\nBUNDLE_MIRROR__ALL: \\"http://127.0.0.1:9/\\"\\n")
File.write("Gemfile", "source 'http://127.0.0.1:9/'\\n")
puts (begin; File.write("/deps/${TRAP}ruby", "poison"); "written"; rescue SystemCallError => e; e.class.name; end)`)] });
    ran(plant, 'plant');
    assert.notEqual(plant.body.stdout.trim(), 'written');
    const again = await call('ruby', 'ruby', { sessionId: plant.body.sessionId, packages: ['tooldex_hello@0.2.0'], files: [file('use.rb', 'require "tooldex_hello"\nputs ToolDexHello.greet("trap")')] });
    ran(again, 'gem install after planting');
    assert.equal(again.body.stdout, 'hello trap from a gem\n');
    noTrapInSharedCache();
  });
});
