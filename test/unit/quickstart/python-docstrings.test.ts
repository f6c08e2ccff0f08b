// Parameter types from docstrings (programs/python-docstrings.ts) and the re-exports a package makes at import time
// inside `try`/`except ImportError` (python-api.ts). The package files are excerpts of google-crc32c 1.9.0's sdist
// (spent set r14: no program, "no usage example"), the layout kept as published.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { docstringTypes } from '../../../src/quickstart/programs/python-docstrings.ts';
import { pythonApiCandidates } from '../../../src/quickstart/python-api.ts';

const file = (p: string, src: string) => ({ path: p, bytes: new TextEncoder().encode(src) });

const INIT = `import warnings

try:
    # Pure-Python unit test sessions test python.py; cext is tested during wheel checks.
    from google_crc32c import cext as impl  # pragma: NO COVER

    implementation = "c"  # pragma: NO COVER
except ImportError:
    from google_crc32c import python as impl  # type: ignore

    warnings.warn("slow", RuntimeWarning)
    implementation = "python"

extend = impl.extend
value = impl.value

Checksum = impl.Checksum

__all__ = ["extend", "value", "Checksum", "implementation"]
`;
const CEXT = `import google_crc32c.__config__  # noqa: F401
from google_crc32c._crc32c import (  # type: ignore
    extend,
    value,
)
`;
const PYTHON = `def extend(crc, chunk):
    """Update an existing CRC checksum with new chunk of data.

    Args
        crc (int): An existing CRC check sum.
        chunk (Union[bytes, List[int], Tuple[int]]): A new chunk of data.
            Intended to be a byte string or similar.

    Returns
        int: New CRC checksum computed by extending existing CRC
        with \`\`chunk\`\`.
    """
    return crc


def value(chunk):
    """Compute a CRC checksum for a chunk of data.

    Args
        chunk (Union[bytes, List[int], Tuple[int]]): A new chunk of data.
            Intended to be a byte string or similar.

    Returns
        int: New CRC checksum computed for \`\`chunk\`\`.
    """
    return 0
`;

describe('Python docstring parameter types', () => {
  it('reads the Google, Sphinx and NumPy conventions', () => {
    assert.deepEqual([...docstringTypes('Compute.\n\n    Args:\n        chunk (Union[bytes, List[int]]): data.\n        count (int, optional): how many.\n    Returns:\n        int: the sum.\n')],
      [['chunk', 'Union[bytes, List[int]]'], ['count', 'int']]);
    assert.deepEqual([...docstringTypes('Compute.\n\n:param str text: the text\n:type count: int\n:returns: the sum\n')], [['text', 'str'], ['count', 'int']]);
    assert.deepEqual([...docstringTypes('Compute.\n\nParameters\n----------\ntext : str\n    The text.\nlimit : int, optional\n    At most.\n\nReturns\n-------\nint\n')],
      [['text', 'str'], ['limit', 'int']]);
    // Lines of other sections are not parameters.
    assert.deepEqual([...docstringTypes('Returns:\n    result (str): no.\n')], []);
  });

  it('a package that documents types and re-exports inside try/except gets a program calling its own namespace', async () => {
    const found = await pythonApiCandidates({
      files: [file('src/google_crc32c/__init__.py', INIT), file('src/google_crc32c/cext.py', CEXT), file('src/google_crc32c/python.py', PYTHON)],
      importName: 'google_crc32c', fileUrl: (p: string) => p,
    });
    const codes = found.map((c) => c.code);
    assert.ok(codes.includes('import google_crc32c\n\nprint(google_crc32c.value(b"example"))'), codes.join('\n---\n'));
    assert.ok(codes.includes('import google_crc32c\n\nprint(google_crc32c.extend(2, b"example"))'), codes.join('\n---\n'));
  });
});
