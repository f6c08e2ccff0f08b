// PyPI distributions that live inside an implicit namespace package (PEP 420: `opentelemetry/`, `poetry/` with no
// `__init__.py`) are imported by a dotted name. Before round 17 their import name was the distribution's own
// (`opentelemetry_util_http`, which does not import) and the API program maker, looking for `opentelemetry/__init__.py`,
// wrote nothing: round 16's opentelemetry-util-http, opentelemetry-instrumentation-threading,
// opentelemetry-exporter-otlp-proto-common and poetry-core. The paths below are those wheels' own listings
// (`unzip -Z1`), shortened; the module is an excerpt of opentelemetry-util-http 0.66b2's `__init__.py`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importNameOf, namespacedPackages } from '../../../src/docs/sources/pypi.ts';
import { pythonApiCandidates } from '../../../src/quickstart/python-api.ts';
import { repairFor } from '../../../src/quickstart/programs/index.ts';
import type { PackageInfo } from '../../../src/quickstart/types.ts';
import { programUsesPackage } from '../../../src/quickstart/package-use.ts';

const UTIL_HTTP = ['opentelemetry/util/http/__init__.py', 'opentelemetry/util/http/constants.py', 'opentelemetry/util/http/httplib.py', 'opentelemetry/util/http/py.typed', 'opentelemetry/util/http/version.py', 'opentelemetry_util_http-0.66b2.dist-info/METADATA'];
const OTLP_COMMON = ['opentelemetry/exporter/otlp/proto/common/__init__.py', 'opentelemetry/exporter/otlp/proto/common/trace_encoder.py', 'opentelemetry/exporter/otlp/proto/common/_internal/__init__.py', 'opentelemetry/exporter/otlp/proto/common/_internal/trace_encoder/__init__.py', 'opentelemetry/exporter/otlp/proto/common/version/__init__.py'];
const POETRY_CORE = ['poetry/core/__init__.py', 'poetry/core/_vendor/lark/__init__.py', 'poetry/core/factory.py', 'poetry/core/version/__init__.py', 'poetry/core/version/pep440/__init__.py'];
/** Folders at the top with an `__init__.py` (what pypi.ts passes as initDirs). */
const initDirs = (paths: string[]) => paths.map((p) => /^(?:src\/)?([A-Za-z_]\w*)\/__init__\.py$/.exec(p)?.[1]).filter((d): d is string => Boolean(d));

