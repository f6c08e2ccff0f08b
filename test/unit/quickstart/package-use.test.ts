// Verified must mean the package did it (src/quickstart/package-use.ts): real programs that ran in rounds 5–7, the
// three the round-7 rater found never using their package, and ones of each language that do, in the forms that
// reach the package indirectly (derives, callbacks, struct patterns, a printing helper, a package that prints itself).
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
const crate = (name: string): PackageRef => ({ ecosystem: 'crates', name, importName: name.replace(/-/g, '_') });
const npm = (name: string): PackageRef => ({ ecosystem: 'npm', name, importName: name });
const pypi = (name: string, importName = name): PackageRef => ({ ecosystem: 'pypi', name, importName });

describe('a program that ran but never used its package', () => {
  it('a README line that prints a URI literal, no import', async () => {
    const program = "print('otpauth://totp/Secure%20App:alice%40google.com?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Secure%20App')\n'otpauth://hotp/Secure%20App:alice%40google.com?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Secure%20App&counter=0'\n";
    assert.deepEqual(await programUsesPackage(program, pypi('pyotp')), { uses: false, why: 'it never imports the package', refusal: 'never_imports' });
  });

  it('a Go block that prints zero-value local structs', async () => {
    const program = `package main

import (
\t"fmt"
\t"time"
)

type DateTime struct {
\ttime.Time
}

type Client struct { // Our example struct with a custom type (DateTime)
\tId       string   \`csv:"id"\`
\tEmployed DateTime \`csv:"employed"\`
}

func main() {
\tfmt.Printf("%+v\\n", DateTime{})
\tfmt.Printf("%+v\\n", Client{})
}
`;
    assert.equal((await programUsesPackage(program, go('github.com/gocarina/gocsv'))).uses, false);
  });

  it("a local copy of the package's settings type, printed: it imports the package but never calls it", async () => {
    const program = `package main

import (
\t"fmt"
\t"github.com/sony/gobreaker"
\t"time"
)

type Settings struct {
\tName          string
\tInterval      time.Duration
\tReadyToTrip   func(counts gobreaker.Counts) bool
\tOnStateChange func(name string, from gobreaker.State, to gobreaker.State)
}

func main() {
\tfmt.Printf("%+v\\n", Settings{})
}
`;
    assert.deepEqual(await programUsesPackage(program, go('github.com/sony/gobreaker')), { uses: false, why: 'nothing it prints comes from a call into the package', refusal: 'no_output_from_package' });
  });

  it('a constant read, not a call', async () => {
    assert.equal((await programUsesPackage('fn main() {\n    println!("bcrypt::DEFAULT_COST = {:?}", bcrypt::DEFAULT_COST);\n}\n', crate('bcrypt'))).uses, false);
    assert.equal((await programUsesPackage('import demo\nprint(demo.__version__)\n', pypi('demo'))).uses, false);
  });
});

