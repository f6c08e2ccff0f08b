import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { typesPackageName, typesVersionFor } from '../../../src/docs/sources/npm.ts';

describe('DefinitelyTyped version for a package version', () => {
  const available = ['4.14.100', '4.17.5', '4.17.20', '4.18.0-beta.1', '5.0.1', '3.10.7'];
  it('takes the newest @types of the same major.minor', () => assert.equal(typesVersionFor('4.17.21', available), '4.17.20'));
  it('falls back to the newest of the same major, never another major or a prerelease', () => {
    assert.equal(typesVersionFor('4.18.1', available), '4.17.20');
    assert.equal(typesVersionFor('6.0.0', available), undefined);
  });
  it('names scoped packages as DefinitelyTyped does', () => {
    assert.equal(typesPackageName('lodash'), '@types/lodash');
    assert.equal(typesPackageName('@babel/core'), '@types/babel__core');
  });
});
