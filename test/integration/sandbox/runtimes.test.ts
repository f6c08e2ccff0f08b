// All five runtimes through POST /tools/test with real package installs (npm, PyPI, Go proxy, crates.io,
// and a gem source the test builds and serves on loopback), sessions, restart durability and toon output.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decode } from '@toon-format/toon';
import { createApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { buildServer } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/log.ts';
import type { TestServer } from '../../helpers/server.ts';
import { file, postTest, SHARED_CACHE, startGemSource, startSandboxServer } from './helpers.ts';

describe('sandbox runtimes', () => {
  let server: TestServer;
  let gems: Awaited<ReturnType<typeof startGemSource>>;
  before(async () => {
    gems = await startGemSource();
    server = await startSandboxServer({ TOOLDEX_GEM_SOURCE: gems.url });
  });
  after(async () => {
    await server.close();
    await gems.close();
  });

  it('node: runs JavaScript and reports phases', async () => {
    const reply = await postTest(server, { language: 'javascript', runtime: 'node', files: [file('index.js', 'console.log("hi", 6 * 7)')] });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.status, 'ran', reply.text);
    assert.equal(reply.body.ok, true);
    assert.equal(reply.body.stdout, 'hi 42\n');
    assert.equal(reply.body.sessionExpiresAt, null);
    assert.equal(reply.body.sessionReused, false);
    assert.match(reply.body.sessionId, /^sbx_/);
    for (const phase of ['provisionMs', 'installMs', 'runMs']) assert.equal(typeof reply.body.phases[phase], 'number');
  });

  it('node: installs a pinned npm package, runs TypeScript, redacts secrets, and reuses the session', async () => {
    const first = await postTest(server, {
      language: 'typescript', runtime: 'node', packages: ['is-number@7.0.0'],
      files: [file('index.ts', 'import isNumber from "is-number";\nconst n: number = 5;\nconsole.log(isNumber(n), process.env.API_TOKEN, Buffer.from(process.env.API_TOKEN ?? "").toString("base64"), process.env.PLAIN);')],
      env: [{ name: 'API_TOKEN', secret: 'tok-very-secret' }, { name: 'PLAIN', value: 'visible' }],
    });
    assert.equal(first.body.status, 'ran', first.text);
    assert.equal(first.body.stdout, 'true [REDACTED] [REDACTED] visible\n');
    assert.ok(!first.text.includes('tok-very-secret'));
    assert.ok(first.body.phases.installMs > 0);

    const second = await postTest(server, {
      language: 'typescript', runtime: 'node', sessionId: first.body.sessionId, entry: 'other.ts',
      files: [file('other.ts', 'import isNumber from "is-number";\nimport fs from "node:fs";\nconsole.log(isNumber("x"), fs.existsSync("index.ts"));')],
    });
    assert.equal(second.body.status, 'ran', second.text);
    assert.equal(second.body.sessionReused, true);
    assert.equal(second.body.sessionId, first.body.sessionId);
    assert.equal(second.body.phases.installMs, 0, 'packages already installed');
    assert.equal(second.body.stdout, 'false true\n');

    const third = await postTest(server, { language: 'typescript', runtime: 'node', sessionId: first.body.sessionId, entry: 'index.ts', files: [] });
    assert.equal(third.body.status, 'ran', third.text);
    assert.equal(third.body.stdout, 'true undefined  undefined\n', 'env is per call');
  });

  it('node: a failing install is failed_install with the installer message, a throwing program failed_run', async () => {
    const install = await postTest(server, { language: 'javascript', runtime: 'node', packages: ['tooldex-no-such-package-4242'], files: [file('a.js', '1')] });
    assert.equal(install.body.status, 'failed_install', install.text);
    assert.equal(install.body.ok, false);
    assert.match(install.body.stderr, /tooldex-no-such-package-4242/);
    const run = await postTest(server, { language: 'javascript', runtime: 'node', files: [file('a.mjs', 'throw new Error("boom")')] });
    assert.equal(run.body.status, 'failed_run');
    assert.equal(run.body.exitCode, 1);
    assert.match(run.body.stderr, /Error: boom/);
  });

  it('python: pip installs into the session venv; a missing package is failed_install', async () => {
    const ok = await postTest(server, {
      language: 'python', runtime: 'python', packages: ['six==1.16.0'],
      files: [file('main.py', 'import six, sys\nprint(six.__version__, sys.prefix)')],
    });
    assert.equal(ok.body.status, 'ran', ok.text);
    assert.equal(ok.body.stdout, '1.16.0 /deps/venv\n');
    const missing = await postTest(server, { language: 'python', runtime: 'python', packages: ['tooldex-no-such-dist-4242==1.0'], files: [file('m.py', 'print(1)')] });
    assert.equal(missing.body.status, 'failed_install');
    assert.match(missing.body.stderr, /No matching distribution found for tooldex-no-such-dist-4242/);
    const crash = await postTest(server, { language: 'python', runtime: 'python', files: [file('m.py', 'raise SystemExit(3)')] });
    assert.equal(crash.body.status, 'failed_run');
    assert.equal(crash.body.exitCode, 3);
  });

  it('golang: go get inside a module, build and run', async () => {
    const reply = await postTest(server, {
      language: 'go', runtime: 'golang', packages: ['github.com/google/uuid@v1.6.0'], timeoutMs: 60_000,
      files: [file('main.go', 'package main\n\nimport (\n\t"fmt"\n\t"github.com/google/uuid"\n)\n\nfunc main() { fmt.Println("uuid", len(uuid.NewString())) }\n')],
    });
    assert.equal(reply.body.status, 'ran', reply.text);
    assert.equal(reply.body.stdout, 'uuid 36\n');
    const broken = await postTest(server, { language: 'go', runtime: 'golang', sessionId: reply.body.sessionId, files: [file('main.go', 'package main\nfunc main() { undefinedThing() }\n')] });
    assert.equal(broken.body.status, 'failed_run');
    assert.match(broken.body.stderr, /undefined: undefinedThing/);
  });

  it('rust: cargo add into the session project, build and run', async () => {
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', packages: ['itoa@1'], timeoutMs: 60_000,
      files: [file('src/main.rs', 'fn main() {\n    let mut buffer = itoa::Buffer::new();\n    println!("itoa {}", buffer.format(1234u64));\n}\n')],
    });
    assert.equal(reply.body.status, 'ran', reply.text);
    assert.equal(reply.body.stdout, 'itoa 1234\n');
  });

  it('ruby: gem install from the loopback gem source into the session gem home', async () => {
    const reply = await postTest(server, {
      language: 'ruby', runtime: 'ruby', packages: ['tooldex_hello@0.2.0'],
      files: [file('main.rb', 'require "tooldex_hello"\nputs ToolDexHello.greet("agent")\nputs Gem.loaded_specs["tooldex_hello"].version')],
    });
    assert.equal(reply.body.status, 'ran', reply.text);
    assert.equal(reply.body.stdout, 'hello agent from a gem\n0.2.0\n');
    const missing = await postTest(server, { language: 'ruby', runtime: 'ruby', packages: ['tooldex_absent'], files: [file('m.rb', 'puts 1')] });
    assert.equal(missing.body.status, 'failed_install');
    assert.match(missing.body.stderr, /tooldex_absent/);
  });

  it('encodes the result as toon on request', async () => {
    const reply = await postTest(server, { language: 'python', runtime: 'python', files: [file('t.py', 'print("toon")')] }, { query: '?format=toon' });
    assert.match(String(reply.headers['content-type']), /text\/toon/);
    const decoded = decode(reply.text) as { status: string; stdout: string };
    assert.equal(decoded.status, 'ran');
    assert.equal(decoded.stdout, 'toon\n');
  });
});

