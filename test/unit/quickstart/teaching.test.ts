// Quickstarts that teach: candidates scored by how central their API is. Doctests of modules deep in the package
// (pandas' relabel_result in pandas/core/apply.py, requests' status-code table) rank below README and guide examples
// and below doctests of the entry point; calls of the entry point's public names count up. Pure scoring; no network.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { blockersOf, definitionsOnly, doctestDepth, goExampleUsesModule, internalImports, otherMajorImports, rankCandidates } from '../../../src/quickstart/score.ts';
import { docstringOwner } from '../../../src/quickstart/collect.ts';
import type { Candidate } from '../../../src/quickstart/types.ts';

const doctest = (path: string, code: string): Candidate => ({ code, language: 'pycon', origin: 'doctest', path, source: path });

describe('central API first', () => {
  it('measures how deep a doctest sits below the entry point', () => {
    assert.deepEqual(doctestDepth(doctest('pandas/core/apply.py', '>>> 1'), 'pypi', 'pandas'), { depth: 2, private: false, modules: ['core', 'apply'] });
    assert.deepEqual(doctestDepth(doctest('src/requests/__init__.py', '>>> 1'), 'pypi', 'requests'), { depth: 0, private: false, modules: [] });
    assert.deepEqual(doctestDepth(doctest('pandas/_libs/lib.py', '>>> 1'), 'pypi', 'pandas'), { depth: 2, private: true, modules: ['_libs', 'lib'] });
    assert.deepEqual(doctestDepth({ ...doctest('src/sync/mutex.rs', '1'), language: 'rust' }, 'crates', 'tokio'), { depth: 2, private: false, modules: ['sync', 'mutex'] });
    assert.equal(doctestDepth({ ...doctest('README.md', '1'), origin: 'readme' }, 'pypi', 'pandas'), undefined);
  });

  it('a doctest of a function named like the public subpackage it lives in documents that function, not the entry point\'s name', () => {
    // The entry point exports the subpackage `metrics`; `metrics/edit_py.py` defines a function `metrics` too.
    const inner = { ...doctest('fuzzy/metrics/edit_py.py', '>>> from fuzzy.metrics import Edit\n>>> Edit.metrics("ab", "abc")\n1'), owner: 'metrics' };
    const frame = { ...doctest('fuzzy/core/frame.py', '>>> import fuzzy\n>>> fuzzy.Frame([1]).size()\n1'), owner: 'Frame' };
    const ranked = rankCandidates([inner, frame], 'pypi', 'fuzzy', 'fuzzy', [], { publicNames: ['metrics', 'Frame', 'ratio'] });
    assert.equal(ranked[0]!.path, 'fuzzy/core/frame.py');
    assert.ok(ranked[0]!.signals.some((s) => s.startsWith('documents Frame')), ranked[0]!.signals.join());
    assert.ok(!ranked[1]!.signals.some((s) => s.startsWith('documents metrics')), ranked[1]!.signals.join());
    assert.ok(ranked[1]!.signals.some((s) => /inner module \(depth 2\)/.test(s)), ranked[1]!.signals.join());
  });

  it('an npm example that calls a name the package exports uses the package, import line or not', () => {
    const jsdoc: Candidate = { code: "DateTime.fromISO('2014-08-06').plus({ days: 1 }).toISO() //=> '2014-08-07'", language: 'js', origin: 'doc-comment', path: 'index.d.ts', source: 'd' };
    const [scored] = rankCandidates([jsdoc], 'npm', 'tz-demo', 'tz-demo', ['DateTime', 'Duration']);
    assert.ok(scored!.signals.includes('uses the package'), scored!.signals.join());
    const [unnamed] = rankCandidates([jsdoc], 'npm', 'tz-demo', 'tz-demo', []);
    assert.ok(unnamed!.signals.includes('does not name the package'));
  });

  it('puts a guide\'s use of the public API before an inner helper\'s doctest (pandas)', () => {
    const helper = doctest('pandas/core/apply.py', '>>> result = relabel_result(funcs, columns, order)\n>>> result\n{}');
    const guide: Candidate = { code: 'import pandas as pd\n\ndf = pd.DataFrame({"a": [1, 2]})\nprint(df.describe())', language: 'python', origin: 'docs', path: 'doc/source/getting_started/intro.rst', source: 'g' };
    const ranked = rankCandidates([helper, guide], 'pypi', 'pandas', 'pandas', [], { publicNames: ['DataFrame', 'Series', 'read_csv'] });
    assert.equal(ranked[0]!.source, 'g');
    assert.ok(ranked[1]!.signals.some((s) => /inner module \(depth 2\)/.test(s)), ranked[1]!.signals.join());
    assert.ok(ranked[0]!.signals.includes('calls the entry point\'s public API'));
  });

  it('among doctests equally deep, one that fetches an internal helper comes last (pandas\' relabel_result)', () => {
    const helper = doctest('pandas/core/apply.py', '>>> from pandas.core.apply import relabel_result\n>>> result = pd.DataFrame({"A": [1]})\n>>> relabel_result(result, funcs, columns, order)\n{}');
    const frame = doctest('pandas/core/frame.py', '>>> df = pd.DataFrame({"a": [1, 2]})\n>>> df.sum()\na    3\ndtype: int64');
    // `pd` is what pandas' docs bind it to (their doctests use it without importing it).
    const ranked = rankCandidates([helper, frame], 'pypi', 'pandas', 'pandas', ['pd'], { publicNames: ['DataFrame', 'Series'] });
    assert.equal(ranked[0]!.path, 'pandas/core/frame.py');
    assert.ok(ranked[1]!.signals.includes('uses internals (relabel_result)'), ranked[1]!.signals.join());
    // A public name fetched from where it is defined is not an internal one.
    assert.deepEqual(internalImports('from pandas.core.frame import DataFrame\nfrom pandas._libs.lib import is_list_like', 'pandas', new Set(['DataFrame', 'is_list_like'])), ['is_list_like']);
  });

  it('puts the entry point\'s doctest before a table module\'s doctest (requests)', () => {
    const table = doctest('requests/status_codes.py', ">>> import requests\n>>> requests.codes['temporary_redirect']\n307");
    const entry = doctest('requests/__init__.py', ">>> import requests\n>>> req = requests.Request('GET', '/get', params={'q': 1})\n>>> req.prepare().method\n'GET'");
    const ranked = rankCandidates([table, entry], 'pypi', 'requests', 'requests', [], { publicNames: ['Request', 'get', 'codes'] });
    assert.equal(ranked[0]!.path, 'requests/__init__.py');
  });

  it('a version read or a constant lookup that calls nothing ranks below an example that uses the package (cryptography, requests.codes)', () => {
    const version = { code: '>>> import cryptography\n>>> cryptography.__version__\n\'50.0.2\'', language: 'pycon', origin: 'docs' as const, path: 'docs/installation.rst', source: 'v' };
    const codes = { code: ">>> import requests\n>>> requests.codes['temporary_redirect']\n307", language: 'pycon', origin: 'readme' as const, path: 'README.md', source: 'c' };
    const use = { code: '>>> from cryptography.fernet import Fernet\n>>> f = Fernet(Fernet.generate_key())\n>>> f.decrypt(f.encrypt(b"secret"))\nb\'secret\'', language: 'pycon', origin: 'docs' as const, path: 'docs/fernet.rst', source: 'u' };
    const ranked = rankCandidates([version, codes, use], 'pypi', 'cryptography', 'cryptography');
    assert.equal(ranked[0]!.source, 'u');
    assert.ok(ranked.find((c) => c.source === 'v')!.signals.includes('only reads the version'));
    assert.ok(ranked.find((c) => c.source === 'c')!.signals.includes('calls nothing'));
  });

  it('a doctest in the docstring of an exported name ranks above one of an inner helper, wherever their modules live (pandas)', () => {
    const lines = ['class DataFrame(NDFrame):', '    """', '    Two-dimensional data.', '', '    >>> df = pd.DataFrame({"a": [1, 2]})', '    >>> df', '', '    """', '    def describe(self):', '        """', '        >>> df.describe()', '        """', 'def _relabel(x):', '    """', '    >>> _relabel(1)', '    """'];
    assert.equal(docstringOwner(lines, 4, 4), 'DataFrame');
    assert.equal(docstringOwner(lines, 10, 8), 'DataFrame.describe');
    assert.equal(docstringOwner(lines, 14, 4), '_relabel');
    const cls = { ...doctest('pandas/core/frame.py', '>>> df = pd.DataFrame({"a": [1, 2]})\n>>> df\n   a\n0  1'), owner: 'DataFrame', source: 'cls' };
    const method = { ...doctest('pandas/core/frame.py', '>>> df = pd.DataFrame({"a": [1, 2]})\n>>> df.describe()\n   a'), owner: 'DataFrame.describe', source: 'method' };
    const helper = { ...doctest('pandas/core/apply.py', '>>> df = pd.DataFrame({"a": [1, 2]})\n>>> relabel_result(df, 1, 2, 3)\n{}'), owner: 'relabel_result', source: 'helper' };
    const hidden = { ...doctest('pandas/core/apply.py', '>>> df = pd.DataFrame({"a": [1, 2]})\n>>> _relabel(df)\n{}'), owner: '_relabel', source: 'hidden' };
    const ranked = rankCandidates([hidden, helper, method, cls], 'pypi', 'pandas', 'pandas', ['pd'], { publicNames: ['DataFrame', 'Series'] });
    assert.deepEqual(ranked.map((c) => c.source), ['cls', 'method', 'helper', 'hidden'], ranked.map((c) => `${c.source} ${c.score} ${c.signals.join(',')}`).join('\n'));
    assert.ok(ranked[0]!.signals.includes('documents DataFrame, a public name of the entry point'));
    assert.ok(ranked[3]!.signals.some((s) => s.startsWith('doctest of a private helper')));
  });

  it('among programs tooldex writes, one calling what the docs\' examples call comes first, an underscored name last', () => {
    const api = (code: string, source: string): Candidate => ({ code, language: 'js', origin: 'api', path: 'index.d.ts', source });
    const docs: Candidate = { code: "import { transformSync } from '@babel/core';\nconst out = transformSync(code, { presets: [] });", language: 'js', origin: 'readme', path: 'README.md', source: 'readme' };
    const ranked = rankCandidates([api("console.log(__rewrite('example'));", 'under'), api('console.log(getEnv());', 'env'), api("console.log(transformSync('example'));", 'transform'), docs], 'npm', '@babel/core', '@babel/core');
    assert.deepEqual(ranked.filter((c) => c.origin === 'api').map((c) => c.source), ['transform', 'env', 'under']);
    assert.ok(ranked.find((c) => c.source === 'transform')!.signals.includes('calls what the docs\' examples call'));
  });

  it('a public module one level down is API, not internals (cryptography.fernet); pandas.core.apply still is', () => {
    assert.deepEqual(internalImports('from cryptography.fernet import Fernet', 'cryptography', new Set(['__version__'])), []);
    assert.deepEqual(internalImports('from pandas.core.apply import relabel_result', 'pandas', new Set(['DataFrame'])), ['relabel_result']);
    assert.deepEqual(internalImports('from attr._make import Factory', 'attr', new Set(['Factory'])), ['Factory']);
  });
});

