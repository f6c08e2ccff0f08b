// Module-level `if`/`try` branches define public API (six, typing_extensions); the Python extractor reads them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromPythonPackage } from '../../../src/docs/extract/python.ts';
import { loadParsers } from '../../../src/docs/extract/treesitter.ts';

describe('Python API inside module-level branches', () => {
  it('reads functions and classes defined under if/else and try/except at module level, not nested bodies', async () => {
    const source = [
      'import sys',
      'if sys.version_info >= (3, 10):',
      '    def ensure_text(s):',
      '        """Coerce s to text, decoding bytes as UTF-8."""',
      '        def helper():',
      '            """A helper inside a function body."""',
      'else:',
      '    class Final:',
      '        """Marks a name that cannot be reassigned."""',
      'try:',
      '    from ._speedups import fast',
      'except ImportError:',
      '    def fast(data):',
      '        """Frobnicate data in pure Python when the compiled module is missing."""',
    ].join('\n');
    const passages = await apiFromPythonPackage(await loadParsers(['python']), { files: new Map([['fx.py', source]]), importNames: ['fx'], locate: () => '' });
    const symbols = passages.map((p) => p.symbol);
    assert.ok(symbols.includes('fx.ensure_text'), JSON.stringify(symbols));
    assert.ok(symbols.includes('fx.Final'));
    assert.ok(symbols.includes('fx.fast'));
    assert.ok(!symbols.some((s) => s?.endsWith('helper')));
  });
});
