// The rules of round 2's fourth session, PyPI: programs written from a package's public API when no example of its
// docs runs, top-level `await` as an asyncio program, command-line interfaces run with --help, and the public import
// name of a distribution that also ships a private module. Pure logic over real tree-sitter parses; no network.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importNameOf, ownMetadata } from '../../../src/docs/sources/pypi.ts';
import { collectCandidates, collectDataBlocks } from '../../../src/quickstart/collect.ts';
import { fixtureContent } from '../../../src/quickstart/fixtures.ts';
import { pythonExports } from '../../../src/quickstart/package-info.ts';
import { cliRetry, makeProgram, repairFor } from '../../../src/quickstart/programs/index.ts';
import { awaitsAtTopLevel, pythonProgram, withCliHelp } from '../../../src/quickstart/programs/python.ts';
import { pythonApiCandidates, sampleValue } from '../../../src/quickstart/python-api.ts';
import { rankCandidates } from '../../../src/quickstart/score.ts';
import type { PackageInfo, ScoredCandidate } from '../../../src/quickstart/types.ts';
import { API_RUNS, tryCandidates } from '../../../src/quickstart/verify.ts';
import { ToolDexError } from '../../../src/errors.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import type { TestRequest, TestResult } from '../../../src/sandbox/schema.ts';
import type { ToolRecord } from '../../../src/catalog/index.ts';

const file = (path: string, text: string) => ({ path, bytes: new TextEncoder().encode(text) });
const artifact = (importName: string, files: Array<{ path: string; bytes: Uint8Array }>) => ({ files, importName, fileUrl: (p: string, line?: number) => `u/${p}#${line ?? ''}` });
const host = { pythonStdlib: new Set(['asyncio', 'sys']), goStd: new Map<string, string>(), runtimes: {} };
const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo' };

