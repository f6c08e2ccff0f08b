// The weak tier of package use (src/quickstart/package-use.ts) and its place in verification (verify.ts): a program
// that prints a value read from the package (a value export, a data table's member) or shows a call's side effect
// through the standard library is verified only when no candidate's output comes from a call into the package.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { programUsesPackage, type PackageRef } from '../../../src/quickstart/package-use.ts';
import { tryCandidates } from '../../../src/quickstart/verify.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import type { PackageInfo, ScoredCandidate } from '../../../src/quickstart/types.ts';
import type { TestRequest, TestResult } from '../../../src/sandbox/schema.ts';
import type { ToolRecord } from '../../../src/catalog/index.ts';

const go = (path: string): PackageRef => ({ ecosystem: 'go', name: path, importName: path });
const npm = (name: string): PackageRef => ({ ecosystem: 'npm', name, importName: name });
const pypi = (name: string, importName = name): PackageRef => ({ ecosystem: 'pypi', name, importName });
const crate = (name: string): PackageRef => ({ ecosystem: 'crates', name, importName: name.replace(/-/g, '_') });

describe('weak use: a value of the package, or a side effect shown afterwards', () => {
  it('npm: a default export that is a value, printed as is', async () => {
    const use = await programUsesPackage("import isCI from 'is-ci';\nconsole.log(isCI);\n", npm('is-ci'));
    assert.equal(use.uses, false);
    assert.match(use.weak ?? '', /value read from the package \(isCI\)/);
  });

  it('npm: a member read of a data table, through an import and through require', async () => {
    const use = await programUsesPackage("import { signalsByName } from 'human-signals';\nconsole.log(signalsByName.SIGINT);\n", npm('human-signals'));
    assert.equal(use.uses, false);
    assert.match(use.weak ?? '', /signalsByName/);
    const table = await programUsesPackage("const colors = require('color-name');\nconsole.log(colors['aliceblue']);\n", npm('color-name'));
    assert.match(table.weak ?? '', /colors/);
  });

  it('Go: a call for its side effect, then the target listed with os.ReadDir', async () => {
    const program = `package main

import (
\t"fmt"
\t"os"

\t"github.com/otiai10/copy"
)

func main() {
\tos.MkdirAll("src/sub", 0o755)
\tos.WriteFile("src/sub/a.txt", []byte("hello"), 0o644)
\tif err := copy.Copy("src", "dst"); err != nil {
\t\tpanic(err)
\t}
\tentries, _ := os.ReadDir("dst/sub")
\tfor _, e := range entries {
\t\tfmt.Println(e.Name())
\t}
}
`;
    const use = await programUsesPackage(program, go('github.com/otiai10/copy'));
    assert.equal(use.uses, false);
    assert.match(use.weak ?? '', /calls into the package \(copy\.Copy\) and then shows the effect \(fmt\.Println\)/);
  });

  it('Python: settings loaded into the environment then read back, and a colour constant printed', async () => {
    const dotenv = await programUsesPackage("import os\nfrom dotenv import load_dotenv\n\nload_dotenv()\nprint(os.environ.get('SECRET_KEY'))\n", pypi('python-dotenv', 'dotenv'));
    assert.equal(dotenv.uses, false);
    assert.match(dotenv.weak ?? '', /load_dotenv/);
    const colour = await programUsesPackage("from colorama import Fore, Style\nprint(Fore.RED + 'some red text' + Style.RESET_ALL)\n", pypi('colorama'));
    assert.match(colour.weak ?? '', /Fore/);
  });

  it('a strong use carries no weak verdict', async () => {
    const use = await programUsesPackage('import demo\nprint(demo.total([1, 2]))\n', pypi('demo'));
    assert.equal(use.uses, true);
    assert.equal(use.weak, undefined);
  });

  it("the round's refusals stay refused: a printed literal, local structs only, a call followed by a literal", async () => {
    assert.equal((await programUsesPackage("import demo\nprint('a printed literal')\n", pypi('demo'))).weak, undefined);
    assert.equal((await programUsesPackage("import demo\ndemo.run()\nprint('done')\n", pypi('demo'))).weak, undefined);
    // A print before the package's call shows nothing of its effect.
    assert.equal((await programUsesPackage("import os\nimport demo\nprint(os.getcwd())\ndemo.run()\n", pypi('demo'))).weak, undefined);
    const structs = `package main

import (
\t"fmt"
\t"github.com/sony/gobreaker"
\t"time"
)

type Settings struct {
\tName          string
\tInterval      time.Duration
\tReadyToTrip   func(counts gobreaker.Counts) bool
}

func main() {
\tfmt.Printf("%+v\\n", Settings{})
}
`;
    assert.deepEqual(await programUsesPackage(structs, go('github.com/sony/gobreaker')), { uses: false, why: 'nothing it prints comes from a call into the package', refusal: 'no_output_from_package' });
    assert.equal((await programUsesPackage('fn main() {\n    println!("hello");\n}\n', crate('demo'))).weak, undefined);
    const never = await programUsesPackage("print('otpauth://totp/x')\n", pypi('pyotp'));
    assert.equal(never.refusal, 'never_imports');
    assert.equal(never.weak, undefined);
  });
});

