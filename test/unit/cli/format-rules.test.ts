// The CLI's pure rules, table-driven: output-format precedence, exit codes, and human rendering hygiene.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ToolDexError } from '../../../src/errors.ts';
import { ServerError } from '../../../src/cli/client.ts';
import { outputFormat, type ClientFlags } from '../../../src/cli/options.ts';
import { renderSearch, renderTest, type Style } from '../../../src/cli/output.ts';
import { EXIT, exitCodeOf } from '../../../src/cli/run.ts';
import type { ToolResult } from '../../../src/catalog/index.ts';

describe('outputFormat', () => {
  const cases: Array<[ClientFlags, boolean, string]> = [
    [{}, true, 'human'],
    [{}, false, 'json'],
    [{ json: true }, true, 'json'],
    [{ json: true }, false, 'json'],
    [{ format: 'toon' }, true, 'toon'],
    [{ format: 'human' }, false, 'human'],
    [{ format: 'toon', json: true }, false, 'toon'],
    [{ format: 'human', json: true }, true, 'human'],
  ];
  for (const [flags, tty, expected] of cases) {
    it(`${JSON.stringify(flags)} on ${tty ? 'a terminal' : 'a pipe'} → ${expected}`, () => {
      assert.equal(outputFormat(flags, tty), expected);
    });
  }
});

describe('exitCodeOf', () => {
  const cases: Array<[unknown, number]> = [
    [new ToolDexError('invalid_request', 400, 'bad flag'), EXIT.usage],
    [new ServerError('invalid_limit', 422, 'limit'), EXIT.usage],
    [new ServerError('not_found', 404, 'nope'), EXIT.server],
    [new ServerError('missing_api_key', 401, 'key'), EXIT.server],
    [new ServerError('rate_limited', 429, 'slow down'), EXIT.server],
    [new ServerError('server_unreachable', 503, 'down'), EXIT.server],
    [new ToolDexError('store_locked', 409, 'held'), EXIT.server],
    [new Error('boom'), EXIT.server],
  ];
  for (const [error, code] of cases) {
    it(`${(error as Error).message} (${(error as ToolDexError).status ?? 'plain'}) → ${code}`, () => assert.equal(exitCodeOf(error), code));
  }
});

const plain: Style = {
  bold: (t) => t, dim: (t) => t, green: (t) => t, red: (t) => t, yellow: (t) => t, cyan: (t) => t, width: 80,
};

const tool = (slug: string, shortDescription: string): ToolResult => ({
  id: slug, name: slug.split(':')[1]!, description: shortDescription, shortDescription, languages: [], frameworks: [],
  categories: [], slug, updatedAt: null, image: '', ecosystem: 'npm', version: '1.2.3', license: null, popularity: 0.5,
  install: '', docsUrl: null, registryUrl: '', score: 1,
});

describe('human renderers', () => {
  it('strip terminal escape sequences from registry text', () => {
    const out = renderSearch({ results: [tool('npm:evil', 'nice \x1b]0;pwned\x07\x1b[2J tool')] }, plain);
    assert.doesNotMatch(out, /\x1b|\x07/);
    assert.match(out, /nice \]0;pwned\[2J tool/);
  });

  it('cut long descriptions to the terminal width', () => {
    const out = renderSearch({ results: [tool('npm:long', 'word '.repeat(100))] }, plain);
    for (const line of out.split('\n')) assert.ok(line.length <= 80, `${line.length}: ${line}`);
    assert.match(out, /…/);
  });

  it('say what to do when nothing matched', () => {
    assert.match(renderSearch({ results: [] }, plain), /No tools found/);
  });

  it('show a failed run with its status, output and the session to reuse', () => {
    const out = renderTest({
      ok: false, status: 'failed_run', phases: { provisionMs: 200, installMs: 1500, runMs: 90 }, stdout: '', stderr: 'TypeError: x\n',
      exitCode: 1, sessionId: 'abc123', sessionExpiresAt: null, sessionReused: false,
    }, plain);
    assert.match(out, /^✗ failed_run {2}provision 0\.2 s · install 1\.5 s · run 0\.1 s {2}exit 1/);
    assert.match(out, /── stderr ──\nTypeError: x/);
    assert.match(out, /session {2}abc123 {2}reuse with --session abc123/);
  });
});
