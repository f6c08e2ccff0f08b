// A public package that re-exports what a private sibling package of the same distribution defines (pytest's
// `from _pytest.python_api import approx`): the item is API under its public name, and the rest of the private
// package stays out.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromPythonPackage } from '../../../src/docs/extract/python.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const locate = (file: string, where: { line?: number; anchor?: string }) => `${file}#${where.line ?? where.anchor ?? ''}`;
const files = new Map(Object.entries({
  'checker/__init__.py': '"""The checker."""\nfrom _checker.approx import approx\nfrom _checker.runner import Runner as Runner\n\n__all__ = ["approx", "Runner"]\n',
  '_checker/__init__.py': '',
  '_checker/approx.py': 'def approx(expected, rel=None):\n    """Assert that two numbers are equal to each other within some tolerance."""\n\n\ndef helper(x):\n    """An internal helper no public package exports."""\n',
  '_checker/runner.py': '"""The runner module, long enough to be a module passage of its own."""\n\nclass Runner:\n    """Runs the collected checks one by one."""\n\n    def run(self):\n        """Run every check and return the failures."""\n',
}));

describe('Python: re-exports from a private sibling package', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['python']); });

  it('names the item by the public package and leaves the rest of the private package out', async () => {
    const drafts = await apiFromPythonPackage(parsers, { files, importNames: ['checker'], privateNames: ['_checker'], locate });
    const symbols = drafts.map((d) => d.symbol).sort();
    assert.deepEqual(symbols, ['checker.Runner', 'checker.Runner.run', 'checker.approx']);
    const approx = drafts.find((d) => d.symbol === 'checker.approx')!;
    assert.match(approx.content, /within some tolerance/);
    assert.equal(approx.internal, undefined);
    assert.ok(approx.importance! > 0.5);
  });

  it('without the private package named, nothing of it is read (as before: an explicit re-export is only a pointer)', async () => {
    const drafts = await apiFromPythonPackage(parsers, { files, importNames: ['checker'], locate });
    assert.deepEqual(drafts.map((d) => d.symbol).sort(), ['checker.Runner']);
    assert.match(drafts.find((d) => d.symbol === 'checker.Runner')!.content, /Re-exported from another package/);
  });
});