describe('python programs from the public API', () => {
  const init = [
    'from .error import *', 'from .loader import load_text', '',
    'def dump(data, stream=None, Dumper=None, **kwds):', '    return repr(data)', '',
    'def load(stream, Loader):', '    return stream', '',
    'def add_constructor(tag, constructor):', '    pass', '',
    'def set_default(value):', '    return value', '',
    'def _helper(text):', '    return text', '',
    'def open_file(path):', '    return path', '',
    'def scan(text):', '    for ch in text:', '        yield ch', '',
    'def count(start=0):', '    while True:', '        yield start', '',
    'async def agen(text):', '    yield text', '',
    'def resource(*args, **kwargs):', '    return args', '',
    'def fetch_page(url: str) -> str:', '    return url', '',
    'def traced(name):', '    def wrap(f):', '        return f', '    return wrap', '',
    'class DemoError(Exception):', '    pass', '',
    'class Config:', '    def __init__(self, size=8, retries=2):', '        self.size = size', '        self.retries = retries', '',
    'class Quiet:', '    pass',
  ].join('\n');
  const loader = 'def load_text(text: str) -> dict:\n    return {"text": text}\n\ndef load_path(path):\n    return path\n';

  it('calls public functions whose required parameters take plain values, and constructs plain classes, package first', async () => {
    const found = await pythonApiCandidates(artifact('demo', [file('lib/demo/__init__.py', init), file('lib/demo/loader.py', loader), file('lib/demo/_impl.py', 'def dumps(data):\n    return data\n')]));
    const codes = found.map((c) => c.code);
    assert.ok(codes.length > 0 && codes.length <= 4);
    assert.ok(found.every((c) => c.origin === 'api' && c.language === 'python'));
    // A dict for `data`, nothing for the optional parameters; the package's own namespace.
    assert.ok(codes.includes('import demo\n\nprint(demo.dump({"name": "example", "count": 2}))'), codes.join('\n---\n'));
    // A class without a repr of its own: its public attributes, not an address.
    assert.ok(codes.includes('import demo\n\nconfig = demo.Config()\nprint({k: v for k, v in vars(config).items() if not k.startswith("_")})'), codes.join('\n---\n'));
    // Never: a parameter no plain value fits (`Loader`, `path`), side effects (`set_`, `add_`, `open_`), private names or modules, exceptions, classes holding nothing.
    for (const absent of ['fetch_page', 'traced', 'count(', 'agen', 'resource', 'load(', 'set_default', 'add_constructor', '_helper', 'open_file', 'DemoError', 'Quiet', 'dumps', 'load_path']) {
      assert.ok(!codes.some((c) => c.includes(absent)), `${absent} should not be called`);
    }
    assert.equal(found[0]!.source, `u/lib/demo/__init__.py#${init.split('\n').indexOf('def dump(data, stream=None, Dumper=None, **kwds):') + 1}`);
    // A re-export of the package's `__init__` is called through the package; a generator's values are listed.
    const all = await pythonApiCandidates(artifact('demo', [file('demo/__init__.py', 'from .loader import load_text\n\ndef scan(text):\n    for ch in text:\n        yield ch\n'), file('demo/loader.py', loader)]));
    assert.deepEqual(all.map((c) => c.code).sort(), ['import demo\n\nprint(demo.load_text("example"))', 'import demo\n\nprint(list(demo.scan("example")))']);
    // `from ._models import *` re-exports its public names; a package with modules of its own is not a namespace to descend from.
    const star = await pythonApiCandidates(artifact('demo', [file('demo/__init__.py', 'from ._models import *\n'), file('demo/_models.py', '__all__ = ["Request"]\n\nclass Request:\n    def __init__(self, method: str):\n        self.method = method\n\n    def __repr__(self):\n        return self.method\n')]));
    assert.deepEqual(star.map((c) => c.code), ['import demo\n\nrequest = demo.Request("example")\nprint(request)']);
    const own = await pythonApiCandidates(artifact('demo', [file('demo/__init__.py', '__version__ = "1"\n'), file('demo/config.py', 'def render(data):\n    return data\n'), file('demo/sub/__init__.py', 'def other(text):\n    return text\n')]));
    assert.deepEqual(own.map((c) => c.code), ['from demo import config\n\nprint(config.render({"name": "example", "count": 2}))']);
    // Re-exported from a private module: called through the package; the private module itself is never called by its path.
    const events = 'class Data:\n    def __init__(self, data: Union[bytes, str], chunk_end: bool = False):\n        self.data = data\n\n    def __repr__(self):\n        return f"Data({self.data!r})"\n\nclass Hidden:\n    def __repr__(self):\n        return "h"\n';
    const reexported = await pythonApiCandidates(artifact('demo', [file('demo/__init__.py', 'from ._events import Data\n'), file('demo/_events.py', events)]));
    assert.deepEqual(reexported.map((c) => c.code), ['import demo\n\ndata = demo.Data(b"example")\nprint(data)']);
  });

  it('descends from a namespace package to the one package inside it and calls its modules by their annotations', async () => {
    const files = [
      file('google/__init__.py', 'from pkgutil import extend_path\n\n__path__ = extend_path(__path__, __name__)\n'),
      file('google/protobuf/__init__.py', "__version__ = '6.0'\n"),
      file('google/protobuf/duration.py', 'from google.protobuf.duration_pb2 import Duration\n\ndef from_seconds(seconds: float) -> Duration:\n    d = Duration()\n    d.FromSeconds(seconds)\n    return d\n\ndef to_json(duration: Duration) -> str:\n    return duration.ToJsonString()\n'),
      file('google/protobuf/duration_pb2.py', 'Duration = None\n'),
    ];
    const found = await pythonApiCandidates(artifact('google', files));
    assert.deepEqual(found.map((c) => c.code), ['from google.protobuf import duration\n\nprint(duration.from_seconds(2))']);
  });

  it('gives plain values by annotation, else by what the parameter name says, and none for files, hosts or objects', () => {
    assert.equal(sampleValue('x', 'str'), '"example"');
    assert.equal(sampleValue('x', 'Optional[int]'), '2');
    assert.equal(sampleValue('x', 'bytes | None'), 'b"example"');
    assert.equal(sampleValue('x', 'datetime.timedelta'), undefined);
    assert.equal(sampleValue('text'), '"example"');
    assert.equal(sampleValue('num_digits'), '2');
    assert.equal(sampleValue('data'), '{"name": "example", "count": 2}');
    for (const name of ['path', 'url', 'host', 'client', 'callback', 'Loader']) assert.equal(sampleValue(name), undefined);
    assert.equal(sampleValue('url', 'str'), undefined, 'a URL typed as a string is still a URL');
    assert.equal(sampleValue('base_url', 'URL | str'), undefined);
    assert.equal(sampleValue('status_code', 'int'), '200');
  });

  it('ranks the written programs after the docs\' examples and makes them whole scripts', async () => {
    const files = [file('demo/__init__.py', 'def dump(data):\n    return repr(data)\n'), file('README.md', '```python\nimport demo\nprint(demo.dump([1]))\n```\n')];
    const ranked = rankCandidates(await collectCandidates('pypi', artifact('demo', files)), 'pypi', 'demo', 'demo');
    assert.deepEqual(ranked.map((c) => c.origin), ['readme', 'api']);
    // Even a real example that scores low (it does not name the package, has a placeholder) is tried first.
    const weak = { code: 'x = YOUR_TOKEN\nprint(x)', language: 'python', origin: 'docs' as const, path: 'docs/a.md', source: 'w' };
    assert.deepEqual(rankCandidates([ranked[1]!, weak], 'pypi', 'demo', 'demo').map((c) => c.origin), ['docs', 'api']);
    // The written programs share scaffolding (`vars(…)`): it does not make them the package's "main use".
    const api = ['import demo\n\nprint(demo.dump([1]))', 'import demo\n\nc = demo.C()\nprint(vars(c))', 'import demo\n\nd = demo.D()\nprint(vars(d))']
      .map((code) => ({ code, language: 'python', origin: 'api' as const, path: 'demo/__init__.py', source: code }));
    assert.deepEqual(rankCandidates(api, 'pypi', 'demo', 'demo').map((c) => c.code), api.map((c) => c.code));
    const program = await makeProgram(ranked[1]!, info, host);
    const helper = await makeProgram({ code: 'import demo\nimport _cffi_src\nimport attr\nprint(demo.x)', language: 'python', origin: 'readme', path: 'README.md', source: 'u' }, info, host);
    assert.deepEqual(helper.request.packages, ['demo==1.0', 'attrs'], 'a private module of the project\'s tree is not installed');
    assert.equal(repairFor(info, "ModuleNotFoundError: No module named '_cffi_src'", {}, host), undefined);
    assert.equal(program.code, 'import demo\n\nprint(demo.dump({"name": "example", "count": 2}))\n');
  });

  it('takes the public module of a distribution whose top_level.txt lists a private one first, wherever the package sits', async () => {
    assert.equal(importNameOf('PyYAML', '_yaml\nyaml\n', []), 'yaml');
    assert.equal(importNameOf('demo', '_only\n', []), '_only');
    assert.equal(importNameOf('setuptools', '_distutils_hack\npkg_resources\nsetuptools\n', []), 'setuptools');
    assert.equal(importNameOf('typing-extensions', 'typing_extensions\n', []), 'typing_extensions');
    const paths = ['setuptools/_vendor/autocommand-2.2.2.dist-info/top_level.txt', 'setuptools.egg-info/top_level.txt'].map((path) => ({ path }));
    assert.equal(ownMetadata(paths, 'top_level.txt')?.path, 'setuptools.egg-info/top_level.txt', 'the distribution\'s own, not a vendored one\'s');
    assert.equal(importNameOf('my-dist', undefined, ['longer', 'pkg']), 'pkg');
    assert.equal(importNameOf('my-dist', undefined, []), 'my_dist');
    const exported = await pythonExports(artifact('yaml', [file('lib/yaml/__init__.py', 'def safe_load(stream):\n    pass\n')]), 'yaml');
    assert.deepEqual(exported, ['safe_load']);
  });
});

