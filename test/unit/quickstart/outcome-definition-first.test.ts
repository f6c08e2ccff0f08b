// A definition printed first does not refuse the results printed after it. Round 16's es-object-atoms (a README
// written as checks: `assert.equal($Object, Object)` printed as `console.log($Object)`, then `isObject(…)`,
// `ToObject(…)`, `RequireObjectCoercible(…)`) was refused as "printed a definition, not a result: [Function: Object]"
// though eleven lines of results followed. The outputs below are what Node 20 prints for round 16's programs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { meaningfulStdout } from '../../../src/quickstart/outcome.ts';

describe('a definition printed before the results', () => {
  it('counts the results after it', () => {
    const esObjectAtoms = '[Function: Object]\nfalse\nfalse\ntrue\ntrue\ntrue\ntrue\n[Boolean: true]\n{}\n{}\n';
    assert.equal(meaningfulStdout(esObjectAtoms).ok, true);
  });

  it('still refuses a definition printed alone, or whole over several lines (gopd printed `assert` itself)', () => {
    assert.match(meaningfulStdout('[Function: defineProperty]\n').why ?? '', /^printed a definition/);
    const gopd = '<ref *1> [Function: ok] {\n  fail: [Function: fail],\n  AssertionError: [class AssertionError extends Error],\n  strict: [Circular *1]\n}\n';
    assert.match(meaningfulStdout(gopd).why ?? '', /^printed a definition/);
    assert.match(meaningfulStdout('[Function: requireDirectory] {\n  defaults: { extensions: [ \'js\', \'json\', \'coffee\' ] }\n}\nundefined\n').why ?? '', /^printed a definition/, 'nothing but an empty value after it');
  });
});
