// Placeholder paths an example reads or writes into (`./path/to/schema.json`, Go's `lstat your/src`, Rust's
// `File::open("tests/samples/x.gif")`): which path a failed run names in each ecosystem, what the stand-in holds, and
// that the program made with it runs under Node (the JSON import gets the attribute Node requires).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixtureFile, missingPath, sampleContent } from '../../../src/quickstart/fixtures.ts';
import { makeProgram, repairFor } from '../../../src/quickstart/programs/index.ts';
import { withJsonAttributes } from '../../../src/quickstart/programs/node.ts';
import type { PackageInfo, Program } from '../../../src/quickstart/types.ts';
import { silentRunFixtures } from '../../../src/quickstart/verify.ts';

const host = { pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: {} };

describe('the path a failed run names as missing', () => {
  it('reads Node\'s ENOENT and an ES module import of a data file under the workspace', () => {
    assert.equal(missingPath("Error: ENOENT: no such file or directory, open '/workspace/config.yml'"), 'config.yml');
    assert.equal(missingPath("Error: ENOENT: no such file or directory, open 'data/in/users.csv'"), 'data/in/users.csv');
    assert.equal(missingPath("Error: ENOENT: no such file or directory, scandir 'fixtures'"), 'fixtures/');
    assert.equal(missingPath("Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/workspace/path/to/schema.json' imported from /workspace/index.mjs"), 'path/to/schema.json');
    // A missing module that is code, or a file outside the workspace, is no input to create.
    assert.equal(missingPath("Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/workspace/lib/util.js' imported from /workspace/index.mjs"), undefined);
    assert.equal(missingPath("Error: ENOENT: no such file or directory, open '/etc/nothing/here.conf'"), undefined);
    assert.equal(missingPath("Error: ENOENT: no such file or directory, open '../outside.json'"), undefined);
  });

  it('reads Python\'s FileNotFoundError, files only', () => {
    assert.equal(missingPath("FileNotFoundError: [Errno 2] No such file or directory: 'docs/example.ini'"), 'docs/example.ini');
    assert.equal(missingPath("FileNotFoundError: [Errno 2] No such file or directory: 'README'"), undefined);
  });

  it('reads Go\'s path errors: a path with no extension that is stat\'ed is a directory', () => {
    assert.equal(missingPath('Error: lstat test/data/example: no such file or directory'), 'test/data/example/');
    assert.equal(missingPath('panic: open config/settings.json: no such file or directory'), 'config/settings.json');
    assert.equal(missingPath('panic: open go.mod: no such file or directory'), undefined);
  });

  it('reads the file a Rust compile-time include names (include_str!, include_bytes!), relative to the crate root', () => {
    assert.equal(missingPath("error: couldn't read `src/stackoverflow.html`: No such file or directory (os error 2)\n --> src/main.rs:4:24"), 'src/stackoverflow.html');
    // Never the program itself, a manifest, or a path outside the workspace.
    assert.equal(missingPath("error: couldn't read `src/lib.rs`: No such file or directory (os error 2)"), undefined);
    assert.equal(missingPath("error: couldn't read `/etc/data.txt`: No such file or directory (os error 2)"), undefined);
    assert.equal(missingPath("error: couldn't read `src/page.html`: Permission denied (os error 13)"), undefined);
  });

  it('reads Rust\'s NotFound panic from the literal on the line that panicked', () => {
    const main = 'use std::fs::File;\nfn main() {\n    let input = File::open("tests/samples/sample_1.gif").unwrap();\n    println!("{:?}", input);\n}\n';
    const stderr = "thread 'main' (2) panicked at src/main.rs:3:58:\ncalled `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: \"No such file or directory\" }";
    assert.equal(missingPath(stderr, main), 'tests/samples/sample_1.gif');
    assert.equal(missingPath(stderr.replace(':3:', ':4:'), main), undefined);
    assert.equal(missingPath(stderr.replace('NotFound', 'PermissionDenied'), main), undefined);
  });
});

describe('what a stand-in holds', () => {
  it('is valid text of its kind, the docs\' own content first; a binary kind stays empty; a directory gets one file', () => {
    assert.deepEqual(JSON.parse(sampleContent('path/to/schema.json')!), {});
    assert.match(sampleContent('users.csv')!, /^name,value\n/);
    assert.equal(sampleContent('photo.png'), undefined);
    assert.deepEqual(fixtureFile('photo.png', [], 'README.md'), { path: 'photo.png', code: '', from: 'empty' });
    assert.equal(fixtureFile('your/src/', [], 'README.md').path, 'your/src/example.txt');
    assert.equal(fixtureFile('conf.yml', [{ path: 'README.md', language: 'yaml', code: 'port: 80\n' }], 'README.md').code, 'port: 80\n');
  });
});