describe('a program that prints what its package computed', () => {
  it('Python: an import and a chain of calls', async () => {
    const program = 'import semver\nver = semver.Version.parse("3.4.5")\nprint(ver.bump_major())\nprint(ver.bump_major().bump_minor())\n';
    assert.equal((await programUsesPackage(program, pypi('semver'))).uses, true);
    // The module is named apart from the distribution; a class built on the package's base class.
    const model = 'from pydantic import BaseModel\n\nclass User(BaseModel):\n    id: int\n    name: str = "Jane"\n\nuser = User(id="123")\nprint(user.model_dump())\n';
    assert.equal((await programUsesPackage(model, pypi('pydantic'))).uses, true);
    // A doctest run in its module's namespace calls the module's names unqualified.
    const doctest = "# A doctest runs in its module's namespace, as doctest itself runs it.\nimport babel.core as _module\nglobals().update({k: v for k, v in vars(_module).items() if not k.startswith('__')})\nlocale = Locale.parse('EN-us', sep='-')\nprint(repr(repr(locale)))\n";
    assert.equal((await programUsesPackage(doctest, pypi('babel'))).uses, true);
    assert.equal((await programUsesPackage('import sklearn\nfrom sklearn.linear_model import LogisticRegression\nlogreg = LogisticRegression(max_iter=200)\nprint(logreg)\n', pypi('scikit-learn', 'sklearn'))).uses, true);
  });

  it('npm: a scoped package, a callback inside an options object, a function handed over by name', async () => {
    const msgpack = 'import { encode } from "@msgpack/msgpack";\n\nconst encoded: Uint8Array = encode({ foo: "bar" });\nconst buffer: Buffer = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);\nconsole.log(buffer);\n';
    assert.equal((await programUsesPackage(msgpack, npm('@msgpack/msgpack'))).uses, true);
    const diff = "import fs from 'node:fs';\nimport {applyPatches} from 'diff';\nconst patch = fs.readFileSync('mydiff.patch').toString();\napplyPatches(patch, {\n    complete: (err) => {\n        if (err) {\n            console.log('Failed with error:', err);\n        }\n    }\n});\n";
    assert.equal((await programUsesPackage(diff, npm('diff'))).uses, true);
    const micromatch = "import micromatch from 'micromatch';\n\nconst onIgnore = ({ glob, regex, input, output }) => {\n  console.log({ glob, regex, input, output });\n};\n\nconst isMatch = micromatch.matcher('*', { onIgnore, ignore: 'f*' });\nisMatch('foo');\n";
    assert.equal((await programUsesPackage(micromatch, npm('micromatch'))).uses, true);
    const cjs = "const { diffChars } = require('diff');\ndiffChars('beep boop', 'beep boob').forEach((part) => console.log(part.value));\n";
    assert.equal((await programUsesPackage(cjs, npm('diff'))).uses, true);
  });

  it('Rust: a derive, a struct pattern, a trait brought in for its methods', async () => {
    const logos = 'use logos::Logos;\n\n#[derive(Logos, Debug, PartialEq)]\n#[logos(skip r"[ \\t\\n\\f]+")] // Ignore this regex pattern between tokens\nenum Token {\n    #[token("fast")]\n    Fast,\n}\n\nfn main() {\n    let mut lex = Token::lexer("Create ridiculously fast Lexers.");\n    match (&(lex.next()), &(Some(Ok(Token::Fast)))) { (left, right) => { println!("{:?}", left); assert_eq!(left, right); } };\n}\n';
    assert.equal((await programUsesPackage(logos, crate('logos'))).uses, true);
    const rcgen = 'fn main() {\n    use rcgen::{generate_simple_self_signed, CertifiedKey};\n    let subject_alt_names = vec!["localhost".to_string()];\n    let CertifiedKey { cert, signing_key } = generate_simple_self_signed(subject_alt_names).unwrap();\n    println!("{}", cert.pem());\n    println!("{}", signing_key.serialize_pem());\n}\n';
    assert.equal((await programUsesPackage(rcgen, crate('rcgen'))).uses, true);
    const inline = 'use chrono::Utc;\nfn main() {\n    let now = Utc::now();\n    println!("{now}");\n}\n';
    assert.equal((await programUsesPackage(inline, crate('chrono'))).uses, true);
    const trait = 'fn main() {\n    use std::time::Duration;\n    use governor::clock::Reference;\n    let diff = Duration::from_secs(20).duration_since(Duration::from_secs(10));\n    match (&(diff), &(Duration::from_secs(10).into())) { (left, right) => { println!("{:?}", left); assert_eq!(left, right); } };\n}\n';
    assert.match((await programUsesPackage(trait, crate('governor'))).why, /Reference, named nowhere else/);
  });

  it('Go: through a local printing helper, and a package that renders the output itself', async () => {
    const helper = `package main

import (
\t"fmt"
\t"github.com/Knetic/govaluate"
)

func main() {
\texpression, err := govaluate.NewEvaluableExpression("10 > 0")
\tresult, err := expression.Evaluate(nil)
\tprintValue(result)
\tif err != nil {
\t\tpanic(err)
\t}
}

func printValue(vs ...any) {
\tfmt.Println(vs...)
}
`;
    assert.equal((await programUsesPackage(helper, go('github.com/Knetic/govaluate'))).uses, true);
    const renders = `package main

import (
\t"os"
\t"github.com/olekukonko/tablewriter"
)

func main() {
\ttable := tablewriter.NewWriter(os.Stdout)
\ttable.Append([]string{"a", "b"})
\ttable.Render()
}
`;
    assert.deepEqual(await programUsesPackage(renders, go('github.com/olekukonko/tablewriter')), { uses: true, why: 'the package writes the output (table.Render)' });
    // A major-version module whose package name is its path's part before /vN; a database driver imported blank.
    assert.equal((await programUsesPackage('package main\n\nimport (\n\t"fmt"\n\t"github.com/oklog/ulid/v2"\n)\n\nfunc main() {\n\tfmt.Println(ulid.Make())\n}\n', go('github.com/oklog/ulid/v2'))).uses, true);
    assert.equal((await programUsesPackage('package main\n\nimport (\n\t"database/sql"\n\t"fmt"\n\t_ "github.com/mattn/go-sqlite3"\n)\n\nfunc main() {\n\tdb, _ := sql.Open("sqlite3", ":memory:")\n\tfmt.Println(db.Ping())\n}\n', go('github.com/mattn/go-sqlite3'))).uses, true);
  });
});

