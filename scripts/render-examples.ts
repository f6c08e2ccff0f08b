// `npm run docs:examples`: re-runs every example in README.md and docs/*.md against a real server and writes its output
// back, so example output in the docs is always from a real run and cannot drift from the code.
//
// An example is a marker comment followed by a fenced block that this script owns:
//   <!-- example: tooldex search "http client" --limit 3 -->
//   ```console
//   $ tooldex search "http client" --limit 3
//   …output…
//   ```
//   <!-- /example -->
// Options go before the colon: `<!-- example lines=12: … -->` keeps the first 12 lines of output.
// The command runs in bash with `tooldex` on PATH and TOOLDEX_URL (also $URL) pointing at a server this script starts
// on the embedded store in a temporary TOOLDEX_HOME (or at --url URL, an already running server).
// Usage: npm run docs:examples [-- --url http://127.0.0.1:8080] [-- FILE ...]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const markerPattern = /<!-- example(?<options>(?: [a-z]+=\S+)*): (?<command>.+?) -->\n(?:```[a-z]*\n[\s\S]*?\n```\n)?<!-- \/example -->/g;

interface Example { file: string; command: string; lines?: number }

function documents(args: string[]): string[] {
  if (args.length > 0) return args.map((file) => path.resolve(file));
  const docsDir = path.join(repoRoot, 'docs');
  const pages = fs.existsSync(docsDir) ? fs.readdirSync(docsDir).filter((f) => f.endsWith('.md')).map((f) => path.join(docsDir, f)) : [];
  return [path.join(repoRoot, 'README.md'), ...pages.sort()];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitHealthy(url: string, child: ReturnType<typeof spawn>): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server was not ready within 180 s');
}

/** A folder holding a `tooldex` command that runs this checkout's CLI. */
function binDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-examples-bin-'));
  const target = path.join(dir, 'tooldex');
  fs.writeFileSync(target, `#!/bin/sh\nexec node ${JSON.stringify(path.join(repoRoot, 'bin/tooldex.js'))} "$@"\n`, { mode: 0o755 });
  return dir;
}

function run(example: Example, env: NodeJS.ProcessEnv): string {
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', example.command], {
    cwd: repoRoot, env, encoding: 'utf8', timeout: 300_000, maxBuffer: 16 * 1024 * 1024,
  });
  if (result.error) throw new Error(`"${example.command}" could not run: ${result.error.message}`);
  let output = `${result.stdout}${result.stderr ? result.stderr : ''}`.replace(/\s+$/, '');
  if (example.lines !== undefined) {
    const lines = output.split('\n');
    if (lines.length > example.lines) output = [...lines.slice(0, example.lines), `… (${lines.length - example.lines} more lines)`].join('\n');
  }
  if (result.status !== 0) process.stderr.write(`examples: "${example.command}" exited with ${result.status} (kept: the docs show it)\n`);
  return output;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let url: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--url') url = args[++i];
    else paths.push(args[i] ?? '');
  }
  const files = documents(paths);
  let server: ReturnType<typeof spawn> | undefined;
  let home: string | undefined;
  if (!url) {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-examples-home-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
      cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'],
      // A first context request waits for its quickstart's verification, so examples show a settled answer.
      env: { ...process.env, TOOLDEX_HOME: home, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', TOOLDEX_QUICKSTART_WAIT_MS: '60000' },
    });
    await waitHealthy(url, server);
  }
  const env = {
    ...process.env, TOOLDEX_URL: url, URL: url, PATH: `${binDir()}:${process.env.PATH ?? ''}`, COLUMNS: '110', NO_COLOR: '1', FORCE_COLOR: '0',
  };
  try {
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      let changed = 0;
      const rendered = await replaceAsync(text, markerPattern, (match) => {
        const options = Object.fromEntries((match.groups?.options ?? '').trim().split(/\s+/).filter(Boolean).map((pair) => pair.split('=')));
        const example: Example = { file, command: match.groups?.command ?? '', lines: options.lines ? Number(options.lines) : undefined };
        process.stderr.write(`examples: ${path.relative(repoRoot, file)}: ${example.command}\n`);
        changed += 1;
        const output = run(example, env);
        const head = `<!-- example${match.groups?.options ?? ''}: ${example.command} -->`;
        return `${head}\n\`\`\`console\n$ ${example.command}\n${output}\n\`\`\`\n<!-- /example -->`;
      });
      if (changed > 0) fs.writeFileSync(file, rendered);
    }
  } finally {
    server?.kill('SIGTERM');
    if (server) await new Promise((resolve) => server?.once('exit', resolve));
    if (home) fs.rmSync(home, { recursive: true, force: true });
  }
}

async function replaceAsync(text: string, pattern: RegExp, replace: (match: RegExpMatchArray) => string | Promise<string>): Promise<string> {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out += text.slice(last, match.index) + await replace(match);
    last = (match.index ?? 0) + match[0].length;
  }
  return out + text.slice(last);
}

await main();