describe('names a script reads unbound', () => {
  it('after the first NameError, imports every other unbound name by the same rules at once, builtins and bound names aside', async () => {
    const withNames = { ...info, pyExports: ['fp', 'mp', 'mpf'] };
    const pyHost = { ...host, pythonStdlib: new Set(['datetime', 'sys']), pythonBuiltins: new Set(['print', 'len', 'range']) };
    const code = 'x = mp.mpf(1)\nprint(fp.sqrt(2), len(range(3)), datetime.date(2020, 1, 1), List, helper(x))';
    const candidate = { code, language: 'python', origin: 'readme' as const, path: 'README.md', source: 'u' };
    // The first run's NameError named `mp` only; the rest come with it.
    const program = await makeProgram(candidate, withNames, pyHost, { pythonNames: ['mp'] });
    const imports = program.code.split('\n').filter((l) => /^(from|import) /.test(l));
    assert.deepEqual(imports.sort(), ['from demo import mp, fp', 'from typing import List', 'import datetime'].sort());
    // `helper` is the reader's (not the package's, not a standard module): left for the stand-in repair.
    assert.doesNotMatch(program.code, /import .*helper/);
    // `datetime` imported as the module but called as its class: the next run imports the class.
    const called = 'print(demo.next(datetime(2024, 1, 30)).get_next(datetime))';
    const module = await makeProgram({ ...candidate, code: called }, withNames, pyHost, { pythonImports: ['datetime'] });
    assert.match(module.code, /^import datetime$/m);
    const repaired = repairFor(withNames, "TypeError: 'module' object is not callable", { pythonImports: ['datetime'] }, pyHost, module.code);
    assert.deepEqual(repaired, { pythonImports: [], pythonClassImports: ['datetime'] });
    const asClass = await makeProgram({ ...candidate, code: called }, withNames, pyHost, repaired);
    assert.match(asClass.code, /^from datetime import datetime$/m);
    assert.doesNotMatch(asClass.code, /^import datetime$/m);
    // No repair yet: the program is the example as it stands.
    const first = await makeProgram(candidate, withNames, pyHost);
    assert.doesNotMatch(first.code, /^from demo import/m);
  });
});

