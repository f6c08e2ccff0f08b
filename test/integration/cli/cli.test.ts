// The CLI through the front door: `node bin/tooldex.js …` spawned piped and under a pseudo-terminal
// (`script` from util-linux) against a real server: format rules and precedence, NO_COLOR, exit codes, help.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decode } from '@toon-format/toon';
import { projectContext, projectSearch } from '../../../src/projection.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { bin, cleanEnv, closedPort, fixtureSnapshot, run, type Ran } from '../mcp/fixtures.ts';

const SGR = /\x1b\[[0-9;]*m/; // colour/bold sequences (the spinner's line clearing is \x1b[K, not this)
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
/** What a terminal shows at the end: the spinner (stderr) erases its line with \r ESC[K before the result. */
const screen = (raw: string) => (raw.split('\x1b[K').pop() ?? '').replace(/\r/g, '').trim();

describe('tooldex CLI', () => {
  let server: TestServer;
  let env: NodeJS.ProcessEnv;
  let workdir: string;

  before(async () => {
    // The output tests index zod's real docs; under a loaded machine that can pass the 20 s answer deadline, which is
    // the scheduler's contract (test/integration/ops/docs-scheduling.test.ts), not the output format's.
    server = await startServer({ config: { TOOLDEX_SNAPSHOT: await fixtureSnapshot(), TOOLDEX_TEST_RPM: 1000, TOOLDEX_DOCS_DEADLINE_MS: 120_000 } });
    env = cleanEnv({ TOOLDEX_URL: server.url });
    workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-cli-'));
  });
  after(async () => {
    await server.close();
    fs.rmSync(workdir, { recursive: true, force: true });
  });

  const piped = (args: string[], extraEnv: Record<string, string> = {}) =>
    run(process.execPath, [bin, ...args], { env: { ...env, ...extraEnv }, cwd: workdir });

  /** Under a pseudo-terminal: stdout and stderr are both the terminal, so the output is their merge. */
  const terminal = (args: string[], extraEnv: Record<string, string> = {}): Promise<Ran> =>
    run('script', ['-qec', [process.execPath, bin, ...args].map(quote).join(' '), '/dev/null'], {
      env: { ...env, TERM: 'xterm-256color', COLUMNS: '120', ...extraEnv }, cwd: workdir,
    });

  const restSearch = async (q: string) => (await fetch(`${server.url}/tools/search?q=${encodeURIComponent(q)}`)).json();
  /** What json/toon carry by default: the compact projection of the REST result (`--detail full`: the REST result). */
  const compactSearch = async (q: string) => projectSearch(await restSearch(q), 'compact');

  describe('output format', () => {
    it('prints compact json when piped (the REST result with --detail full), with nothing on stderr', async () => {
      const result = await piped(['search', 'schema', 'validation']);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, '');
      assert.deepEqual(JSON.parse(result.stdout), await compactSearch('schema validation'));
      const full = await piped(['search', 'schema', 'validation', '--detail', 'full']);
      assert.deepEqual(JSON.parse(full.stdout), await restSearch('schema validation'));
    });

    it('prints toon with --format toon: one table of tools', async () => {
      const result = await piped(['search', 'schema validation', '--format', 'toon']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^results\[\d+\]\{slug,name,ecosystem,version,popularity,install,description\}:\n/);
      assert.deepEqual(decode(result.stdout), await compactSearch('schema validation'));
    });

    it('prints a human table with --format human when piped, without colour', async () => {
      const result = await piped(['search', 'validation', '--format', 'human']);
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.split('\n');
      assert.match(lines[0] ?? '', /^SLUG\s+VERSION\s+POP\s+DESCRIPTION$/);
      const best = ((await restSearch('validation')) as { results: Array<{ slug: string; version: string | null }> }).results[0]!;
      // Tools known only from a seed list have no version; the table shows "-" for them.
      assert.match(lines[1] ?? '', new RegExp(`^${best.slug}\\s+${(best.version ?? '-').replace(/\./g, '\\.')}\\s+\\d\\.\\d\\d\\s+\\S`));
      // Columns line up: every row's description starts where the header's does.
      const column = (lines[0] ?? '').indexOf('DESCRIPTION');
      for (const line of lines.slice(1).filter((l) => l && !l.startsWith('next:'))) assert.match(line.slice(column - 2, column), /^ {2}$/, line);
      assert.doesNotMatch(result.stdout, SGR);
    });

    it('lets --format win over --json, and --json win over the pipe default', async () => {
      const both = await piped(['search', 'zod', '--json', '--format', 'toon']);
      assert.deepEqual(decode(both.stdout), await compactSearch('zod'));
      const json = await piped(['search', 'zod', '--json']);
      assert.deepEqual(JSON.parse(json.stdout), await compactSearch('zod'));
    });

    it('prints human output with colour on a terminal by default', async () => {
      const result = await terminal(['search', 'validation']);
      assert.equal(result.code, 0, result.stdout);
      assert.match(result.stdout, /SLUG\s+VERSION\s+POP\s+DESCRIPTION/);
      assert.match(result.stdout, SGR);
    });

    it('honours NO_COLOR on a terminal', async () => {
      const result = await terminal(['search', 'validation'], { NO_COLOR: '1' });
      assert.equal(result.code, 0, result.stdout);
      assert.match(result.stdout, /SLUG\s+VERSION\s+POP\s+DESCRIPTION/);
      assert.doesNotMatch(result.stdout, SGR);
    });

    it('prints json on a terminal with --json, and toon with --json --format toon', async () => {
      const json = await terminal(['search', 'zod', '--json']);
      assert.deepEqual(JSON.parse(screen(json.stdout)), await compactSearch('zod'));
      const toon = await terminal(['search', 'zod', '--json', '--format', 'toon']);
      assert.deepEqual(decode(screen(toon.stdout)), await compactSearch('zod'));
    });

    it('prints context and docs as json (equal to REST) and as readable text', async () => {
      const context = await piped(['context', 'npm-zod']);
      assert.equal(context.code, 0, context.stderr);
      const restContext = await (await fetch(`${server.url}/tools/context/npm-zod`)).json();
      assert.deepEqual(JSON.parse(context.stdout), projectContext(restContext, 'compact'));
      assert.deepEqual(JSON.parse((await piped(['context', 'npm-zod', '--detail', 'full'])).stdout), restContext);
      const humanContext = await piped(['context', 'npm-zod', '--format', 'human']);
      assert.match(humanContext.stdout, /^zod \S+ \(npm\)/);
      assert.match(humanContext.stdout, /\ninstall {3}npm install zod/);
      const docs = await piped(['docs', 'npm-zod', 'optional', 'field', '-n', '2', '--format', 'human']);
      assert.equal(docs.code, 0, docs.stderr);
      assert.match(docs.stdout, /^npm-zod \S+/);
      assert.match(docs.stdout, /\n1\. .+\n( {3}symbol \S+.*\n)? {3}(https?:\/\/)?\S+\n/);
      const top = (JSON.parse((await piped(['docs', 'npm-zod', 'optional', 'field', '-n', '2', '--detail', 'full'])).stdout) as { results: Array<{ symbol?: string }> }).results[0]!;
      if (top.symbol) assert.ok(docs.stdout.includes(`\n   symbol ${top.symbol}`), 'the label line names the passage\'s symbol');
    });

    it('fits docs answers to the terminal: no line wider than it, words and URLs never split over lines', async () => {
      const question = ['docs', 'npm-zod', 'parse', 'data', 'without', 'throwing', '-n', '5'];
      const passages = (JSON.parse((await piped([...question, '--detail', 'full'])).stdout) as { results: Array<{ content: string; url: string }> }).results;
      assert.ok(passages.length > 0);
      const words = new Set(passages.flatMap((p) => p.content.split(/\s+/)).flatMap((w) => [w, w.replace(/^[-*+>|#]+$/, '')]));
      for (const columns of [60, 100]) {
        const shown = await terminal(question, { COLUMNS: String(columns), NO_COLOR: '1' });
        assert.equal(shown.code, 0, shown.stdout);
        const lines = screen(shown.stdout).split('\n').map((line) => line.replace(/\r$/, ''));
        for (const line of lines) assert.ok([...line].length <= columns, `${[...line].length} > ${columns}: ${line}`);
        // Prose words are shown whole (wrap.ts breaks only between words; its unit tests hold the rule).
        const isLink = (line: string) => /^(https?:\/\/)?[\w.-]+\.[a-z]{2,}(\/|$)/.test(line.trim());
        // Code is broken between tokens instead (wrapCode), so lines inside a fence are not prose.
        let inCode = false;
        const outsideCode = lines.filter((line) => {
          if (/^ {3}```/.test(line)) { inCode = !inCode; return false; }
          return !inCode;
        });
        // The label line under a heading ("symbol zod.safeParse  deprecated") is not the passage's prose either, nor are
        // its links to the items a guide section uses or the sections that show an item ("uses zod.parseAsync").
        const isLabels = (line: string) => /^ {3}(symbol \S|(deprecated|internal)\b|(uses|shown in) \S)/.test(line);
        const prose = outsideCode.filter((line) => /^ {3}[A-Za-z]/.test(line) && !isLink(line) && !isLabels(line)).flatMap((line) => line.trim().split(/\s+/));
        for (const word of prose) assert.ok(word.endsWith('…') || words.has(word), `"${word}" is a whole word of a passage`);
        for (const passage of passages) {
          const shownUrl = lines.find((line) => line.startsWith('   ') && (line.trim() === passage.url || line.trim().includes('…')));
          assert.ok(shownUrl, `the source link of ${passage.url} is shown`);
        }
      }
    });

    it('works from any folder (the bin resolves its own loader)', async () => {
      const result = await run(process.execPath, [bin, 'search', 'zod'], { env, cwd: '/' });
      assert.equal(result.code, 0, result.stderr);
      assert.ok(JSON.parse(result.stdout).results.length > 0);
    });
  });

  describe('test', () => {
    it('runs files from disk: exit 0 and the result on stdout; reuses the session; exit 1 when the snippet fails', async () => {
      fs.mkdirSync(path.join(workdir, 'src'), { recursive: true });
      fs.writeFileSync(path.join(workdir, 'src/greet.js'), 'exports.greet = (who) => `hello ${who}`;\n');
      fs.writeFileSync(path.join(workdir, 'main.js'), 'console.log(require("./src/greet.js").greet(process.env.WHO), process.env.TOKEN);\n');
      const ok = await piped(['test', 'main.js', 'src/greet.js', '--env', 'WHO=cli', '--secret', 'TOKEN=s3cr3t-value']);
      assert.equal(ok.code, 0, ok.stderr + ok.stdout);
      const result = JSON.parse(ok.stdout);
      assert.equal(result.status, 'ran');
      // `tooldex test --help` shows a session id in the form the service issues.
      const example = /\$ tooldex test .*--session (\S+)/.exec((await piped(['test', '--help'])).stdout)?.[1] ?? '';
      assert.equal(example.length, result.sessionId.length, `${example} vs ${result.sessionId}`);
      assert.equal(example.slice(0, 4), result.sessionId.slice(0, 4));
      assert.match(example, /^sbx_[A-Za-z0-9_-]+$/);
      assert.match(result.stdout, /hello cli/);
      assert.doesNotMatch(result.stdout, /s3cr3t-value/, 'the secret is redacted');

      const human = await piped(['test', 'main.js', '--session', result.sessionId, '--env', 'WHO=again', '--format', 'human']);
      assert.equal(human.code, 0, human.stderr + human.stdout);
      assert.match(human.stdout, /^✓ ran {2}provision [\d.]+ s · install [\d.]+ s · run [\d.]+ s {2}exit 0\n/);
      assert.match(human.stdout, /hello again/);
      assert.match(human.stdout, new RegExp(`session {2}${result.sessionId} \\(reused\\) {2}reuse with --session ${result.sessionId}`));

      // On a terminal the wait shows a spinner on stderr, erased before the result. The snippet waits a second so
      // the run outlasts the spinner's 300 ms delay however fast the machine is.
      fs.writeFileSync(path.join(workdir, 'slow.js'), 'setTimeout(() => console.log(require("./src/greet.js").greet(process.env.WHO)), 1000);\n');
      const onTerminal = await terminal(['test', 'slow.js', 'src/greet.js', '--session', result.sessionId, '--env', 'WHO=tty']);
      assert.equal(onTerminal.code, 0, onTerminal.stdout);
      assert.match(onTerminal.stdout, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] installing and running in the sandbox/);
      assert.match(screen(onTerminal.stdout), /^\S*✓ ran/);
      assert.match(screen(onTerminal.stdout), /hello tty/);

      fs.writeFileSync(path.join(workdir, 'fail.js'), 'throw new Error("boom")\n');
      const failed = await piped(['test', 'fail.js']);
      assert.equal(failed.code, 1, failed.stderr);
      assert.equal(JSON.parse(failed.stdout).status, 'failed_run');
      assert.equal(failed.stderr, '');
    });
  });

  describe('exit codes and errors', () => {
    const oneLine = (stderr: string) => {
      const lines = stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `one line on stderr: ${stderr}`);
      return lines[0]!;
    };

    it('exits 2 on a flag or argument error with the documented one line: tooldex: <code>: <cause>; see <help>', async () => {
      const cases: Array<[string[], RegExp]> = [
        [['search'], /^tooldex: missing_argument: missing required argument 'query'; see `tooldex search --help`\.$/],
        [['search', 'zod', '--format', 'xml'], /^tooldex: invalid_argument: option '--format <format>' argument 'xml' is invalid\. Allowed choices are human, json, toon; see `tooldex search --help`\.$/],
        [['search', 'zod', '--jsn'], /^tooldex: unknown_option: unknown option '--jsn' \(Did you mean --json\?\); see `tooldex search --help`\.$/],
        [['serch', 'zod'], /^tooldex: unknown_command: unknown command 'serch' \(Did you mean search\?\); see `tooldex --help`\.$/],
        [['docs', 'npm-zod', '-n'], /^tooldex: missing_option_value: option '-n, --limit <n>' argument missing; see `tooldex docs --help`\.$/],
        [['keys', 'create'], /^tooldex: missing_option: required option '--org <name>' not specified; see `tooldex keys create --help`\.$/],
      ];
      for (const [args, pattern] of cases) {
        const result = await piped(args);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(oneLine(result.stderr), pattern);
        assert.equal(result.stdout, '');
      }
    });

    it('exits 2 when the server rejects the input (422), naming the code', async () => {
      const result = await piped(['search', 'zod', '--limit', '0']);
      assert.equal(result.code, 2);
      assert.match(oneLine(result.stderr), /^tooldex: invalid_limit: /);
      assert.equal(result.stdout, '');
    });

    it('exits 3 with server_unreachable when no server answers, saying how to fix it', async () => {
      const result = await piped(['search', 'zod', '--url', `http://127.0.0.1:${await closedPort()}`]);
      assert.equal(result.code, 3);
      assert.match(oneLine(result.stderr), /^tooldex: server_unreachable: cannot reach .*ECONNREFUSED.*tooldex serve.*--url/);
    });

    it('exits 3 with the server\'s code on a server error (unknown slug)', async () => {
      const result = await piped(['context', 'npm:no-such-tool-xyz-123']);
      assert.equal(result.code, 3);
      assert.match(oneLine(result.stderr), /^tooldex: not_found: /);
    });

    it('exits 2 on test usage errors before contacting the server', async () => {
      fs.writeFileSync(path.join(workdir, 'notes.txt'), 'hello');
      fs.writeFileSync(path.join(workdir, 'ok.js'), 'console.log(1)');
      const cases: Array<[string[], RegExp]> = [
        [['test', 'missing.js'], /file_unreadable: cannot read missing\.js \(ENOENT\)/],
        [['test', 'notes.txt'], /invalid_request: cannot tell the runtime and language from "notes.txt"; pass --runtime/],
        [['test', 'ok.js', '--env', 'NOVALUE'], /--env "NOVALUE" needs the form NAME=VALUE/],
        [['test', 'ok.js', '--secret', 'hunter2'], /--secret needs the form NAME=VALUE/],
        [['test', 'ok.js', '--timeout', '10'], /invalid_request: --timeout: /],
        [['test', 'ok.js', '--runtime', 'java'], /java/],
      ];
      for (const [args, pattern] of cases) {
        const result = await piped([...args, '--url', `http://127.0.0.1:${await closedPort()}`]);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, pattern);
        assert.doesNotMatch(result.stderr, /hunter2/, 'a malformed secret is not echoed');
      }
    });

    it('sends the API key as a Bearer token (a wrong one is refused when auth is required)', async (t) => {
      const secured = await startServer({ config: { TOOLDEX_AUTH: 'required', TOOLDEX_SNAPSHOT: await fixtureSnapshot() } });
      try {
        if (!('auth' in secured.app)) return t.skip('the authentication capability is not in this build');
        const none = await piped(['search', 'zod', '--url', secured.url]);
        assert.equal(none.code, 3);
        assert.match(none.stderr, /^tooldex: missing_api_key: .*--api-key or set TOOLDEX_API_KEY/);
        const wrong = await piped(['search', 'zod', '--url', secured.url], { TOOLDEX_API_KEY: 'tdx_wrong' });
        assert.equal(wrong.code, 3);
        assert.match(wrong.stderr, /^tooldex: invalid_api_key: /);
      } finally {
        await secured.close();
      }
    });
  });

  describe('help', () => {
    for (const command of ['search', 'context', 'docs', 'test', 'mcp', 'serve']) {
      it(`tooldex ${command} --help shows usage and examples, exit 0`, async () => {
        const result = await piped([command, '--help']);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, new RegExp(`Usage: tooldex ${command}`));
        assert.match(result.stdout, /Examples:/);
      });
    }

    it('tooldex --help lists every client and operator command', async () => {
      const result = await piped(['--help']);
      assert.equal(result.code, 0);
      for (const command of ['search', 'context', 'docs', 'test', 'serve', 'mcp']) assert.match(result.stdout, new RegExp(`\\n  ${command}\\b`));
      assert.match(result.stdout, /Examples:\n {2}\$ tooldex search /);
      assert.match(result.stdout, /Exit status: 0 ok, 1 .*, 2 usage error, 3 server or network error/);
    });
  });
});
