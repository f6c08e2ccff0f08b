// `tooldex test <entry> [files…]`: reads the files from disk, POSTs /tools/test, prints the run and its session id.
// The request is checked with the shared testRequestSchema first, so a bad flag fails fast with exit 2.
import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { ToolDexError } from '../../errors.ts';
import { RUNTIMES, testRequestSchema, type TestResult } from '../../sandbox/schema.ts';
import { projectTest } from '../../projection.ts';
import { addClientOptions, clientFrom, examples, outputFormat, type ClientFlags } from '../options.ts';
import { renderTest, writeResult } from '../output.ts';
import { EXIT } from '../run.ts';
import { withSpinner } from '../spinner.ts';

interface TestFlags extends ClientFlags {
  runtime?: string;
  language?: string;
  package: string[];
  session?: string;
  env: string[];
  secret: string[];
  timeout?: string;
  slug?: string;
  network?: boolean;
}

// Extension → [runtime, language], so the common case needs no flag.
const BY_EXTENSION: Record<string, [string, string]> = {
  '.ts': ['node', 'typescript'], '.mts': ['node', 'typescript'], '.tsx': ['node', 'typescript'],
  '.js': ['node', 'javascript'], '.mjs': ['node', 'javascript'], '.cjs': ['node', 'javascript'],
  '.py': ['python', 'python'], '.go': ['golang', 'go'], '.rb': ['ruby', 'ruby'], '.rs': ['rust', 'rust'],
};

// Request fields → the flag a user would fix.
const FLAG_OF: Record<string, string> = {
  runtime: '--runtime', language: '--language', packages: '--package', sessionId: '--session', env: '--env/--secret',
  timeoutMs: '--timeout', slug: '--slug', files: 'file arguments', entry: 'entry file', network: '--network/--no-network',
};

const usage = (code: string, message: string) => new ToolDexError(code, 400, message);
const collect = (value: string, previous: string[]) => [...previous, value];

export function registerTest(program: Command): void {
  addClientOptions(program
    .command('test')
    .description('Run a snippet in the sandbox: install packages, write the files, run the entry file')
    .argument('<entry>', 'file to run (sent with its path relative to the current folder)')
    .argument('[files...]', 'more files the entry needs')
    .addOption(new Option('-r, --runtime <runtime>', 'sandbox runtime (default: from the entry file extension)').choices(RUNTIMES))
    .option('-l, --language <language>', 'snippet language (default: from the entry file extension)')
    .option('-p, --package <spec>', 'package to install, optionally pinned (zod@3.23.8); repeatable', collect, [])
    .option('-s, --session <id>', 'reuse the session of an earlier run (sbx_…, as it printed): its packages and files')
    .option('-e, --env <NAME=VALUE>', 'environment variable for the program; repeatable', collect, [])
    .option('--secret <NAME=VALUE>', 'secret variable: reaches the program, redacted from the output; repeatable', collect, [])
    .option('-t, --timeout <ms>', 'wall-clock limit in milliseconds (1000-60000, default 30000)')
    .option('--slug <slug>', 'directory slug the snippet tests (for analytics)')
    // Both forms, so that leaving them out keeps the session's setting (commander sets no default then).
    .option('--network', 'the program may reach the internet (the default of a new session)')
    .option('--no-network', 'the program gets no network at all (installs still fetch); kept by the session until --network'))
    .addHelpText('after', `${examples(
      'tooldex test index.ts --package zod',
      'tooldex test main.py helpers.py -p requests==2.32.3 --secret API_TOKEN=abc123',
      'tooldex test index.ts --session sbx_ZA3AZuW-HJBfuVEqLSyE --timeout 10000   # the id a run printed',
      'tooldex test main.py --no-network   # the program runs offline; packages still install',
    )}\nExit status: 0 the snippet ran, 1 it did not (status failed_install, failed_run, timeout, limit_exceeded, blocked or unavailable),\n2 usage error, 3 server or network error.\n`)
    .action(async (entry: string, more: string[], flags: TestFlags) => {
      const files = [entry, ...more].map(readSnippetFile);
      const guessed = BY_EXTENSION[path.extname(entry).toLowerCase()];
      const parsed = testRequestSchema.safeParse({
        language: flags.language ?? guessed?.[1],
        runtime: flags.runtime ?? guessed?.[0],
        files,
        packages: flags.package,
        entry: files[0]?.path,
        sessionId: flags.session,
        slug: flags.slug,
        env: [...flags.env.map((item) => envItem(item, 'value')), ...flags.secret.map((item) => envItem(item, 'secret'))],
        timeoutMs: flags.timeout === undefined ? undefined : Number(flags.timeout),
        network: flags.network === undefined ? undefined : flags.network ? 'on' : 'off',
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = String(issue?.path[0] ?? '');
        if ((field === 'runtime' && !flags.runtime) || (field === 'language' && !flags.language)) {
          throw usage('invalid_request', `cannot tell the runtime and language from "${entry}"; ` +
            `pass --runtime (${RUNTIMES.join(', ')}) and --language (e.g. typescript, python).`);
        }
        throw usage('invalid_request', `${FLAG_OF[field] ?? field}: ${issue?.message ?? 'invalid value'}.`);
      }
      const client = clientFrom(flags);
      const result = await withSpinner('installing and running in the sandbox', client.post<TestResult>('/tools/test', parsed.data));
      writeResult(result, outputFormat(flags), renderTest, (whole) => projectTest(whole, flags.detail ?? 'compact'));
      if (!result.ok) process.exitCode = EXIT.notOk;
    });
}

function readSnippetFile(file: string): { path: string; code: string } {
  let code: string;
  try {
    code = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw usage('file_unreadable', `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}); check the path.`);
  }
  // Inside the current folder the relative path is kept (src/main.rs); anything else lands at the workspace root.
  const relative = path.relative(process.cwd(), path.resolve(file));
  const inside = relative && !relative.startsWith('..') && !path.isAbsolute(relative);
  return { path: (inside ? relative : path.basename(file)).split(path.sep).join('/'), code };
}

function envItem(item: string, kind: 'value' | 'secret'): { name: string; value?: string; secret?: string } {
  const at = item.indexOf('=');
  // A malformed --secret is not echoed: it may be the secret itself.
  if (at <= 0) throw usage('invalid_request', kind === 'value' ? `--env "${item}" needs the form NAME=VALUE.` : '--secret needs the form NAME=VALUE.');
  return { name: item.slice(0, at), [kind]: item.slice(at + 1) };
}