describe('top-level await', () => {
  it('runs a script that awaits at its top level as asyncio.run(main()), imports kept on top and its result printed', async () => {
    const code = 'from demo import get_session\nsession = get_session()\nasync with session.client("s3") as client:\n    resp = await client.list()\n    print(resp)';
    assert.equal(await awaitsAtTopLevel(code), true);
    assert.equal(await awaitsAtTopLevel('async def f():\n    await g()\n'), false);
    assert.equal(await pythonProgram(code, 'python', 'demo'), [
      'import asyncio', 'from demo import get_session', '', '', 'async def main():', '    session = get_session()',
      '    async with session.client("s3") as client:', '        resp = await client.list()', '        print(resp)', '', '', 'asyncio.run(main())', '',
    ].join('\n'));
    // A transcript's awaited value is printed, inside main.
    assert.equal(await pythonProgram('>>> import demo\n>>> await demo.get()\n3', 'pycon', 'demo'), 'import asyncio\nimport demo\n\n\nasync def main():\n    print(await demo.get())\n\n\nasyncio.run(main())\n');
  });
});

describe('command-line interfaces', () => {
  const click = [
    'import click', '', '@click.command()', '@click.option("--name", prompt="Your name")', 'def hello(name):', '    click.echo(f"Hello, {name}!")', '',
    "if __name__ == '__main__':", '    hello()',
  ].join('\n');

  it('runs a CLI script with --help, calling its root command or app when the script only defines it', async () => {
    const help = 'sys.argv[1:] = ["--help"]';
    const ran = await withCliHelp(click);
    assert.ok(ran.startsWith(`import click\nimport sys\n\n${help}`));
    assert.ok(ran.endsWith("if __name__ == '__main__':\n    hello()"), 'already called: not called again');
    const group = await withCliHelp('import click\n\n@click.group()\ndef cli():\n    pass\n\n@cli.command()\ndef initdb():\n    click.echo("done")');
    assert.ok(group.endsWith('\n\ncli()\n'));
    const typer = await withCliHelp('import typer\napp = typer.Typer()\n\n@app.command()\ndef hello(name: str):\n    print(name)');
    assert.ok(typer.includes(help) && typer.endsWith('\n\napp()\n'));
  });

  it('retries a silent CLI script, or one that failed with a usage error, with --help, once, and says so', async () => {
    assert.deepEqual(cliRetry(click, {}), { cliHelp: true });
    assert.equal(cliRetry(click, { cliHelp: true }), undefined);
    assert.equal(cliRetry('import demo\nprint(demo.x)', {}), undefined);
    const stderr = 'Usage: main.py [OPTIONS] NAME\nTry \'main.py --help\' for help.\n\nError: Missing argument \'NAME\'.';
    assert.equal(repairFor(info, stderr, {}, host)?.cliHelp, true);
    assert.equal(repairFor(info, 'usage: main.py [-h] path\nmain.py: error: the following arguments are required: path', {}, host)?.cliHelp, true);
    assert.equal(repairFor(info, 'usage: main.py [global_opts] cmd1 [cmd1_opts] [cmd2 [cmd2_opts] ...]\n\nerror: no commands supplied', {}, host)?.cliHelp, true);
    assert.equal(repairFor(info, 'Traceback (most recent call last):\nValueError: usage: bad', {}, host), undefined);
    assert.equal(repairFor(info, 'Your name: Aborted!', {}, host, click)?.cliHelp, true, 'a prompt without a terminal');
    assert.equal(repairFor(info, 'Your name: Aborted!', {}, host, 'import demo\nprint(demo.x)'), undefined, 'not a CLI script');
    assert.equal(repairFor(info, stderr, { cliHelp: true }, host), undefined, 'asked once: a second usage error is final');
    const program = await makeProgram({ code: click, language: 'python', origin: 'readme', path: 'README.md', source: 'u' }, info, host, { cliHelp: true });
    assert.match(program.code, /sys\.argv\[1:\] = \["--help"\]/);
    assert.match(program.note ?? '', /command-line program.*ran it with --help/);
  });
});

