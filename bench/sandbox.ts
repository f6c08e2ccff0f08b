// `npm run bench:sandbox`: POST /tools/test end to end on a real server, per runtime hello world vs the same
// program bare on the host (the physical limit), a second install in a new session, a warm session, 10 concurrent runs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Runtime } from '../src/sandbox/schema.ts';
import { startServer } from '../test/helpers/server.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const server = await startServer({
  config: { TOOLDEX_TEST_RPM: 100_000, TOOLDEX_SANDBOX_CACHE_DIR: path.join(os.tmpdir(), 'tooldex-bench-sandbox-cache'), TOOLDEX_SANDBOX_QUEUE: 64 },
});

interface Reply { status: string; stdout: string; stderr: string; sessionId: string; phases: { provisionMs: number; installMs: number; runMs: number } }
async function post(body: Record<string, unknown>): Promise<{ reply: Reply; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/tools/test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reply = await response.json() as Reply;
  const ms = performance.now() - started;
  if (reply.status !== 'ran') throw new Error(`bench run did not run: ${JSON.stringify(reply).slice(0, 800)}`);
  return { reply, ms };
}
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
const fmt = (ms: number) => `${Math.round(ms)} ms`;

const HELLO: Record<Runtime, { file: string; code: string; bare: (dir: string) => void }> = {
  node: { file: 'hello.js', code: 'console.log("hello")', bare: (dir) => execFileSync(process.execPath, [path.join(dir, 'hello.js')]) },
  python: { file: 'hello.py', code: 'print("hello")', bare: (dir) => execFileSync('python3', [path.join(dir, 'hello.py')]) },
  ruby: { file: 'hello.rb', code: 'puts "hello"', bare: (dir) => execFileSync('ruby', [path.join(dir, 'hello.rb')]) },
  golang: {
    file: 'main.go', code: 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n',
    bare: (dir) => {
      if (!fs.existsSync(path.join(dir, 'go.mod'))) execFileSync('go', ['mod', 'init', 'bench'], { cwd: dir, stdio: 'ignore' });
      execFileSync('go', ['build', '-o', 'main', '.'], { cwd: dir });
      execFileSync(path.join(dir, 'main'));
    },
  },
  rust: {
    file: 'src/main.rs', code: 'fn main() { println!("hello"); }\n',
    bare: (dir) => {
      if (!fs.existsSync(path.join(dir, 'Cargo.toml'))) execFileSync('cargo', ['init', '--quiet', '--vcs', 'none', '--name', 'bench'], { cwd: dir });
      fs.rmSync(path.join(dir, 'target'), { recursive: true, force: true }); // a new session builds from scratch too
      execFileSync('cargo', ['run', '--quiet'], { cwd: dir });
    },
  },
};

try {
  console.log(`sandbox bench: ${ROUNDS} rounds per figure, 2-core Linux, Node ${process.version}, each hello world in a NEW session`);
  for (const [runtime, hello] of Object.entries(HELLO) as Array<[Runtime, (typeof HELLO)[Runtime]]>) {
    const body = { language: runtime, runtime, files: [{ path: hello.file, code: hello.code }] };
    await post(body); // first use compiles shared caches (Go standard library) and detects the host
    const e2e: number[] = [];
    const provision: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const { reply, ms } = await post(body);
      e2e.push(ms);
      provision.push(reply.phases.provisionMs);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-bench-bare-'));
    fs.mkdirSync(path.dirname(path.join(dir, hello.file)), { recursive: true });
    fs.writeFileSync(path.join(dir, hello.file), hello.code);
    hello.bare(dir);
    const bare: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      hello.bare(dir);
      bare.push(performance.now() - started);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(`hello ${runtime.padEnd(6)} e2e p50 ${fmt(p50(e2e))} | provision p50 ${fmt(p50(provision))} | bare host p50 ${fmt(p50(bare))} | ratio ${(p50(e2e) / p50(bare)).toFixed(1)}x`);
  }

  const install = { language: 'javascript', runtime: 'node', packages: ['is-number@7.0.0'], files: [{ path: 'i.js', code: 'console.log(require("is-number")(3))' }] };
  await post(install); // fills the shared cache
  const second: number[] = [];
  const secondInstall: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const { reply, ms } = await post(install);
    second.push(ms);
    secondInstall.push(reply.phases.installMs);
  }
  console.log(`install is-number again in a new session: e2e p50 ${fmt(p50(second))} | installMs p50 ${fmt(p50(secondInstall))} (goal < 1500 ms)`);

  const pyInstall = { language: 'python', runtime: 'python', packages: ['six==1.16.0'], files: [{ path: 's.py', code: 'import six; print(six.__version__)' }] };
  await post(pyInstall);
  const pySecond: number[] = [];
  for (let i = 0; i < ROUNDS; i++) pySecond.push((await post(pyInstall)).ms);
  console.log(`install six again in a new python session: e2e p50 ${fmt(p50(pySecond))}`);

  const { reply: warmStart } = await post({ language: 'javascript', runtime: 'node', files: [{ path: 'w.js', code: 'console.log(1)' }] });
  const warm: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    warm.push((await post({ language: 'javascript', runtime: 'node', sessionId: warmStart.sessionId, entry: 'w.js', files: [] })).ms);
  }
  console.log(`node run in a warm session: e2e p50 ${fmt(p50(warm))}`);

  const ts: number[] = [];
  for (let i = 0; i < ROUNDS; i++) ts.push((await post({ language: 'typescript', runtime: 'node', files: [{ path: 'x.ts', code: 'const n: number = 1; console.log(n)' }] })).ms);
  console.log(`node TypeScript hello (tsx loader) e2e p50 ${fmt(p50(ts))}`);

  const started = performance.now();
  const concurrent = await Promise.all(Array.from({ length: 10 }, (_, i) =>
    post({ language: 'javascript', runtime: 'node', files: [{ path: 'c.js', code: `console.log("token-${i}")` }] })));
  const wall = performance.now() - started;
  const crossTalk = concurrent.filter(({ reply }, i) => reply.stdout !== `token-${i}\n`).length;
  const sessions = new Set(concurrent.map(({ reply }) => reply.sessionId)).size;
  console.log(`10 concurrent node runs: wall ${fmt(wall)} | per-call p50 ${fmt(p50(concurrent.map((c) => c.ms)))} | distinct sessions ${sessions} | cross-talk ${crossTalk}`);
} finally {
  await server.close();
}
