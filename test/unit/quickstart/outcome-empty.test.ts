// A program that prints only an empty text or byte string printed no result (spent sets: hyperframe r11 serialised
// an empty frame body to b'', smart-open r14 read a placeholder file back as b''; both rated as showing nothing).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { meaningfulStdout } from '../../../src/quickstart/outcome.ts';

describe('output of an empty string only', () => {
  it('refuses b\'\', \'\' and "" printed alone', () => {
    for (const stdout of ["b''\n", "b''\nb''\n", "''\n", '""\n', "bytearray(b'')\n"]) {
      const outcome = meaningfulStdout(stdout);
      assert.equal(outcome.ok, false, stdout);
      assert.match(outcome.why ?? '', /^printed only /, stdout);
    }
  });

  it('keeps a non-empty value, and an empty one beside a result', () => {
    for (const stdout of ["b'\\x00\\x00\\x05\\x00'\n", "b''\n42\n", "'text'\n", "body: b''\n"]) assert.equal(meaningfulStdout(stdout).ok, true, stdout);
  });
});