describe('examples a page includes from a file', () => {
  it('takes the file a literalinclude shows whole, relative to the page or to the docs folder, and not one shown in part', async () => {
    const snippet = 'from demo import run\n\nasync def main():\n    print("done")\n\nrun(main)\n';
    const page = ['Tasks', '=====', '', "Here's a demonstration:", '', '.. literalinclude:: snippets/tasks/group.py', '', '.. tabs::', '',
      '   .. tab:: one', '', '      .. literalinclude:: /snippets/other.py', '', '.. literalinclude:: snippets/tasks/group.py', '   :lines: 3-4', ''].join('\n');
    const files = [file('docs/tasks.rst', page), file('docs/snippets/tasks/group.py', snippet), file('docs/snippets/other.py', 'import demo\nprint(demo.x)\n')];
    const found = (await collectCandidates('pypi', artifact('demo', files))).filter((c) => c.origin === 'docs');
    assert.deepEqual(found.map((c) => [c.path, c.language, c.source]), [
      ['docs/snippets/tasks/group.py', 'python', 'u/docs/snippets/tasks/group.py#1'],
      ['docs/snippets/other.py', 'python', 'u/docs/snippets/other.py#1'],
    ]);
    assert.equal(found[0]!.code, snippet.trim());
  });
});

describe('vendored copies', () => {
  it('takes no example from a vendored copy of another project', async () => {
    const doctest = 'def f():\n    \"\"\"\n    >>> f()\n    1\n    \"\"\"\n    return 1\n';
    const found = await collectCandidates('pypi', artifact('demo', [file('demo/_vendor/other/core.py', doctest), file('demo/extern/x.py', doctest), file('demo/core.py', doctest)]));
    assert.deepEqual(found.filter((c) => c.origin === 'doctest').map((c) => c.path), ['demo/core.py']);
  });
});

