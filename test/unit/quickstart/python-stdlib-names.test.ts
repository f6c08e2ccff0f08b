// A README example that uses a standard module's public name bare, its import left to the reader: dacite's README
// (round 15's fresh set: every example after the first failed "NameError: name 'dataclass' is not defined", and a
// cache setting, get_cache_size(), was the pick), importlib-resources' `ExitStack`, ijson's `urlopen`. The repair
// imported standard modules named bare (`json`), never a module's member, so the name was sent to the package or a
// stand-in. host-facts.ts now reads every standard module's `__all__` (with python's own `ast`, nothing imported) and
// a name that one module exports is imported from it. The script runs in the local python3; the program made after
// the repair runs with a local `dacite` module standing in for the package.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STDLIB_NAMES_SCRIPT, parseStdlibNames } from '../../../src/quickstart/host-facts.ts';
import { makeProgram, repairFor } from '../../../src/quickstart/programs/index.ts';
import type { PackageInfo } from '../../../src/quickstart/types.ts';

/** A dacite README block that uses `@dataclass` without importing it (the README imports it once, at the top). */
const DACITE_BLOCK = [
  'from dacite import from_dict', '',
  '@dataclass', 'class A:', '    x: str', '    y: int', '',
  "data = {'x': 'test', 'y': 1}", '',
  'result = from_dict(data_class=A, data=data)', '',
  'print(result)',
].join('\n');

describe('a standard module\'s public name used bare is imported from its module', () => {
  const names = parseStdlibNames(execFileSync('python3', ['-c', STDLIB_NAMES_SCRIPT], { encoding: 'utf8' }));

  it('reads each standard module\'s __all__ without importing it; a name two modules export is left out', () => {
    assert.equal(names.get('dataclass'), 'dataclasses');
    assert.equal(names.get('ExitStack'), 'contextlib');
    assert.equal(names.get('urlopen'), 'urllib.request');
    assert.equal(names.get('defaultdict'), 'collections');
    // pathlib.Path and zipfile.Path: which one the example means is not known.
    assert.equal(names.has('Path'), false);
    // No test or private module is a source.
    assert.ok(![...names.values()].some((m) => /(^|\.)(_|test\b|tests\b)/.test(m)), [...names.values()].find((m) => /(^|\.)(_|test\b)/.test(m)));
  });

  it('the NameError of dacite\'s `@dataclass` imports it from dataclasses, and the program runs', async () => {
    const info: PackageInfo = { ecosystem: 'pypi', name: 'dacite', slug: 'pypi-dacite', version: '1.9.2', importName: 'dacite', pyExports: ['from_dict', 'Config'] };
    const host = { pythonStdlib: new Set(['dataclasses', 'json']), pythonBuiltins: new Set(['print', 'dict']), pythonStdlibNames: names, goStd: new Map<string, string>(), runtimes: {} };
    const repaired = repairFor(info, "Traceback (most recent call last):\n  File \"main.py\", line 3, in <module>\nNameError: name 'dataclass' is not defined", {}, host);
    // Only that: not a stand-in, nor an import from the package.
    assert.deepEqual(repaired, { pythonStdlibNames: ['dataclasses.dataclass'] });
    const program = await makeProgram({ code: DACITE_BLOCK, language: 'python', origin: 'readme', path: 'README.md', source: 'u' }, info, host, repaired);
    assert.match(program.code, /^from dataclasses import dataclass$/m, program.code);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stdlib-names-'));
    fs.writeFileSync(path.join(dir, 'dacite.py'), 'def from_dict(data_class, data):\n    return data_class(**data)\n');
    fs.writeFileSync(path.join(dir, 'main.py'), program.code);
    assert.equal(execFileSync('python3', ['main.py'], { cwd: dir, encoding: 'utf8' }), "A(x='test', y=1)\n");
    // The package's own name comes first (attrs' `define`), and without the facts nothing changes.
    assert.deepEqual(repairFor({ ...info, pyExports: ['dataclass'] }, "NameError: name 'dataclass' is not defined", {}, host)?.pythonNames, ['dataclass']);
    assert.equal(repairFor(info, "NameError: name 'dataclass' is not defined", {}, { ...host, pythonStdlibNames: undefined })?.pythonStdlibNames, undefined);
  });

  it('after the first repair, every other bare standard name is imported at once', async () => {
    const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo', pyExports: ['run'] };
    const host = { pythonStdlib: new Set(['json']), pythonBuiltins: new Set(['print']), pythonStdlibNames: names, goStd: new Map<string, string>(), runtimes: {} };
    const code = 'stack = ExitStack()\nprint(run(json.dumps(defaultdict(int))), stack)';
    const program = await makeProgram({ code, language: 'python', origin: 'readme', path: 'README.md', source: 'u' }, info, host, { pythonNames: ['run'] });
    const imports = program.code.split('\n').filter((l) => /^(from|import) /.test(l)).sort();
    assert.deepEqual(imports, ['from collections import defaultdict', 'from contextlib import ExitStack', 'from demo import run', 'import json'], program.code);
  });
  // Round 19 noticed: a name used only in a `with` item (`with ExitStack() as stack:`, importlib-resources' README) or
  // only in an except clause's body counted as bound, so it was never imported with the others.
  it('names used only in a with item or in an except clause\'s body are imported too, and the program runs', async () => {
    const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo', pyExports: ['run'] };
    const host = { pythonStdlib: new Set(['json']), pythonBuiltins: new Set(['print', 'str', 'KeyError']), pythonStdlibNames: names, goStd: new Map<string, string>(), runtimes: {} };
    const code = [
      'with ExitStack() as stack:',
      '    stack.callback(print, "closed")',
      '    try:',
      '        run({})["missing"]',
      '    except KeyError as err:',
      '        print(json.dumps({"error": dedent(str(err))}))',
    ].join('\n');
    const program = await makeProgram({ code, language: 'python', origin: 'readme', path: 'README.md', source: 'u' }, info, host, { pythonNames: ['run'] });
    const imports = program.code.split('\n').filter((l) => /^(from|import) /.test(l)).sort();
    assert.deepEqual(imports, ['from contextlib import ExitStack', 'from demo import run', 'from textwrap import dedent', 'import json'], program.code);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-with-'));
    fs.mkdirSync(path.join(dir, 'demo'));
    fs.writeFileSync(path.join(dir, 'demo', '__init__.py'), 'def run(value):\n    return value\n');
    fs.writeFileSync(path.join(dir, 'main.py'), program.code);
    assert.equal(execFileSync('python3', ['main.py'], { cwd: dir, encoding: 'utf8' }), '{"error": "\'missing\'"}\nclosed\n');
  });
});