describe('examples of another package', () => {
  const goExample = (path: string, code: string): Candidate => ({ code, language: 'go', origin: 'go-example', path, source: path, expectedOutput: 'hello' });

  it('a Go example that imports the standard library\'s package of the same name does not use the module', () => {
    const copied = 'import (\n\t"bytes"\n\t"compress/zlib"\n)\n\nfunc ExampleNewReader() {\n\tr, _ := zlib.NewReader(bytes.NewReader(nil))\n\t_ = r\n\t// Output: hello\n}';
    const own = 'import (\n\t"bytes"\n\t"github.com/acme/squash/zlib"\n)\n\nfunc ExampleNewReader() {\n\tr, _ := zlib.NewReader(bytes.NewReader(nil))\n\t_ = r\n}';
    const inPackage = 'import "bytes"\n\nfunc ExampleNewReader() {\n\tr, _ := NewReader(bytes.NewReader(nil))\n\t_ = r\n}';
    assert.equal(goExampleUsesModule(copied, 'github.com/acme/squash'), false);
    assert.equal(goExampleUsesModule(own, 'github.com/acme/squash'), true);
    assert.equal(goExampleUsesModule(inPackage, 'github.com/acme/squash'), true);
    const ranked = rankCandidates([goExample('zlib/example_test.go', copied), goExample('gzip/example_test.go', own)], 'go', 'github.com/acme/squash', 'github.com/acme/squash');
    assert.equal(ranked[0]!.path, 'gzip/example_test.go');
    assert.ok(ranked[1]!.signals.includes('does not name the package'));
  });

  it('a Go example of another major version of the module is another module\'s', () => {
    const v1 = 'package main\n\nimport "github.com/acme/cli"\n\nfunc main() {\n\tcli.NewApp().Run(nil)\n}';
    assert.deepEqual(otherMajorImports(v1, 'github.com/acme/cli/v2'), ['github.com/acme/cli']);
    assert.deepEqual(otherMajorImports(v1.replace('acme/cli"', 'acme/cli/v2"'), 'github.com/acme/cli/v2'), []);
    assert.deepEqual(otherMajorImports(v1.replace('acme/cli"', 'acme/cli/v3"'), 'github.com/acme/cli'), ['github.com/acme/cli/v3']);
    const [scored] = rankCandidates([{ code: v1, language: 'go', origin: 'docs', path: 'docs/v1/getting-started.md', source: 'd' }], 'go', 'github.com/acme/cli/v2', 'github.com/acme/cli/v2');
    assert.ok(scored!.signals.includes('does not name the package'), scored!.signals.join());
  });

  it('a `[...]` left for the reader is a placeholder; an array spread is not', () => {
    assert.ok(blockersOf('let test_struct: TestStruct = [...];').includes('has placeholders'));
    assert.ok(!blockersOf('const all = [...list, 1];').includes('has placeholders'));
  });

  it('a Go fragment of package-level declarations only defines things; statements or a main do not', () => {
    assert.equal(definitionsOnly('import "github.com/acme/squash/zstd"\n\nvar encoder, _ = zstd.NewWriter(nil)\n\nfunc Compress(src []byte) []byte {\n\treturn encoder.EncodeAll(src, nil)\n}', 'go'), true);
    assert.equal(definitionsOnly('result := squash.Get(json, "name")\nprintln(result.String())', 'go'), false);
    assert.equal(definitionsOnly('func main() {\n\tfmt.Println(squash.Get("x"))\n}', 'go'), false);
  });

  it('an npm line whose comment shows its value shows output; a prose comment or a URL does not', () => {
    const rank = (code: string) => rankCandidates([{ code, language: 'js', origin: 'readme', path: 'README.md', source: 'r' }], 'npm', 'immutable', 'immutable')[0]!;
    assert.ok(rank("import { Map } from 'immutable';\nconst map2 = Map({ b: 1 }).set('b', 50);\nmap2.get('b'); // 50").signals.includes('shows output'));
    assert.ok(!rank("import { Map } from 'immutable';\nconst m = Map({ b: 1 }); // keep one\nconst u = 'https://x.org';").signals.includes('shows output'));
  });

  it('a URL literal only built or taken apart needs no network; one a call could send does', () => {
    assert.ok(!blockersOf(">>> url = URL('https://www.python.org/~guido?arg=1#frag')\n>>> url.host\n'www.python.org'").includes('needs network'));
    assert.ok(blockersOf("client = Client()\nr = client.get('https://api.example.org/users')").includes('needs network'));
    assert.ok(blockersOf("r = requests.get(url)").includes('needs network'));
    assert.ok(blockersOf("const body = await got('https://httpbin.org/anything').json();").includes('needs network'));
    assert.ok(!blockersOf("const u = new URL('https://example.org/a?b=1');\nconsole.log(u.hostname, u.pathname);").includes('needs network'));
    assert.ok(blockersOf("const base = 'https://api.example.org';\nawait client.request(base + '/x');").includes('needs network'));
  });
});

