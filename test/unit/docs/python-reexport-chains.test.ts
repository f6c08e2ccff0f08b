// Names a Python package re-exports but defines in private modules, reached the ways packages write it: a star import
// of a private module (`from ._core import *`, its `__all__` deciding), a chain through a public module
// (`pkg` → `pkg.api` → `pkg._client`), an import inside a module-level `try`/`if TYPE_CHECKING`, and a public
// non-package module that re-exports (`pkg/classes/query.py` listing `Filter` in `__all__`). Each definition's passage
// is labelled with the public path a reader imports, not the private module's.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromPythonPackage } from '../../../src/docs/extract/python.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const locate = (file: string, where: { line?: number; anchor?: string }) => `${file}#${where.line ?? where.anchor ?? ''}`;
const files = new Map(Object.entries({
  'pkg/__init__.py': [
    '"""The package."""',
    'from ._core import *',
    'from .api import Client',
    'try:',
    '    from ._speedups import fast_parse',
    'except ImportError:',
    '    fast_parse = None',
    '',
  ].join('\n'),
  'pkg/_core.py': [
    '__all__ = ["Engine", "connect"]',
    'class Engine:',
    '    """Runs queries against one database connection pool."""',
    '    def execute(self, query):',
    '        """Execute a query and return its rows."""',
    'def connect(url):',
    '    """Open a connection to the database at url."""',
    'def _helper():',
    '    """Not exported."""',
    'def unlisted():',
    '    """Public-looking, but not in __all__, so the star import does not bring it."""',
    '',
  ].join('\n'),
  'pkg/api.py': 'from ._client import Client\n',
  'pkg/_client.py': 'class Client:\n    """A client for the service, with retries and timeouts."""\n',
  'pkg/_speedups.py': 'def fast_parse(text):\n    """Parse text quickly with the compiled parser."""\n',
  'pkg/classes/__init__.py': '',
  'pkg/classes/query.py': 'from pkg.collections.classes.filters import Filter\n\n__all__ = ["Filter"]\n',
  'pkg/collections/__init__.py': '',
  'pkg/collections/classes/__init__.py': '',
  'pkg/collections/classes/filters.py': 'class Filter:\n    """Filter the objects a query returns by their properties."""\n',
}));

describe('Python: re-exported names followed to their definitions', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['python']); });

  it('labels each definition with the public path it is re-exported under', async () => {
    const drafts = await apiFromPythonPackage(parsers, { files, importNames: ['pkg'], locate });
    const bySymbol = new Map(drafts.map((d) => [d.symbol, d]));
    for (const [symbol, text] of [
      ['pkg.Engine', /database connection pool/], // star import of a private module, by its __all__
      ['pkg.Engine.execute', /return its rows/],
      ['pkg.connect', /Open a connection/],
      ['pkg.Client', /retries and timeouts/], // pkg → pkg.api → pkg._client
      ['pkg.fast_parse', /compiled parser/], // an import inside a module-level try
      ['pkg.classes.query.Filter', /by their properties/], // a public module's __all__, shallower than the definition's
    ] as const) {
      const draft = bySymbol.get(symbol);
      assert.ok(draft, `${symbol} in ${[...bySymbol.keys()].join(', ')}`);
      assert.match(draft.content, text);
      assert.equal(draft.internal, undefined, symbol);
      assert.ok(draft.importance! > 0.5, symbol);
    }
  });

  it('leaves what no public module exports under its private module, internal', async () => {
    const drafts = await apiFromPythonPackage(parsers, { files, importNames: ['pkg'], locate });
    const unlisted = drafts.find((d) => /Public-looking/.test(d.content))!;
    assert.equal(unlisted.internal, true);
  });
});

describe('Python: a private sibling package that re-exports inside itself', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['python']); });

  // pytest: `from _pytest._code import ExceptionInfo` in `pytest/__init__.py`, and `_pytest/_code/__init__.py` doing
  // `from .code import ExceptionInfo`: the item is `pytest.ExceptionInfo`, never the private package's path.
  it('labels the definition by the public package, not by the private package that also exports it', async () => {
    const drafts = await apiFromPythonPackage(parsers, {
      files: new Map(Object.entries({
        'checker/__init__.py': 'from _checker._code import ExceptionInfo\n\n__all__ = ["ExceptionInfo"]\n',
        '_checker/__init__.py': '',
        '_checker/_code/__init__.py': 'from .code import ExceptionInfo\n',
        '_checker/_code/code.py': 'class ExceptionInfo:\n    """Wraps sys.exc_info() objects and offers help for navigating the traceback."""\n\n    def match(self, regexp):\n        """Check whether the regular expression matches the string form of the exception."""\n',
      })),
      importNames: ['checker'], privateNames: ['_checker'], locate,
    });
    assert.deepEqual(drafts.map((d) => d.symbol).sort(), ['checker.ExceptionInfo', 'checker.ExceptionInfo.match']);
    assert.ok(drafts.every((d) => d.internal === undefined));
  });
});
