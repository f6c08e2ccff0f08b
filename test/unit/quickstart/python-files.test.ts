// Python programs whose result is a file they write (programs/python-files.ts): the files the example names are noted
// before it runs and printed at exit when written, else its value is. Real parses; the scripts run with python3 in a
// temporary directory (standard library only), skipped where there is no python3.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pythonProgram } from '../../../src/quickstart/programs/python.ts';

const hasPython = spawnSync('python3', ['--version']).status === 0;

function runPython(script: string, before: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'python-files-'));
  try {
    for (const [name, text] of Object.entries(before)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'main.py'), script);
    return execFileSync('python3', ['main.py'], { cwd: dir, encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('python files: a program whose result is a file says what it wrote', () => {
  it('a script that writes a file and prints nothing prints the file at exit instead of its last value', async () => {
    const script = await pythonProgram('import csv\nrows = [["name", "total"], ["ada", 3]]\nwith open("report.csv", "w", newline="") as f:\n    csv.writer(f).writerows(rows)\nlen(rows)', 'python', 'csv');
    assert.match(script, /\n_value_at_exit = \(len\(rows\)\)\n\n\ndef _print_files_written\(\):/, script);
    if (hasPython) assert.equal(runPython(script), 'wrote report.csv (19 bytes):\nname,total\r\nada,3\n');
  });

  it('an input that is there before and not written is not shown: the value is printed instead', async () => {
    const script = await pythonProgram('from pathlib import Path\nwords = Path("in.txt").read_text().split()', 'python', 'pathlib');
    assert.match(script, /\n_value_at_exit = \(words\)\n/, script);
    if (hasPython) assert.equal(runPython(script, { 'in.txt': 'one two\n' }), "['one', 'two']\n");
  });

  it('a path with directories counts as a file the script may write', async () => {
    const script = await pythonProgram('import json\nwith open("out/data.json", "w") as f:\n    json.dump({"a": 1}, f)', 'python', 'json');
    assert.match(script, /for _name in \["out\/data\.json"\]/, script);
    if (!hasPython) return;
    const dir = mkdtempSync(join(tmpdir(), 'python-files-'));
    try {
      mkdirSync(join(dir, 'out'));
      writeFileSync(join(dir, 'main.py'), script);
      assert.equal(execFileSync('python3', ['main.py'], { cwd: dir, encoding: 'utf8' }), 'wrote out/data.json (8 bytes):\n{"a": 1}\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a __future__ import stays first; a script that prints or names no file is unchanged by this', async () => {
    const future = await pythonProgram('from __future__ import annotations\nimport json\njson.dump({"a": 1}, open("out.json", "w"))', 'python', 'json');
    assert.match(future, /^from __future__ import annotations\nimport atexit as _atexit\n/, future);
    const prints = await pythonProgram('import json\njson.dump({}, open("o.json", "w"))\nprint("done")', 'python', 'json');
    assert.doesNotMatch(prints, /_files_at_start/);
    const plain = await pythonProgram('import math\nmath.sqrt(2)', 'python', 'math');
    assert.equal(plain, 'import math\nprint(math.sqrt(2))\n');
  });
});

describe('python files: a script that fails keeps its own error last', () => {
  it('an example that raises before the report is defined ends with its error, not a NameError at exit', async () => {
    const script = await pythonProgram('import json\ndata = json.loads(open("in.json").read())\njson.dump(data, open("out.json", "w"))', 'python', 'json');
    assert.match(script, /_files_at_start/, script);
    if (!hasPython) return;
    const dir = mkdtempSync(join(tmpdir(), 'python-files-'));
    try {
      writeFileSync(join(dir, 'main.py'), script);
      const run = spawnSync('python3', ['main.py'], { cwd: dir, encoding: 'utf8' });
      assert.notEqual(run.status, 0);
      const last = run.stderr.trim().split('\n').pop() ?? '';
      assert.match(last, /^FileNotFoundError: .*in\.json/, run.stderr);
      assert.doesNotMatch(run.stderr, /_print_files_written|atexit/, run.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