describe('PyPI packages inside a namespace package', () => {
  it('are imported by their dotted name (the outermost package under the namespace folder, named like the distribution)', () => {
    assert.deepEqual(namespacedPackages(OTLP_COMMON), ['opentelemetry.exporter.otlp.proto.common'], 'its subpackages are not packages of their own');
    assert.deepEqual(namespacedPackages(POETRY_CORE), ['poetry.core'], 'nor is a vendored project under it');
    assert.equal(importNameOf('opentelemetry-util-http', undefined, initDirs(UTIL_HTTP), namespacedPackages(UTIL_HTTP)), 'opentelemetry.util.http');
    assert.equal(importNameOf('opentelemetry-exporter-otlp-proto-common', undefined, initDirs(OTLP_COMMON), namespacedPackages(OTLP_COMMON)), 'opentelemetry.exporter.otlp.proto.common');
    assert.equal(importNameOf('poetry-core', undefined, initDirs(POETRY_CORE), namespacedPackages(POETRY_CORE)), 'poetry.core');
    // top_level.txt of a setuptools wheel lists only the shared folder, which imports but holds none of the API.
    assert.equal(importNameOf('opentelemetry-util-http', 'opentelemetry\n', [], namespacedPackages(UTIL_HTTP)), 'opentelemetry.util.http');
    // Nothing named like the distribution and nothing listed: the one package there is (grpc-google-iam-v1).
    assert.equal(importNameOf('grpc-google-iam-v1', undefined, [], namespacedPackages(['google/iam/v1/__init__.py', 'google/iam/v1/policy_pb2.py'])), 'google.iam.v1');
  });

  it('leaves a distribution whose top_level.txt names its package, or whose package sits at the top, as it was', () => {
    // protobuf: `google/protobuf/`, top_level.txt `google`; the name says nothing of `google.protobuf`.
    assert.equal(importNameOf('protobuf', 'google\n', [], namespacedPackages(['google/protobuf/__init__.py', 'google/protobuf/message.py'])), 'google');
    assert.equal(importNameOf('PyYAML', '_yaml\nyaml\n', ['yaml'], namespacedPackages(['yaml/__init__.py', 'yaml/composer.py'])), 'yaml');
    assert.deepEqual(namespacedPackages(['yaml/__init__.py', 'yaml/sub/__init__.py']), [], 'a subpackage of a package at the top is not namespaced');
  });

  it('get programs written from the package\'s API, imported by the dotted name', async () => {
    const source = `from __future__ import annotations

from collections.abc import Iterable


class ExcludeList:
    def __init__(self, excluded_urls: Iterable[str]):
        self._excluded_urls = excluded_urls

    def url_disabled(self, url: str) -> bool:
        return False


def get_traced_request_attrs(instrumentation: str) -> list[str]:
    return []


def remove_url_credentials(url: str) -> str:
    return url
`;
    const files = UTIL_HTTP.filter((p) => p.endsWith('.py')).map((p) => ({ path: p, bytes: new TextEncoder().encode(p.endsWith('/__init__.py') ? source : 'X = 1\n') }));
    const importName = importNameOf('opentelemetry-util-http', undefined, initDirs(UTIL_HTTP), namespacedPackages(UTIL_HTTP));
    const programs = await pythonApiCandidates({ files, importName, fileUrl: (p: string) => p });
    assert.ok(programs.length > 0, 'a program is written');
    assert.match(programs[0]!.code, /^from opentelemetry\.util import http\n\nprint\(http\.get_traced_request_attrs\("example"\)\)/);
  });

  it('install a module missing from the namespace as the family\'s distribution, not as the folder', () => {
    // opentelemetry-util-http 0.66b2's README example imports `opentelemetry.instrumentation.asgi`; the program then
    // asked pip for `opentelemetry`, which no distribution is ("No matching distribution found for opentelemetry").
    const host = { pythonStdlib: new Set(['sys']), goStd: new Map<string, string>(), runtimes: {} };
    const info: PackageInfo = { ecosystem: 'pypi', name: 'opentelemetry-util-http', slug: 'pypi-opentelemetry-util-http', version: '0.66b2', importName: 'opentelemetry.util.http' };
    const stderr = "Traceback (most recent call last):\n  File \"/work/main.py\", line 2, in <module>\nModuleNotFoundError: No module named 'opentelemetry.instrumentation'";
    assert.deepEqual(repairFor(info, stderr, {}, host)?.extraPackages, ['opentelemetry-instrumentation']);
    // A package at the top keeps the old rule: the module's first name (or the known distribution of it).
    const plain: PackageInfo = { ...info, name: 'demo', slug: 'pypi-demo', importName: 'demo' };
    assert.deepEqual(repairFor(plain, "ModuleNotFoundError: No module named 'yaml.constructor'", {}, host)?.extraPackages, ['PyYAML']);
  });

  it('are used by a program that imports the package, not by one that imports another distribution of the namespace', async () => {
    // pythonModules gives the namespace folder too (top_level.txt of a setuptools wheel lists it).
    const ref = { ecosystem: 'pypi' as const, name: 'opentelemetry-util-http', importName: 'opentelemetry.util.http', pyModules: ['opentelemetry'] };
    // The README's example (opentelemetry-util-http 0.66b2): another distribution's middleware. Before, any import from
    // `opentelemetry` counted, and the example was tried (8 runs where 2 were, 178 s where 10 were, on the same list).
    const readme = 'from quart import Quart\nfrom opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware\n\napp = Quart(__name__)\napp.asgi_app = OpenTelemetryMiddleware(app.asgi_app)\nprint(app.asgi_app)\n';
    assert.equal((await programUsesPackage(readme, ref)).why, 'it never imports the package');
    // The package imported from the module above it, or by its full name: used.
    assert.equal((await programUsesPackage('from opentelemetry.util import http\n\nprint(http.sanitize_method("GET"))\n', ref)).uses, true);
    assert.equal((await programUsesPackage('from opentelemetry.util.http import sanitize_method\n\nprint(sanitize_method("GET"))\n', ref)).uses, true);
    assert.equal((await programUsesPackage('from opentelemetry import context\n\nprint(context.get_current())\n', ref)).why, 'it never imports the package', 'the namespace folder alone is not the package');
  });
});
