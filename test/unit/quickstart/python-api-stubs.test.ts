// Compiled PyPI modules (Rust or C extensions) have no Python source: the public API is read from the stubs (`.pyi`)
// the wheel ships. The files below are excerpts of real packages' published files (httptools 0.9.0, fastuuid 0.14.0),
// the layouts kept as published; both packages got no program in the spent sets (r8, r14).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pythonApiCandidates, publicFields } from '../../../src/quickstart/python-api.ts';
import { parseCode, descendants } from '../../../src/quickstart/parse.ts';

const file = (p: string, src: string) => ({ path: p, bytes: new TextEncoder().encode(src) });
const artifact = (importName: string, files: ReturnType<typeof file>[]) => ({ files, importName, fileUrl: (p: string) => p });

// httptools 0.9.0: the package re-exports from its `parser` subpackage, which takes `parse_url` from a compiled
// module declared only by `url_parser.pyi`.
const HTTPTOOLS = [
  file('httptools/__init__.py', 'from . import parser\nfrom .parser import (\n    HTTPProtocol,\n    HttpRequestParser,\n    parse_url,\n)\n\nfrom ._version import __version__\n\n__all__ = (\n    "parser",\n    "HTTPProtocol",\n    "HttpRequestParser",\n    "parse_url",\n)\n'),
  file('httptools/_version.py', '__version__ = "0.9.0"\n'),
  file('httptools/parser/__init__.py', 'from .protocol import HTTPProtocol\nfrom .parser import HttpRequestParser, HttpResponseParser  # NoQA\nfrom .url_parser import parse_url\n\n__all__ = (\n    "HTTPProtocol",\n    "HttpRequestParser",\n    "HttpResponseParser",\n    "parse_url",\n)\n'),
  file('httptools/parser/protocol.py', 'from typing import Protocol\n\n\nclass HTTPProtocol(Protocol):\n    def on_url(self, url: bytes) -> None:\n        ...\n'),
  file('httptools/parser/url_parser.pyi', 'from array import array\n\nclass URL:\n    schema: bytes\n    host: bytes\n    port: int\n    path: bytes\n    query: bytes\n    fragment: bytes\n    userinfo: bytes\n\ndef parse_url(url: bytes | bytearray | memoryview | array[int]) -> URL:\n    """Parse a URL string into a structured Python object."""\n'),
  file('httptools/parser/parser.pyi', 'from .protocol import HTTPProtocol\n\nclass HttpParser:\n    def __init__(self, protocol: HTTPProtocol | object) -> None:\n        """The HTTP parser."""\n\n    def get_http_version(self) -> str:\n        """Retrieve the HTTP protocol version e.g. "1.1"."""\n\nclass HttpRequestParser(HttpParser):\n    def get_method(self) -> bytes:\n        """Retrieve the HTTP method of the request."""\n'),
];

// fastuuid 0.14.0: `__init__.py` only star-imports the compiled module; `__init__.pyi` beside it declares the API.
const FASTUUID = [
  file('fastuuid/__init__.py', 'from .fastuuid import *\n\n__doc__ = fastuuid.__doc__\nif hasattr(fastuuid, "__all__"):\n    __all__ = fastuuid.__all__'),
  file('fastuuid/__init__.pyi', `from typing import List, Optional

from typing_extensions import TypeAlias

_Int: TypeAlias = int
_Bytes: TypeAlias = bytes

class UUID:
    def __init__(
        self,
        hex: str | None = ...,
        bytes: _Bytes | None = ...,
        int: _Int | None = ...,
    ) -> None: ...
${['int', 'bytes', 'bytes_le', 'hex', 'urn', 'variant', 'version', 'fields', 'time_low', 'time_mid'].map((p) => `    @property\n    def ${p}(self) -> _Int: ...\n`).join('')}    def __int__(self) -> _Int: ...

def uuid1(node: Optional[int] = None, clock_seq: Optional[int] = None) -> UUID: ...
def uuid3(namespace: UUID, name: _Bytes) -> UUID: ...
def uuid4() -> UUID: ...
def uuid4_bulk(n: int) -> List[UUID]: ...
def uuid4_as_strings_bulk(n: int) -> List[str]: ...
`),
];

describe('PyPI programs from a compiled module\'s stubs', () => {
  it('follows re-exports through a subpackage to the stub, gives a URL parser a URL, and prints the fields of what it returns', async () => {
    const found = await pythonApiCandidates(artifact('httptools', HTTPTOOLS));
    const parse = found.find((c) => /parse_url/.test(c.code));
    assert.ok(parse, found.map((c) => c.code).join('\n---\n'));
    assert.equal(parse.code, 'import httptools\n\nurl = httptools.parse_url(b"https://user@example.com:8080/docs/page?q=1#top")\nprint({"schema": url.schema, "host": url.host, "port": url.port, "path": url.path, "query": url.query, "fragment": url.fragment, "userinfo": url.userinfo})');
    assert.match(parse.source, /url_parser\.pyi$/);
  });

  it('reads the stub beside an `__init__.py` that defines nothing, and leaves out a class whose many fields would be a dump', async () => {
    const found = await pythonApiCandidates(artifact('fastuuid', FASTUUID));
    assert.ok(found.length > 0, 'no program from the stub');
    assert.ok(found.every((c) => /\.pyi$/.test(c.source)), found.map((c) => c.source).join(', '));
    assert.ok(found.some((c) => /^import fastuuid\n\nprint\(fastuuid\.uuid4(_as_strings)?_bulk\(2\)\)$/.test(c.code)), found.map((c) => c.code).join('\n---\n'));
    // UUID's ten properties printed one by one would be the object dumped; `UUID()` with no value is not a use.
    assert.ok(found.every((c) => !/fastuuid\.UUID\(\)/.test(c.code)), found.map((c) => c.code).join('\n---\n'));
  });

  it('a source module with definitions of its own is read, not its stub', async () => {
    const found = await pythonApiCandidates(artifact('shelf', [
      file('shelf/__init__.py', 'def shout(text: str) -> str:\n    return text.upper()\n'),
      file('shelf/__init__.pyi', 'def shout(text: str) -> str: ...\n'),
    ]));
    assert.equal(found[0]?.source, 'shelf/__init__.py');
  });

  it('a class that prints itself declares no fields to show', async () => {
    const root = await parseCode('python', 'class A:\n    x: int\n    def __repr__(self) -> str: ...\n\nclass B:\n    x: int\n    @property\n    def y(self) -> int: ...\n    _z: int\n');
    const [a, b] = descendants(root, 'class_definition');
    assert.deepEqual(publicFields(a!), []);
    assert.deepEqual(publicFields(b!), ['x', 'y']);
  });
});