describe('verification counts only runs that used the package', () => {
  const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo' };
  const host = { pythonStdlib: new Set(['sys']), goStd: new Map<string, string>(), runtimes: {} };
  const tool = { slug: 'pypi-demo', ecosystem: 'pypi', name: 'demo' } as ToolRecord;
  const scored = (code: string, score: number): ScoredCandidate => ({ code, language: 'python', origin: 'readme', path: 'README.md', source: `u#${score}`, score, blockers: [], signals: [] });
  const config = loadConfig({ TOOLDEX_HOME: '/tmp/tooldex-unit-package-use', TOOLDEX_QUICKSTART_MAX_RUNS: 8 });

  it('passes over a program that prints without calling the package, and one that never imports it, for one that does', async () => {
    const sent: string[] = [];
    const sandbox = {
      async run(request: TestRequest): Promise<TestResult> {
        const code = request.files[0]!.code;
        sent.push(code);
        const stdout = code.includes('total(') ? '3' : 'a printed literal';
        return { ok: true, status: 'ran', stdout: `${stdout}\n`, stderr: '', exitCode: 0, sessionId: 's1', sessionExpiresAt: null, sessionReused: false, phases: { provisionMs: 1, installMs: 1, runMs: 1 } as TestResult['phases'] };
      },
    };
    const candidates = [scored("print('a printed literal')", 9), scored("import demo\nprint('a printed literal')", 8), scored('import demo\nprint(demo.total([1, 2]))', 7)];
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox, keepAlive: async () => true }, tool, '1.0', info, host, candidates);
    assert.equal(outcome.status, 'ran');
    assert.equal(outcome.result.verified.stdout, '3');
    // The first was never run; the second ran and was not counted.
    assert.equal(sent.some((c) => c.startsWith("print('a printed literal')")), false);
    assert.deepEqual(outcome.result.tried.map((t) => t.status), ['not_a_program', 'ran_silent', 'ran']);
    assert.match(outcome.result.tried[1]!.detail ?? '', /nothing it prints comes from a call into the package/);
  });

  it('a failure never shows a program that never imports the package: the first that passed the check, or none', async () => {
    const failing = {
      async run(): Promise<TestResult> {
        return { ok: false, status: 'failed_run', stdout: '', stderr: 'Traceback: boom\n', exitCode: 1, sessionId: 's1', sessionExpiresAt: null, sessionReused: false, phases: { provisionMs: 1, installMs: 1, runMs: 1 } as TestResult['phases'] };
      },
    };
    const deps = { config, logger: createLogger('error'), sandbox: failing, keepAlive: async () => true };
    const none = await tryCandidates(deps, tool, '1.0', info, host, [scored("print('a printed literal')", 9), scored('print(1 + 1)', 8)]);
    assert.notEqual(none.status, 'ran');
    assert.equal(none.result.quickstart, null);
    const second = await tryCandidates(deps, tool, '1.0', info, host, [scored("print('a printed literal')", 9), scored('import demo\nprint(demo.total([1, 2]))', 8)]);
    assert.notEqual(second.status, 'ran');
    assert.match(second.result.quickstart?.code ?? '', /demo\.total/);
  });
});