describe('sandbox sessions survive a server restart', () => {
  it('reuses files and packages after the app is closed and reopened on the same home', async () => {
    const first = await startSandboxServer();
    const home = first.home;
    const created = await postTest(first, {
      language: 'javascript', runtime: 'node', packages: ['is-number@7.0.0'],
      files: [file('keep.js', 'console.log(require("is-number")(1))')],
    });
    assert.equal(created.body.status, 'ran', created.text);
    await first.server.close();
    await first.app.close();

    const config = loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'silent', TOOLDEX_SANDBOX_CACHE_DIR: SHARED_CACHE }, {});
    const app = await createApp(config, createLogger('silent'));
    const server = await buildServer(app);
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const again = { url, app, server, home, close: async () => undefined };
    try {
      const reused = await postTest(again, { language: 'javascript', runtime: 'node', sessionId: created.body.sessionId, entry: 'keep.js', files: [] });
      assert.equal(reused.body.status, 'ran', reused.text);
      assert.equal(reused.body.sessionReused, true);
      assert.equal(reused.body.phases.installMs, 0);
      assert.equal(reused.body.stdout, 'true\n');
      assert.ok(fs.existsSync(path.join(home, 'sandbox', 'sessions', `${created.body.sessionId}.img`)), 'the session volume is in the home');
    } finally {
      await server.close();
      await app.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
