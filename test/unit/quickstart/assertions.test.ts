// Examples written as assertions (programs/assertions.ts): a check prints nothing (Node's `assert.equal` returns
// undefined, Python's `assert` is a statement), so the run was refused as silent, or printed only `undefined` once the
// silent-program fallback wrapped each call in console.log (which-typed-array, round 13), or threw where a `should`
// chain was never installed (cookie-signature, round 10). The program now prints the value each check is about.
// Real tree-sitter parses; the transformed programs are run with node and python3 to show what they print.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { nodeProgram } from '../../../src/quickstart/programs/node.ts';
import { pythonProgram } from '../../../src/quickstart/programs/python.ts';
import { nodeAssertHas, showChecksNodeLacks, showNodeAssertions, showPythonAssertions } from '../../../src/quickstart/programs/assertions.ts';

/** which-typed-array 1.1.24's README example, as published (expected value first). */
const WHICH_TYPED_ARRAY = [
  "var whichTypedArray = require('which-typed-array');",
  "var assert = require('assert');",
  '',
  'assert.equal(false, whichTypedArray(undefined));',
  'assert.equal(false, whichTypedArray([]));',
  "assert.equal('Int8Array', whichTypedArray(new Int8Array()));",
  "assert.equal('Float64Array', whichTypedArray(new Float64Array()));",
].join('\n');

/** typing_inspect's README example (top-level asserts, no print). */
const TYPING_INSPECT = [
  'from typing import Generic, TypeVar, Iterable, Mapping, Union',
  'from typing_inspect import is_generic_type',
  '',
  "T = TypeVar('T')",
  '',
  'class MyCollection(Generic[T]):',
  '    content: T',
  '',
  'assert is_generic_type(Mapping)',
  'assert is_generic_type(Iterable[int])',
  'assert not is_generic_type(int)',
  'assert not is_generic_type(Union[int, T])',
].join('\n');

/**
 * is-regex 1.2.1's README example as round 18's fresh run tried it (README.md#L18): tape's `assert.notOk`, which Node's
 * assert module lacks, so every try failed with "TypeError: assert.notOk is not a function" before the prints ran.
 */
const IS_REGEX = [
  "var isRegex = require('is-regex');",
  "var assert = require('assert');",
  '',
  'assert.notOk(isRegex(undefined));',
  'assert.notOk(isRegex(null));',
  "assert.notOk(isRegex('foo'));",
  'assert.notOk(isRegex([]));',
  '',
  'console.log(isRegex(/a/g));',
  "console.log(isRegex(new RegExp('a', 'g')));",
].join('\n');

