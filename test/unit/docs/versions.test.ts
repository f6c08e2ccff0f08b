// resolveVersion: exact, range, tag, v-prefix, PyPI-style prefixes; unknown → version_not_found with recent versions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveVersion } from '../../../src/docs/versions.ts';

const releases = { latest: '3.23.8', versions: ['1.0.0', '3.22.0', '3.23.8', '4.0.0-beta.1', '2.5.1'], tags: { latest: '3.23.8', next: '4.0.0-beta.1' } };

describe('resolveVersion', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, '3.23.8'], ['latest', '3.23.8'], ['next', '4.0.0-beta.1'], ['3.22.0', '3.22.0'], ['v3.22.0', '3.22.0'],
    ['3', '3.23.8'], ['^3.0.0', '3.23.8'], ['2', '2.5.1'], ['<3', '2.5.1'], ['4.0.0-beta.1', '4.0.0-beta.1'],
  ];
  for (const [spec, expected] of cases) it(`${spec ?? '(none)'} → ${expected}`, () => assert.equal(resolveVersion(releases, spec, 'zod'), expected));

  it('matches non-semver versions by whole-component prefix', () => {
    assert.equal(resolveVersion({ latest: '2024.2', versions: ['2023.12', '2024.1', '2024.2'], tags: {} }, '2023', 'x'), '2023.12');
  });
  it('answers an unknown version with version_not_found listing recent versions, stable releases newest first', () => {
    assert.throws(() => resolveVersion(releases, '9', 'zod'), (error: unknown) => {
      const e = error as { code: string; status: number; details: { versions: string[] }; message: string };
      assert.equal(e.code, 'version_not_found');
      assert.equal(e.status, 404);
      assert.deepEqual(e.details.versions, ['3.23.8', '3.22.0', '2.5.1', '1.0.0', '4.0.0-beta.1']);
      assert.match(e.message, /Recent versions: 3\.23\.8, 3\.22\.0/);
      return true;
    });
  });
});
