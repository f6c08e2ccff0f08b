// The "runs a server" blocker (src/quickstart/score.ts): a `.Run(` call counts only when handed a listen address, so a
// Go subtest (`t.Run("case", func(t *testing.T) {…})`) or any other Run taking a name is not read as a server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { blockersOf } from '../../../src/quickstart/score.ts';

describe('server cue: Run with an address', () => {
  it('a web framework run on an address is a server', () => {
    assert.deepEqual(blockersOf('r := gin.Default()\nr.Run(":8080")'), ['runs a server']);
    assert.ok(blockersOf('app.Run("localhost:3000")').includes('runs a server'));
  });

  it('a subtest or a named job is not a server', () => {
    assert.deepEqual(blockersOf('t.Run("adds two numbers", func(t *testing.T) {\n\tif Add(1, 2) != 3 { t.Fatal("bad") }\n})'), []);
    assert.deepEqual(blockersOf("scheduler.Run('nightly')"), []);
  });
});
