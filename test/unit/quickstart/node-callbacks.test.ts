// Node-style callbacks whose results the example leaves to the reader (programs/node-callbacks.ts): real tree-sitter
// parses; one case runs the program with node to show the results reach the output.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { printCallbackResults } from '../../../src/quickstart/programs/node-callbacks.ts';
import { nodeProgram } from '../../../src/quickstart/programs/node.ts';

describe('node callbacks: results left to the reader are printed', () => {
  it('a final (err, results) callback with only a comment prints its results when there is no error, and runs', async () => {
    const code = [
      'function parallel(tasks, done) { const out = []; let left = tasks.length; tasks.forEach((t, i) => t((e, v) => (out[i] = v, --left || done(null, out)))); }',
      'parallel([',
      '  function (callback) { setTimeout(function () { callback(null, "one") }, 20) },',
      '  function (callback) { setTimeout(function () { callback(null, "two") }, 10) }',
      '],',
      'function (err, results) {',
      '  // the results array will equal ["one","two"]',
      '})',
    ].join('\n');
    const out = await printCallbackResults(code, 'javascript');
    assert.match(out, /function \(err, results\) \{\n {2}if \(!err\) console\.log\(results\);/, out);
    // The tasks' own callbacks take (callback): not Node-style, left alone; so is the inner (e, v) arrow, whose body
    // is an expression, not a block.
    assert.equal(out.match(/console\.log/g)?.length, 1);
    assert.equal(execFileSync(process.execPath, ['-e', out], { encoding: 'utf8' }), "[ 'one', 'two' ]\n");
  });

  it('leaves callbacks that already show a result, that take no result, or whose first parameter is not an error', async () => {
    const shown = 'fs.readFile("a.txt", (err, data) => {\n  console.log(data.toString());\n});';
    assert.equal(await printCallbackResults(shown, 'javascript'), shown);
    const noResult = 'db.close(function (err) {\n  // closed\n});';
    assert.equal(await printCallbackResults(noResult, 'javascript'), noResult);
    const notError = 'emitter.on("data", function (chunk, meta) {\n  total += chunk.length;\n});';
    assert.equal(await printCallbackResults(notError, 'javascript'), notError);
    const pattern = 'load(function (err, { rows }) {\n});';
    assert.equal(await printCallbackResults(pattern, 'javascript'), pattern);
  });

  it('TypeScript parameters are read through their annotations', async () => {
    const out = await printCallbackResults('lookup("x", (err: Error | null, address: string, family: number) => {\n});', 'typescript');
    assert.match(out, /=> \{\n {2}if \(!err\) console\.log\(address, family\);/, out);
  });

  it('nodeProgram prints the results, not the undefined the outer call returns', async () => {
    const program = await nodeProgram("var parallel = require('run-things')\n\nparallel([task], function (err, results) {\n  // done\n})", 'js', 'run-things', 'commonjs');
    assert.match(program.code, /if \(!err\) console\.log\(results\);/, program.code);
    assert.doesNotMatch(program.code, /console\.log\(parallel\(/, program.code);
  });
});
