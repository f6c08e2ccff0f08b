// A distribution inside a namespace package has a dotted import name (opentelemetry-util-http → `opentelemetry.util.http`,
// poetry-core → `poetry.core`; src/docs/sources/pypi.ts importNameOf) and, built by hatch or poetry, no top_level.txt,
// so that dotted name is the only root the extraction is given. It is matched as a run of path segments; matched per
// segment, as before, no module was ever under it and the package had no API passage at all.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromPythonPackage } from '../../../src/docs/extract/python.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const locate = (file: string, where: { line?: number; anchor?: string }) => `${file}#${where.line ?? where.anchor ?? ''}`;
// The layout of opentelemetry-util-http 0.x's wheel: no `opentelemetry/__init__.py`, no `opentelemetry/util/__init__.py`.
const files = new Map(Object.entries({
  'opentelemetry/util/http/__init__.py': [
    '"""Utilities shared by the HTTP instrumentations."""',
    'from opentelemetry.semconv.trace import SpanAttributes as SpanAttributes',
    '',
    'def get_excluded_urls(instrumentation):',
    '    """Return the URLs an instrumentation is configured to leave untraced, read from its environment variable."""',
    '',
    'def sanitize_method(method):',
    '    """Return the HTTP method in upper case, or _OTHER for a method that is not standard."""',
    '',
  ].join('\n'),
  'opentelemetry/util/http/httplib.py': '"""Tracing of connections made with http.client, the standard library\'s HTTP client."""\n\ndef trace_connection(conn):\n    """Start a span for every request sent on the connection."""\n',
}));

describe('Python: a dotted import name inside a namespace package', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['python']); });

  it('reads the modules under the dotted root and names items by it', async () => {
    const drafts = await apiFromPythonPackage(parsers, { files, importNames: ['opentelemetry.util.http'], locate });
    const symbols = new Set(drafts.map((d) => d.symbol));
    for (const symbol of ['opentelemetry.util.http.get_excluded_urls', 'opentelemetry.util.http.sanitize_method', 'opentelemetry.util.http.httplib.trace_connection']) {
      assert.ok(symbols.has(symbol), `${symbol} in ${[...symbols].join(', ')}`);
    }
    assert.match(drafts.find((d) => d.symbol === 'opentelemetry.util.http.get_excluded_urls')!.content, /left? untraced|leave untraced/);
  });

  it('takes a re-export from a sibling distribution of the namespace for another package\'s name', async () => {
    const drafts = await apiFromPythonPackage(parsers, { files, importNames: ['opentelemetry.util.http'], locate });
    const pointer = drafts.find((d) => d.symbol === 'opentelemetry.util.http.SpanAttributes');
    assert.ok(pointer, drafts.map((d) => d.symbol).join(', '));
    assert.match(pointer.content, /Re-exported from another package/);
  });
});
