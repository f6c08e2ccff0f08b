// Namesakes (src/catalog/namesakes.ts): tools of the same ecosystem named after a tool, read from the names alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nameParts, namesakeShare } from '../../../src/catalog/namesakes.ts';
import type { Ecosystem } from '../../../src/catalog/types.ts';

const tool = (ecosystem: Ecosystem, name: string) => ({ ecosystem, name });

test('name parts drop the npm scope, the Go path and its major version, and split on - _ .', () => {
  assert.deepEqual(nameParts('npm', '@vitest/ui'), { scope: 'vitest', parts: ['ui'] });
  assert.deepEqual(nameParts('go', 'github.com/go-chi/chi/v5'), { scope: undefined, parts: ['chi'] });
  assert.deepEqual(nameParts('crates', 'serde_json'), { scope: undefined, parts: ['serde', 'json'] });
  assert.deepEqual(nameParts('pypi', 'Flask-Login'), { scope: undefined, parts: ['flask', 'login'] });
});

test('a tool others are named after outranks a literal match with none; counts stay within the ecosystem', () => {
  const tools = [
    tool('pypi', 'pytest'), tool('pypi', 'pytest-cov'), tool('pypi', 'pytest_mock'), tool('pypi', 'pytest.asyncio'),
    tool('pypi', 'testing-tools'), tool('npm', 'pytest-reporter'), tool('npm', 'vitest'), tool('npm', '@vitest/ui'),
  ];
  const share = namesakeShare(tools);
  assert.equal(share[0], 1, 'pytest: three namesakes, the most in PyPI');
  assert.equal(share[1], 0, 'pytest-cov: none');
  assert.equal(share[4], 0, 'a name that is only a prefix of nothing');
  assert.equal(share[6], 1, 'vitest: its scope @vitest counts, and the npm pytest-reporter does not count for PyPI pytest');
  assert.ok(share.every((x) => x >= 0 && x <= 1));
});

test('a prefix that is not a whole word of the name does not count (pytest is not py)', () => {
  const share = namesakeShare([tool('pypi', 'py'), tool('pypi', 'pytest'), tool('pypi', 'pytest-cov')]);
  assert.equal(share[0], 0);
  assert.equal(share[1], 1);
});
