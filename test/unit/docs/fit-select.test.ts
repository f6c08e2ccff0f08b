// The fitter's FIT_CONFIGS list (scripts/fit-docs-select.ts): names match exactly, `*` asks for a prefix, a name that
// matches nothing is an error. Before round 16 `search13 rrfK` also ran `search13 rrfK+rrf`, and `fixed rrfK 1` would
// have run `fixed rrfK 15`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { selectConfigs } from '../../../scripts/fit-docs-select.ts';

const all = ['hand-set', 'search13 rrfK', 'search13 rrfK+rrf', 'fixed rrfK 2', 'fixed rrfK 15', 'search13 rrf'].map((name) => ({ name }));
const names = (list: string | undefined) => selectConfigs(all, list).map((c) => c.name);

describe('fitter config selection', () => {
  it('matches a listed name exactly, not as a prefix of longer names', () => {
    assert.deepEqual(names('search13 rrfK'), ['search13 rrfK']);
    assert.deepEqual(names('search13 rrf'), ['search13 rrf']);
    assert.deepEqual(names('hand-set, fixed rrfK 2'), ['hand-set', 'fixed rrfK 2']);
  });
  it('matches by prefix where the name ends in *', () => {
    assert.deepEqual(names('fixed rrfK*'), ['fixed rrfK 2', 'fixed rrfK 15']);
  });
  it('refuses a name that matches no config', () => {
    assert.throws(() => names('fixed rrfK 1'), /no fitter config named "fixed rrfK 1"/);
  });
  it('keeps every config when no list is given', () => {
    assert.equal(names(undefined).length, all.length);
    assert.equal(names('').length, all.length);
  });
});