describe('verification takes a weak use only when no candidate reaches a strong one', () => {
  const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo' };
  const host = { pythonStdlib: new Set(['sys', 'os']), goStd: new Map<string, string>(), runtimes: {} };
  const tool = { slug: 'pypi-demo', ecosystem: 'pypi', name: 'demo' } as ToolRecord;
  const scored = (code: string, score: number): ScoredCandidate => ({ code, language: 'python', origin: 'readme', path: 'README.md', source: `u#${score}`, score, blockers: [], signals: [] });
  const config = loadConfig({ TOOLDEX_HOME: '/tmp/tooldex-unit-package-use-weak', TOOLDEX_QUICKSTART_MAX_RUNS: 8 });
  const printing = (sent: string[]) => ({
    async run(request: TestRequest): Promise<TestResult> {
      const code = request.files[0]!.code;
      sent.push(code);
      const stdout = code.includes('total(') ? '3' : code.includes('TABLE') ? 'alpha' : code.includes('read()') ? 'written by demo' : 'done';
      return { ok: true, status: 'ran', stdout: `${stdout}\n`, stderr: '', exitCode: 0, sessionId: 's1', sessionExpiresAt: null, sessionReused: false, phases: { provisionMs: 1, installMs: 1, runMs: 1 } as TestResult['phases'] };
    },
  });
  const weakTable = "from demo import TABLE\nprint(TABLE['a'])";
  const strong = 'import demo\nprint(demo.total([1, 2]))';

  it('a strong candidate later in the list wins over an earlier weak one', async () => {
    const sent: string[] = [];
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: printing(sent), keepAlive: async () => true }, tool, '1.0', info, host,
      [scored(weakTable, 9), scored(strong, 8)]);
    assert.equal(outcome.status, 'ran');
    assert.equal(outcome.result.verified.stdout, '3');
    assert.match(outcome.result.quickstart?.code ?? '', /demo\.total/);
    assert.equal(outcome.result.verified.note, undefined);
    // The weak one ran first and was kept, not counted.
    assert.equal(sent.length, 2);
    assert.match(outcome.result.tried[0]!.detail ?? '', /value read from the package \(TABLE\).*looking for an example/);
  });

  it('with no strong candidate, the first weak one is verified and its note says so', async () => {
    const sideEffect = "import demo\ndemo.save('out.txt')\nprint(open('out.txt').read())";
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: printing([]), keepAlive: async () => true }, tool, '1.0', info, host,
      [scored("import demo\ndemo.run()\nprint('done')", 10), scored(sideEffect, 9), scored(weakTable, 8)]);
    assert.equal(outcome.status, 'ran');
    assert.equal(outcome.result.verified.stdout, 'written by demo');
    assert.match(outcome.result.quickstart?.code ?? '', /demo\.save/);
    assert.match(outcome.result.verified.note ?? '', /shows a value or a side effect of it \(it calls into the package \(demo\.save\)/);
    // The call followed by a literal was refused; every candidate was tried before the weak one was taken.
    assert.deepEqual(outcome.result.tried.map((t) => t.status), ['ran_silent', 'ran', 'ran']);
  });

  it('a real example whose use is weak is not replaced by a program tooldex wrote', async () => {
    const sent: string[] = [];
    const written: ScoredCandidate = { ...scored(strong, 5), origin: 'api', path: 'api', source: 'api#1' };
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: printing(sent), keepAlive: async () => true }, tool, '1.0', info, host,
      [scored(weakTable, 9), written]);
    assert.equal(outcome.status, 'ran');
    assert.match(outcome.result.quickstart?.code ?? '', /TABLE/);
    assert.equal(sent.length, 1);
    // Without the weak real example, the written program is run and shown.
    const alone = await tryCandidates({ config, logger: createLogger('error'), sandbox: printing([]), keepAlive: async () => true }, tool, '1.0', info, host, [written]);
    assert.match(alone.result.quickstart?.code ?? '', /demo\.total/);
  });

  it('a program that prints only a literal is still not verified', async () => {
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: printing([]), keepAlive: async () => true }, tool, '1.0', info, host,
      [scored("import demo\nprint('a printed literal')", 9)]);
    assert.notEqual(outcome.status, 'ran');
  });
});
