// A sandbox program that runs each import line a context hands out, verbatim and on its own, and reports which loaded:
// how the quickstart bench proves "never hand out an import line that fails" (npm and PyPI, whose lines are derived
// from a probe or read from a program; crates' and Go's lines are only ever read from the verified program).
import type { TestRequest } from '../sandbox/schema.ts';

const MARK = 'tooldex-import-line';

/** One run that executes every line: npm lines each in a module of their own kind (.mjs for `import`, .cjs for `require`). */
export function importLinesCheck(ecosystem: 'npm' | 'pypi', pkg: { name: string; version: string; slug: string }, lines: string[]): TestRequest {
  if (ecosystem === 'pypi') {
    const code = `# tooldex: does each import line handed out run, verbatim?
lines = ${JSON.stringify(lines)}
for i, line in enumerate(lines):
    try:
        exec(line, {})
        print("${MARK}", i, "ok")
    except BaseException as error:
        print("${MARK}", i, "fail", type(error).__name__, str(error).replace("\\n", " ")[:160])
`;
    return { language: 'python', runtime: 'python', files: [{ path: 'main.py', code }], packages: [`${pkg.name}==${pkg.version}`], slug: pkg.slug, env: [], timeoutMs: 30_000 };
  }
  const files = lines.map((line, i) => ({ path: /^\s*import\s/.test(line) ? `line${i}.mjs` : `line${i}.cjs`, code: `${line}\n` }));
  const entry = `// tooldex: does each import line handed out load, verbatim, in a module of its own kind?
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const files = ${JSON.stringify(files.map((f) => f.path))};
for (const [i, file] of files.entries()) {
  try {
    if (file.endsWith('.cjs')) require('./' + file); else await import('./' + file);
    console.log('${MARK}', i, 'ok');
  } catch (error) {
    console.log('${MARK}', i, 'fail', String(error?.message ?? error).split('\\n')[0].slice(0, 160));
  }
}
`;
  return { language: 'javascript', runtime: 'node', files: [{ path: 'check.mjs', code: entry }, ...files], packages: [`${pkg.name}@${pkg.version}`], slug: pkg.slug, env: [], timeoutMs: 30_000 };
}

/** Per line: whether it loaded, and the error when it did not (undefined entries: the run ended before that line). */
export function readImportLinesCheck(stdout: string, count: number): Array<{ ok: boolean; detail?: string } | undefined> {
  const verdicts: Array<{ ok: boolean; detail?: string } | undefined> = new Array(count).fill(undefined);
  for (const line of stdout.split('\n')) {
    const match = new RegExp(`^${MARK} (\\d+) (ok|fail)(?: (.*))?$`).exec(line.trim());
    if (!match) continue;
    const i = Number(match[1]);
    if (i < count) verdicts[i] = match[2] === 'ok' ? { ok: true } : { ok: false, detail: match[3] ?? 'failed' };
  }
  return verdicts;
}