describe('files an example reads, with the content the docs show', () => {
  const readme = [
    'Basic Example', '=============', '', 'If you have an ini file like this:', '', '.. code-block:: ini', '',
    '    # content of example.ini', '    [section1] # comment', '    name1=value1', '', 'then you can do:', '', '.. code-block:: pycon', '',
    "    >>> import demo", "    >>> ini = demo.IniConfig('example.ini')", "    >>> ini['section1']['name1']", "    'value1'", '',
  ].join('\n');

  it('creates the file from the data block that names it, else the one block of its kind on the page, else empty', async () => {
    const blocks = await collectDataBlocks(artifact('demo', [file('README.rst', readme)]));
    assert.deepEqual(blocks, [{ path: 'README.rst', language: 'ini', code: '# content of example.ini\n[section1] # comment\nname1=value1\n' }]);
    assert.equal(fixtureContent('example.ini', blocks, 'docs/other.rst'), blocks[0]!.code, 'named: wherever it is');
    const unnamed = [{ path: 'README.md', language: 'yaml', code: 'a: 1\n' }];
    assert.equal(fixtureContent('config.yml', unnamed, 'README.md'), 'a: 1\n');
    assert.equal(fixtureContent('config.yml', unnamed, 'docs/x.md'), undefined, 'another page: not known to be this file');
    assert.equal(fixtureContent('config.yml', [...unnamed, { path: 'README.md', language: 'yml', code: 'b: 2\n' }], 'README.md'), undefined, 'two candidates: not known which');
    assert.equal(fixtureContent('data.csv', unnamed, 'README.md'), undefined);
  });

  it('gives the file that content in the sandbox request, and says where it came from', async () => {
    const [candidate] = await collectCandidates('pypi', artifact('demo', [file('README.rst', readme)]));
    const withBlocks: PackageInfo = { ...info, dataBlocks: await collectDataBlocks(artifact('demo', [file('README.rst', readme)])) };
    const repaired = repairFor(withBlocks, "FileNotFoundError: [Errno 2] No such file or directory: 'example.ini'", {}, host);
    assert.deepEqual(repaired?.fixtures, ['example.ini']);
    const program = await makeProgram(candidate!, withBlocks, host, repaired);
    assert.deepEqual(program.request.files[1], { path: 'example.ini', code: '# content of example.ini\n[section1] # comment\nname1=value1\n' });
    assert.match(program.note ?? '', /created example\.ini with the content the docs show for it/);
    const bare = await makeProgram(candidate!, info, host, repaired);
    // Without the docs' content: a small valid file of its kind (an empty one would stop a parser before the example ran).
    assert.deepEqual(bare.request.files[1], { path: 'example.ini', code: '[example]\nname = example\nvalue = 1\n' });
    assert.match(bare.note ?? '', /created example\.ini with a small sample of its kind/);
  });
});

