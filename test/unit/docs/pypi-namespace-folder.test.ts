// A distribution that is a namespace portion itself (src/docs/sources/pypi.ts folderNamedLike): opentelemetry-
// instrumentation ships modules straight in `opentelemetry/instrumentation/` (no `__init__.py`: other distributions
// share the folder) beside subpackages of its own, so the outermost packages are its subpackages and the import name
// fell back to `opentelemetry_instrumentation`, a module that does not exist, and its docs had no API passage.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { folderNamedLike, importNameOf, namespacedPackages } from '../../../src/docs/sources/pypi.ts';

// The layout of opentelemetry-instrumentation 0.x's wheel (abridged).
const INSTRUMENTATION = [
  'opentelemetry/instrumentation/bootstrap.py', 'opentelemetry/instrumentation/dependencies.py',
  'opentelemetry/instrumentation/instrumentor.py', 'opentelemetry/instrumentation/utils.py',
  'opentelemetry/instrumentation/auto_instrumentation/__init__.py', 'opentelemetry/instrumentation/auto_instrumentation/sitecustomize.py',
  'opentelemetry/instrumentation/propagators.py', 'opentelemetry_instrumentation-0.60b0.dist-info/METADATA',
];

describe('PyPI: a distribution whose own folder is a namespace portion', () => {
  it('imports as that folder, dotted', () => {
    assert.equal(folderNamedLike('opentelemetry-instrumentation', INSTRUMENTATION), 'opentelemetry.instrumentation');
    const namespaced = [...namespacedPackages(INSTRUMENTATION), folderNamedLike('opentelemetry-instrumentation', INSTRUMENTATION)!];
    assert.equal(importNameOf('opentelemetry-instrumentation', undefined, [], namespaced), 'opentelemetry.instrumentation');
  });

  it('finds no such folder where none is named like the distribution', () => {
    assert.equal(folderNamedLike('google-cloud-core', ['google/cloud/client.py', 'google/cloud/_helpers.py']), undefined);
    assert.equal(folderNamedLike('requests', ['requests/__init__.py', 'requests/api.py']), undefined, 'a top-level package is not a namespace folder');
  });
});