describe('programs with stand-in paths in every ecosystem', () => {
  const go: PackageInfo = { ecosystem: 'go', name: 'example.com/copy', slug: 'go-example.com__copy', version: 'v1.0.0', importName: 'example.com/copy' };
  const crates: PackageInfo = { ecosystem: 'crates', name: 'gifish', slug: 'crates-gifish', version: '0.1.0', importName: 'gifish' };

  it('asks for the path once, and the Go and Rust requests carry it', async () => {
    const adjust = repairFor(go, 'Error: lstat your/directory: no such file or directory', {});
    assert.deepEqual(adjust?.fixtures, ['your/directory/']);
    assert.equal(repairFor(go, 'Error: lstat your/directory: no such file or directory', adjust!)?.fixtures, undefined);
    const program = await makeProgram({ code: 'err := copy.Copy("your/directory", "your/directory.copy")\nfmt.Println(err)', language: 'go', origin: 'readme', path: 'README.md', source: 'u' }, go, host, adjust);
    assert.deepEqual(program.request.files.map((f) => f.path), ['main.go', 'your/directory/example.txt']);
    assert.match(program.note ?? '', /created the directory your\/directory\/ with one small text file/);
    const rust = await makeProgram({ code: 'let f = std::fs::File::open("tests/x.txt").unwrap();\nprintln!("{:?}", f);', language: 'rust', origin: 'readme', path: 'README.md', source: 'u' }, crates, host, { fixtures: ['tests/x.txt'] });
    assert.deepEqual(rust.request.files.map((f) => f.path), ['Cargo.toml', 'src/main.rs', 'tests/x.txt']);
    assert.match(rust.note ?? '', /created tests\/x\.txt with a small sample of its kind/);
  });
});

describe('an ES module importing a JSON file', () => {
  let dir: string | undefined;
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

  it('gets the JSON import attribute, once, and runs under Node with the stand-in file', async () => {
    const rewritten = await withJsonAttributes("import schema from './path/to/schema.json';\nimport other from './b.json' with { type: 'json' };\nimport x from 'x';\n", 'javascript');
    assert.equal(rewritten, "import schema from './path/to/schema.json' with { type: 'json' };\nimport other from './b.json' with { type: 'json' };\nimport x from 'x';\n");
    const npm: PackageInfo = { ecosystem: 'npm', name: 'node:path', slug: 'npm-x', version: '1.0.0', importName: 'node:path', moduleType: 'module' };
    const candidate = { code: "import schema from './path/to/schema.json';\nconsole.log(Object.keys(schema).length, typeof schema);", language: 'js', origin: 'readme' as const, path: 'README.md', source: 'u' };
    const adjust = repairFor(npm, "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/workspace/path/to/schema.json' imported from /workspace/index.mjs", {});
    const program = await makeProgram(candidate, npm, host, adjust);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'missing-paths-'));
    for (const file of program.request.files) {
      fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, file.path), file.code);
    }
    const out = execFileSync(process.execPath, [program.request.files[0]!.path], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(out.trim(), '0 object');
  });
});

describe('a run that printed the error of a path it looked for', () => {
  const goProgram = (code: string): Program => ({ code, language: 'go', version: 'v1.0.0', request: { language: 'golang', code, files: [], packages: [] } as unknown as Program['request'] });
  const code = 'package main\n\nimport (\n\t"fmt"\n\t"example.com/copy"\n)\n\nfunc main() {\n\terr := copy.Copy("your/src", "your/dst")\n\tfmt.Println(err)\n}\n';
  it('gets that path on its next try, once (Go prints the caught error to stdout, so the failed-run repair never sees it)', async () => {
    const program = goProgram(code);
    assert.deepEqual(await silentRunFixtures(program, 'go', {}, 'lstat your/src: no such file or directory\n'), ['your/src/']);
    assert.deepEqual(await silentRunFixtures(program, 'go', { fixtures: ['your/src/'] }, 'lstat your/src: no such file or directory\n'), []);
  });
  it('gets nothing when its output names no missing path', async () => {
    assert.deepEqual(await silentRunFixtures(goProgram(code), 'go', {}, '<nil>\n'), []);
  });
});