describe('the run budget', () => {
  it('keeps runs for the programs written from the API when the docs\' examples spend the whole budget failing', async () => {
    const config = loadConfig({ TOOLDEX_HOME: '/tmp/tooldex-unit-budget', TOOLDEX_QUICKSTART_MAX_RUNS: 4 });
    const sent: string[] = [];
    const sandbox = {
      async run(request: TestRequest): Promise<TestResult> {
        const code = request.files[0]!.code;
        sent.push(code);
        const ok = code.includes('demo.Config()');
        return {
          ok, status: ok ? 'ran' : 'failed_run', stdout: ok ? "{'size': 8}\n" : '', stderr: ok ? '' : 'botocore.exceptions.NoCredentialsError: Unable to locate credentials',
          exitCode: ok ? 0 : 1, sessionId: 's1', sessionExpiresAt: null, sessionReused: false, phases: { provisionMs: 1, installMs: 1, runMs: 1 } as TestResult['phases'],
        };
      },
    };
    const scored = (code: string, origin: ScoredCandidate['origin'], score: number): ScoredCandidate => ({ code, language: 'python', origin, path: 'README.md', source: `u#${sent.length}${code.length}`, score, blockers: [], signals: [] });
    const examples = Array.from({ length: 6 }, (_, i) => scored(`import demo\nprint(demo.client("s3").list(${i}))`, 'readme', 10 - i));
    const api = [scored('import demo\n\nprint(demo.dump(2))', 'api', 1), scored('import demo\n\nconfig = demo.Config()\nprint(vars(config))', 'api', 0)];
    const tool = { slug: 'pypi-demo', ecosystem: 'pypi', name: 'demo' } as ToolRecord;
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox, keepAlive: async () => true }, tool, '1.0', info, host, [...examples, ...api]);
    assert.equal(outcome.status, 'ran');
    assert.equal(outcome.result.verified.stdout, "{'size': 8}");
    assert.match(outcome.result.verified.note ?? '', /tooldex wrote this program from the package's exported API/);
    // Four runs for the docs' examples (the budget), then the API programs' own runs.
    assert.equal(sent.filter((c) => c.includes('client(')).length, 4);
    assert.equal(sent.length, 6);
    assert.ok(API_RUNS >= 2);
  });

  it('moves on to the next example when the sandbox refuses a program (4xx), and lets an outage through', async () => {
    const config = loadConfig({ TOOLDEX_HOME: '/tmp/tooldex-unit-refused', TOOLDEX_QUICKSTART_MAX_RUNS: 4 });
    const scored = (code: string, score: number): ScoredCandidate => ({ code, language: 'python', origin: 'readme', path: 'README.md', source: `u#${score}`, score, blockers: [], signals: [] });
    const candidates = [scored('import demo\nprint(demo.refused())', 2), scored('import demo\nprint(demo.size())', 1)];
    const tool = { slug: 'pypi-demo', ecosystem: 'pypi', name: 'demo' } as ToolRecord;
    const ran: TestResult = {
      ok: true, status: 'ran', stdout: '8\n', stderr: '', exitCode: 0, sessionId: 's1', sessionExpiresAt: null, sessionReused: false,
      phases: { provisionMs: 1, installMs: 1, runMs: 1 } as TestResult['phases'],
    };
    const refusing = {
      async run(request: TestRequest): Promise<TestResult> {
        if (request.files[0]!.code.includes('refused')) throw new ToolDexError('invalid_request', 422, 'packages[0] is not a valid package name');
        return ran;
      },
    };
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: refusing, keepAlive: async () => true }, tool, '1.0', info, host, candidates);
    assert.equal(outcome.status, 'ran');
    assert.equal(outcome.result.tried[0]!.status, 'refused');
    assert.match(outcome.result.tried[0]!.detail ?? '', /invalid_request/);
    const down = { async run(): Promise<TestResult> { throw new ToolDexError('sandbox_unavailable', 503, 'no namespaces'); } };
    await assert.rejects(tryCandidates({ config, logger: createLogger('error'), sandbox: down, keepAlive: async () => true }, tool, '1.0', info, host, candidates),
      (error: { code?: string }) => error.code === 'sandbox_unavailable');
  });
});