describe('names taken from the package without a call (aliases, member reads, destructuring)', () => {
  it("the CommonJS import rewrite's output: a class destructured from the default import", async () => {
    const { commonJsImports } = await import('../../../src/quickstart/programs/cjs-imports.ts');
    const code = await commonJsImports("import { RRule, datetime } from 'rrule';\nconst rule = new RRule({ dtstart: datetime(2020, 1, 1), count: 2 });\nconsole.log(rule.all());\n",
      'javascript', 'rrule', { require: true, esm: { default: true, named: [] }, defaultKeys: ['RRule', 'datetime'], commonjs: true });
    assert.match(code, /const \{ RRule, datetime \} = rrule;/);
    assert.equal((await programUsesPackage(code, npm('rrule'))).uses, true);
  });

  it("an ES module's default import destructured, a member read and a require destructured", async () => {
    assert.equal((await programUsesPackage("import pg from 'pg';\nconst { Client } = pg;\nconst client = new Client();\nconsole.log(client.database);\n", npm('pg'))).uses, true);
    assert.equal((await programUsesPackage("const lib = require('p');\nconst parse = lib.parse;\nconsole.log(parse('x'));\n", npm('p'))).uses, true);
    assert.equal((await programUsesPackage("const lib = require('p');\nconst { a: { b } } = lib;\nconsole.log(b(1));\n", npm('p'))).uses, true);
  });

  it('a Python module alias', async () => {
    assert.equal((await programUsesPackage('import numpy\nnp = numpy\nprint(np.arange(3))\n', pypi('numpy'))).uses, true);
  });

  it('a constant read through an alias still needs a call', async () => {
    assert.equal((await programUsesPackage("import pg from 'pg';\nconst { defaults } = pg;\nconsole.log(defaults);\n", npm('pg'))).uses, false);
    assert.equal((await programUsesPackage('import numpy\nnp = numpy\nv = np.pi\nprint(v)\n', pypi('numpy'))).uses, false);
  });
});

describe('JSX programs are read with the grammar they run with', () => {
  it('a .jsx/.tsx program is parsed as tsx: the typescript grammar reads <div> as a type assertion', async () => {
    const program = "import { format } from 'pkg';\nconst view = <div title=\"t\">{format(1)}</div>;\nconsole.log(view.props.children);\n";
    assert.equal((await programUsesPackage(program, npm('pkg'), 'main.jsx')).uses, true);
    assert.equal((await programUsesPackage(program, npm('pkg'), 'main.tsx')).uses, true);
    assert.equal((await programUsesPackage(program, npm('pkg'), 'main.ts')).uses, false);
  });
});

describe('a Python distribution with several top-level modules', () => {
  it('accepts a program that imports any module the distribution ships (attrs ships attr and attrs)', async () => {
    const program = 'import attr\n\n@attr.s\nclass C:\n    x = attr.ib()\n\nprint(C(1))\n';
    assert.equal((await programUsesPackage(program, { ...pypi('attrs'), pyModules: ['attrs', 'attr'] })).uses, true);
    assert.equal((await programUsesPackage(program, pypi('attrs'))).refusal, 'never_imports');
  });

  it("reads the modules from the distribution's top_level.txt, else its top-level packages", async () => {
    const { pythonModules } = await import('../../../src/quickstart/package-info.ts');
    const file = (path: string, text: string) => ({ path, bytes: new TextEncoder().encode(text) });
    const files = (list: Array<{ path: string; bytes: Uint8Array }>) => ({ files: list, importName: 'attrs', fileUrl: () => '' });
    assert.deepEqual(pythonModules(files([file('attrs-23.1.0.dist-info/top_level.txt', 'attr\nattrs\n'), file('attr/__init__.py', '')])), ['attrs', 'attr']);
    assert.deepEqual(pythonModules(files([file('src/attr/__init__.py', ''), file('src/attrs/__init__.py', ''), file('tests/__init__.py', '')])), ['attrs', 'attr']);
  });
});
