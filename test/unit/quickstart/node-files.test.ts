// npm programs whose result is a file they write (programs/node-files.ts): the files the example names are noted
// before it runs and printed at exit when written, else its values are. Real parses; the programs run with node in a
// temporary directory (core modules only).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeProgram } from '../../../src/quickstart/programs/node.ts';
import { SHOW_AT_EXIT, withWrittenFiles } from '../../../src/quickstart/programs/node-files.ts';

function runNode(path: string, code: string, before: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'node-files-'));
  try {
    for (const [name, text] of Object.entries(before)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, path), code);
    return execFileSync(process.execPath, [path], { cwd: dir, encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('node files: a program whose result is a file says what it wrote', () => {
  it('an example that prints nothing and names files has its values shown at exit, not inline', async () => {
    const made = await nodeProgram("var Combined = require('combiner');\nvar fs = require('fs');\n\nvar c = Combined.create();\nc.append(fs.createReadStream('file1.txt'));\nc.pipe(fs.createWriteStream('combined.txt'));", 'js', 'combiner', 'commonjs');
    assert.match(made.code, new RegExp(`${SHOW_AT_EXIT}\\(c\\.append\\(fs\\.createReadStream\\('file1\\.txt'\\)\\)\\)`), made.code);
    assert.match(made.code, /^noteFilesWritten\(\["file1\.txt","combined\.txt"\]\);\n\nvar Combined = require\('combiner'\);/, made.code);
    assert.doesNotMatch(made.code, /console\.log\(c\.append/, made.code);
  });

  it('prints the file written since the start (text by its lines), not the input that was there before', () => {
    const example = "const fs = require('node:fs');\nconst input = fs.readFileSync('in.txt', 'utf8');\nshowAtExit(fs.writeFileSync('out.csv', input.toUpperCase()));\n";
    const out = runNode('index.cjs', withWrittenFiles(example, ['in.txt', 'out.csv'], false), { 'in.txt': 'a,b\n1,2\n' });
    assert.equal(out, 'wrote out.csv (8 bytes):\nA,B\n1,2\n');
  });

  it('when no file was written, the values are printed as console.log would; binary content by its size (ES module)', () => {
    const nothing = runNode('index.mjs', withWrittenFiles('showAtExit({ ok: true, n: 2 });\n', ['absent.txt'], true));
    assert.equal(nothing, '{ ok: true, n: 2 }\n');
    const binary = "import { writeFileSync } from 'node:fs';\nwriteFileSync('out.bin', Buffer.from([0, 1, 2]));\n";
    assert.equal(runNode('index.mjs', withWrittenFiles(binary, ['out.bin'], true)), 'wrote out.bin (3 bytes)\n');
  });

  it('an example that prints already, or names no file, is unchanged by this', async () => {
    const prints = await nodeProgram("const fs = require('fs');\nfs.writeFileSync('a.txt', 'x');\nconsole.log('done');", 'js', 'fs-user', 'commonjs');
    assert.doesNotMatch(prints.code, /filesAtStart/);
    const noFiles = await nodeProgram("const { add } = require('adder');\nadd(1, 2);", 'js', 'adder', 'commonjs');
    assert.match(noFiles.code, /console\.log\(add\(1, 2\)\)/);
    assert.doesNotMatch(noFiles.code, /filesAtStart/);
  });
});
