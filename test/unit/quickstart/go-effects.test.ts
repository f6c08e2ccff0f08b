// What a Go example shows when it works (programs/go-effects.ts): prints only where an error is handled count as none,
// and a program whose result is a file it writes prints that file. Parses are real (tree-sitter); the last cases build
// and run the program with the local Go toolchain (standard library only, no network), skipped where there is none.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namedFilePaths, showWrittenFiles, wherePrinted } from '../../../src/quickstart/programs/go-effects.ts';
import { goProgram } from '../../../src/quickstart/programs/go.ts';

const std = new Map([['fmt', 'fmt'], ['strings', 'strings'], ['os', 'os'], ['log', 'log'], ['bytes', 'bytes'], ['utf8', 'unicode/utf8']]);
const hasGo = spawnSync('go', ['version']).status === 0;

function runGo(program: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'go-effects-'));
  try {
    writeFileSync(join(dir, 'main.go'), program);
    writeFileSync(join(dir, 'go.mod'), 'module example.com/m\n\ngo 1.21\n');
    return execFileSync('go', ['run', '.'], { cwd: dir, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off' }, timeout: 120_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('go effects: what a run shows', () => {
  it('a print inside an error test is not a print of a run that works; one outside it is', async () => {
    const onError = 'package main\n\nfunc main() {\n\tif err := save("a.png"); err != nil {\n\t\tlog.Fatalf("could not save: %v", err)\n\t}\n}\n';
    assert.equal(await wherePrinted(onError), 'error');
    const both = 'package main\n\nfunc main() {\n\tv, err := load()\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\tfmt.Println(v)\n}\n';
    assert.equal(await wherePrinted(both), 'success');
    // An `if` that tests something else is a path a working run may take.
    assert.equal(await wherePrinted('package main\n\nfunc main() {\n\tif ok {\n\t\tfmt.Println("yes")\n\t}\n}\n'), 'success');
    assert.equal(await wherePrinted('package main\n\nfunc main() {\n\tsave()\n}\n'), 'none');
    // The else branch of an error test is the success path.
    assert.equal(await wherePrinted('package main\n\nfunc main() {\n\tif err != nil {\n\t\tpanic(err)\n\t} else {\n\t\tfmt.Println("saved")\n\t}\n}\n'), 'success');
  });

  it('names the relative files the literals give, not import paths, hosts or code', async () => {
    const program = 'package main\n\nimport "example.com/plot"\n\nfunc main() {\n\tp.Save(4, 4, "out/points.png")\n\tget("api.example.com")\n\trun("main.go")\n\tsay("hello world")\n\topen("data.csv")\n}\n';
    assert.deepEqual(await namedFilePaths(program), ['out/points.png', 'data.csv']);
    const many = `package main\n\nfunc main() {\n${['a', 'b', 'c', 'd', 'e'].map((n) => `\tuse("${n}.txt")`).join('\n')}\n}\n`;
    assert.deepEqual(await namedFilePaths(many), []);
  });

  it('a program of a file-writing example that prints only on error now prints the file it wrote', async () => {
    const example = 'if err := os.WriteFile("report.csv", []byte("name,total\\nada,3\\n"), 0o644); err != nil {\n\tlog.Fatalf("could not write: %v", err)\n}';
    const program = await goProgram(example, 'readme', undefined, { modulePackages: {}, std });
    assert.match(program, /filesAtStart := filesBefore\(\[\]string\{"report\.csv"\}\)/, program);
    if (!hasGo) return;
    assert.equal(runGo(program), 'wrote report.csv (17 bytes):\nname,total\nada,3\n');
  });

  it('a program that prints only on error and writes no file gets no dump of the value it binds', async () => {
    const example = 'c, err := stats.New(&stats.Config{Addr: "localhost:8125"})\nif err != nil {\n\tlog.Fatalf("could not start: %v", err)\n}\nstats.Register(c)';
    const program = await goProgram(example, 'readme', undefined, { modulePackages: { stats: 'example.com/stats' }, std });
    assert.doesNotMatch(program, /fmt\.Println\(c\)|printValue/, program);
  });

  it('a file that was there before and is not written again is not shown; the value bound last is printed instead', async () => {
    const program = await showWrittenFiles('package main\n\nfunc main() {\n\tdata, _ := os.ReadFile("in.txt")\n\tn := len(data)\n}\n', ['in.txt'], 'fmt.Println(n)');
    assert.match(program, /if printFilesWritten\(\[\]string\{"in\.txt"\}, filesAtStart\) == 0 \{\n\t\tfmt\.Println\(n\)\n\t\}/, program);
    if (!hasGo) return;
    const withImports = program.replace('package main\n', 'package main\n\nimport (\n\t"bytes"\n\t"fmt"\n\t"os"\n\t"strings"\n\t"unicode/utf8"\n)\n');
    // No in.txt: ReadFile fails, nothing is written, so the fallback prints the length (0).
    assert.equal(runGo(withImports), '0\n');
  });

  it('binary content is shown by its size, and a program that defines the helpers itself is left alone', async () => {
    const program = await goProgram('if err := os.WriteFile("out.bin", []byte{0, 1, 2}, 0o644); err != nil {\n\tpanic(err)\n}', 'readme', undefined, { modulePackages: {}, std });
    if (hasGo) assert.equal(runGo(program), 'wrote out.bin (3 bytes)\n');
    assert.equal(await showWrittenFiles(program, ['out.bin']), program);
  });
});