describe('assertions: an example that only checks prints what it checks', () => {
  it('Node assert calls print their computed argument, whichever side it is on, and run', async () => {
    const local = WHICH_TYPED_ARRAY.replace("var whichTypedArray = require('which-typed-array');",
      'function whichTypedArray(v) { return ArrayBuffer.isView(v) ? v.constructor.name : false; }');
    const out = await showNodeAssertions(local, 'javascript');
    assert.match(out, /^console\.log\(whichTypedArray\(new Int8Array\(\)\)\);$/m, out);
    assert.doesNotMatch(out, /assert\.equal/);
    // Its require of assert has nothing left to do.
    assert.doesNotMatch(out, /require\('assert'\)/, out);
    assert.equal(execFileSync(process.execPath, ['-e', out], { encoding: 'utf8' }), 'false\nfalse\nInt8Array\nFloat64Array\n');
  });

  it('the npm program of which-typed-array prints the results, not the undefined of each check', async () => {
    const { code } = await nodeProgram(WHICH_TYPED_ARRAY, 'js', 'which-typed-array', undefined);
    assert.match(code, /console\.log\(whichTypedArray\(new Int8Array\(\)\)\)/, code);
    assert.doesNotMatch(code, /console\.log\(assert\./, code);
  });

  it('actual-first checks, assert(x), expect(x) and should chains print x', async () => {
    const code = [
      'const sum = (a, b) => a + b;',
      'assert.strictEqual(sum(1, 2), 3);',
      'assert.deepEqual([sum(1, 1)], [2]);',
      'assert(sum(2, 2) === 4);',
      'expect(sum(3, 3)).to.equal(6);',
      "sum('a', 'b').should.equal('ab');",
      'sum(0, 0).should.be.false;',
      'assert.throws(() => sum());',
    ].join('\n');
    const out = await showNodeAssertions(code, 'javascript');
    assert.match(out, /^console\.log\(sum\(1, 2\)\);$/m, out);
    assert.match(out, /^console\.log\(\[sum\(1, 1\)\]\);$/m, out);
    assert.match(out, /^console\.log\(sum\(2, 2\) === 4\);$/m, out);
    assert.match(out, /^console\.log\(sum\(3, 3\)\);$/m, out);
    assert.match(out, /^console\.log\(sum\('a', 'b'\)\);$/m, out);
    assert.match(out, /^console\.log\(sum\(0, 0\)\);$/m, out);
    // A check that something throws is not a value: left as it is (and assert with it).
    assert.match(out, /^assert\.throws\(\(\) => sum\(\)\);$/m, out);
    const kept = await showNodeAssertions("const assert = require('node:assert');\nassert.equal(f(1), 1);\nassert.throws(() => f());", 'javascript');
    assert.match(kept, /^const assert = require\('node:assert'\);$/m, kept);
  });

  it('once its checks print, the example\'s other calls are not printed too (their undefined is no result)', async () => {
    const code = [
      "import { GenMapping, addMapping, toEncodedMap } from '@jridgewell/gen-mapping';",
      "import assert from 'node:assert';",
      "const map = new GenMapping({ file: 'output.js' });",
      "addMapping(map, { generated: { line: 1, column: 0 }, source: 'input.js', original: { line: 1, column: 0 } });",
      "assert.deepEqual(toEncodedMap(map), { version: 3, mappings: 'AAAA' });",
    ].join('\n');
    const { code: program } = await nodeProgram(code, 'js', '@jridgewell/gen-mapping', 'module');
    assert.match(program, /^console\.log\(toEncodedMap\(map\)\);$/m, program);
    assert.match(program, /^addMapping\(map, /m, program);
    assert.doesNotMatch(program, /node:assert/, program);
  });

  it('leaves an example alone when it prints already, or when the package is the assertion library', async () => {
    const prints = "console.log(whichTypedArray([]));\nassert.equal(false, whichTypedArray(null));";
    const { code } = await nodeProgram(prints, 'js', 'which-typed-array', undefined);
    assert.match(code, /^assert\.equal\(false, whichTypedArray\(null\)\);$/m, code);
    const own = "const assert = require('assert');\nassert.equal(1, 1);";
    assert.equal(await showNodeAssertions(own, 'javascript', 'assert'), own);
  });

  it('Python top-level asserts print the value they check, and run', async () => {
    const out = await showPythonAssertions(TYPING_INSPECT.replace('from typing_inspect import is_generic_type',
      'def is_generic_type(t):\n    return hasattr(t, "__origin__") or t is Mapping'));
    assert.match(out, /^print\(is_generic_type\(Mapping\)\)$/m, out);
    assert.match(out, /^print\(is_generic_type\(int\)\)$/m, out);
    assert.doesNotMatch(out, /^assert /m);
    assert.equal(execFileSync('python3', ['-c', out], { encoding: 'utf8' }), 'True\nTrue\nFalse\nTrue\n');
  });

  it('Python comparisons print the side the example computes', async () => {
    const out = await showPythonAssertions('import json\nassert json.dumps([1]) == "[1]"\nassert "{}" == json.dumps({})\nassert 1 in json.loads("[1]"), "one"');
    assert.match(out, /^print\(json\.dumps\(\[1\]\)\)$/m, out);
    assert.match(out, /^print\(json\.dumps\(\{\}\)\)$/m, out);
    assert.match(out, /^print\(json\.loads\("\[1\]"\)\)$/m, out);
    assert.equal(execFileSync('python3', ['-c', out], { encoding: 'utf8' }), '[1]\n{}\n[1]\n');
  });

  it('the PyPI program of typing_inspect prints the checked values', async () => {
    const code = await pythonProgram(TYPING_INSPECT, 'python', 'typing_inspect');
    assert.match(code, /^print\(is_generic_type\(Iterable\[int\]\)\)$/m, code);
    // Asserts inside functions (a test's body) are not the example's output: left.
    const inFunction = await pythonProgram('import json\n\ndef check():\n    assert json.dumps(1) == "1"\n\ncheck()\nprint("ok")\n', 'python', 'json');
    assert.match(inFunction, /^ {4}assert json\.dumps\(1\) == "1"$/m, inFunction);
  });

  it('console.assert prints its condition\'s computed side; the npm program of whatwg-mimetype shows the parse', async () => {
    // whatwg-mimetype 5.0.0's README example, as published: its results sit in console.asserts (round 15's rater: "parse
    // results are only checked in silent console.asserts").
    const readme = [
      'const { MIMEType } = require("whatwg-mimetype");', '', 'const mimeType = new MIMEType(`Text/HTML;Charset="utf-8"`);', '',
      'console.assert(mimeType.toString() === "text/html;charset=utf-8");', '', 'console.assert(mimeType.type === "text");',
      'console.assert(mimeType.parameters.get("charset") === "utf-8");', 'mimeType.parameters.set("charset", "windows-1252");',
      'console.assert(mimeType.isHTML() === true);', 'console.assert(mimeType.isXML() === false);',
    ].join('\n');
    const { code } = await nodeProgram(readme, 'js', 'whatwg-mimetype', undefined);
    assert.match(code, /^console\.log\(mimeType\.toString\(\)\);$/m, code);
    assert.match(code, /^console\.log\(mimeType\.type\);$/m, code);
    assert.match(code, /^console\.log\(mimeType\.parameters\.get\("charset"\)\);$/m, code);
    assert.doesNotMatch(code, /console\.assert/, code);
    // Run on a stand-in class with the same surface: it prints the values, not a lone Map.
    const stand = code.replace(/^const \{ MIMEType \} = require\("whatwg-mimetype"\);$/m, [
      'class MIMEType { constructor(s) { const [e, p] = s.toLowerCase().split(";"); [this.type, this.subtype] = e.split("/"); this.parameters = new Map([p.replace(/"/g, "").split("=")]); }',
      '  toString() { return `${this.type}/${this.subtype};${[...this.parameters].map((kv) => kv.join("=")).join(";")}`; } isHTML() { return this.subtype === "html"; } isXML() { return false; } }',
    ].join('\n'));
    assert.equal(execFileSync(process.execPath, ['-e', stand], { encoding: 'utf8' }), 'text/html;charset=utf-8\ntext\nutf-8\ntrue\nfalse\n');
    const plain = await showNodeAssertions('console.assert(f(1));\nconsole.assert(2 < g(), "small");', 'javascript');
    assert.equal(plain, 'console.log(f(1));\nconsole.log(g());');
  });
  it('a check with a function Node\'s assert lacks (is-regex\'s assert.notOk) shows its value, and the program runs', async () => {
    assert.equal(nodeAssertHas('notOk'), false);
    assert.equal(nodeAssertHas('ok'), true);
    assert.equal(nodeAssertHas('deepStrictEqual'), true);
    const { code } = await nodeProgram(IS_REGEX, 'js', 'is-regex', undefined);
    assert.match(code, /^console\.log\(isRegex\(undefined\)\);$/m, code);
    assert.match(code, /^console\.log\(isRegex\('foo'\)\);$/m, code);
    assert.doesNotMatch(code, /assert\.notOk/, code);
    assert.doesNotMatch(code, /require\('assert'\)/, code);
    // Run with a local isRegex: before the change the first check threw "assert.notOk is not a function".
    const local = code.replace("var isRegex = require('is-regex');", 'var isRegex = (v) => v instanceof RegExp;');
    assert.equal(execFileSync(process.execPath, ['-e', local], { encoding: 'utf8' }), 'false\nfalse\nfalse\nfalse\ntrue\ntrue\n');
  });

  it('a silent example of such checks prints them all; checks Node has and other libraries\' assert stay', async () => {
    const silent = "const isOdd = require('is-odd');\nconst assert = require('assert');\nassert.ok(isOdd(3));\nassert.notOk(isOdd(4));";
    const { code } = await nodeProgram(silent, 'js', 'is-odd', undefined);
    assert.match(code, /^console\.log\(isOdd\(3\)\);\nconsole\.log\(isOdd\(4\)\);$/m, code);
    // In an example that prints, Node's own checks (assert.ok) are kept; only the one that would throw is shown.
    const mixed = "const assert = require('node:assert');\nconsole.log(f(1));\nassert.ok(f(2));\nassert.isTrue(f(3));\nfunction g() { assert.notOk(f(4)); }";
    assert.equal(await showChecksNodeLacks(mixed, 'javascript'), "const assert = require('node:assert');\nconsole.log(f(1));\nassert.ok(f(2));\nconsole.log(f(3));\nfunction g() { console.log(f(4)); }");
    // chai's assert (not Node's module) has notOk: left as it is; so is an assertion library's own example.
    const chai = "const { assert } = require('chai');\nconsole.log(f(1));\nassert.notOk(f(2));";
    assert.equal(await showChecksNodeLacks(chai, 'javascript'), chai);
    assert.equal(await showChecksNodeLacks(IS_REGEX, 'javascript', 'tape'), IS_REGEX);
  });
  // Round 19 noticed: dacite's README checks `assert result == B(a=A(x='test', y=1))`, and the printed side was the
  // expected value written out (it calls a constructor), not `result`, which the package computed.
  it('a Python comparison prints the name the example computed, not the expected value written out', async () => {
    const code = [
      'import json',
      'from dataclasses import dataclass',
      '',
      '@dataclass',
      'class Point:',
      '    x: int',
      '    y: int',
      '',
      'data = json.loads(\'{"x": 1, "y": 2}\')',
      'result = Point(**data)',
      'assert result == Point(x=1, y=2)',
      'assert Point(x=1, y=2) == result',
      'expected = {"x": 1}',
      'assert expected == json.loads(\'{"x": 1}\')',
      'for (key, value) in data.items():',
      '    pass',
      'assert str(value) == str(2)',
    ].join('\n');
    const out = await showPythonAssertions(code);
    assert.equal(out.split('\n').filter((l) => l.startsWith('print(')).join('\n'),
      'print(result)\nprint(result)\nprint(json.loads(\'{"x": 1}\'))\nprint(str(value))', out);
    assert.equal(execFileSync('python3', ['-c', out], { encoding: 'utf8' }), 'Point(x=1, y=2)\nPoint(x=1, y=2)\n{\'x\': 1}\n2\n');
  });

  it('a Node check prints the value the example computed, not one it builds as the expected side', async () => {
    const code = [
      "const assert = require('assert');",
      "const url = new URL('https://example.com/a?b=1');",
      "assert.strictEqual(String(new URL('https://example.com/a?b=1')), url.href);",
      "console.assert(new URL('https://example.com/').host === url.host);",
    ].join('\n');
    const out = await showNodeAssertions(code, 'javascript', 'whatwg-url');
    assert.match(out, /^console\.log\(url\.href\);$/m, out);
    assert.match(out, /^console\.log\(url\.host\);$/m, out);
    assert.equal(execFileSync('node', ['-e', out], { encoding: 'utf8' }), 'https://example.com/a?b=1\nexample.com\n');
  });
});
