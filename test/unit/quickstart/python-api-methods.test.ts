// Python programs written from the declared API use the instance they build: the class's own methods are called with
// plain values, data in before it is read back, and what they return is printed, not the instance's attributes.
// Made-up packages only; the written program is run by this machine's Python where it has one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docsValues } from '../../../src/quickstart/docs-values.ts';
import { pythonApiCandidates } from '../../../src/quickstart/python-api.ts';

const file = (p: string, src: string) => ({ path: p, bytes: new TextEncoder().encode(src) });
const artifact = (files: ReturnType<typeof file>[]) => ({ files, importName: 'shelf', fileUrl: (p: string) => p });

const SHELF = `class Shelf:
    """Keeps values by key."""

    def __init__(self):
        self.items = {}
        self.name = "shelf"

    def lookup(self, key: str) -> str:
        return self.items.get(key, "missing")

    def put(self, key: str, value: str) -> str:
        self.items[key] = value
        return value

    def size(self) -> int:
        return len(self.items)

    def reset(self):
        self.items = {}

    def touch(self, key: str) -> None:
        pass

    @property
    def empty(self):
        return not self.items
`;

describe('Python programs from the declared API use the instance', () => {
  it('calls the class\'s methods, the one taking more data first, and prints what they return', async () => {
    const found = await pythonApiCandidates(artifact([file('shelf/__init__.py', SHELF)]));
    const used = found[0]!;
    assert.match(used.code, /^import shelf\n\nshelf_value = shelf\.Shelf\(\)\n|^import shelf\n\nshelf = shelf\.Shelf\(\)\n/);
    const put = used.code.indexOf('.put("example", "Example 10")');
    const lookup = used.code.indexOf('.lookup("example")');
    const size = used.code.indexOf('.size()');
    assert.ok(put > 0 && lookup > put && size > lookup, used.code);
    // Nothing that only changes state or returns nothing, no property, no attribute dump.
    assert.doesNotMatch(used.code, /reset|touch|empty|vars\(/);
    // The older program (the instance shown) is still offered after it.
    assert.ok(found.slice(1).some((c) => /vars\(/.test(c.code)));
  });

  it('the docs\' text goes to the methods they call', async () => {
    const docs = await docsValues('pypi', [{ code: 's = shelf.Shelf()\ns.put("colour", "blue")\nprint(s.lookup("colour"))', language: 'python', origin: 'readme', path: 'README.md', source: '' }]);
    const [used] = await pythonApiCandidates(artifact([file('shelf/__init__.py', SHELF)]), docs);
    assert.match(used!.code, /\.put\("colour", "example"\)/);
    assert.match(used!.code, /\.lookup\("colour"\)/);
  });

  const noPython = spawnSync('python3', ['--version']).status !== 0;
  it('the written program runs and reads back what it put in', { skip: noPython && 'no python3 here' }, async () => {
    const [used] = await pythonApiCandidates(artifact([file('shelf/__init__.py', SHELF)]));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'py-api-'));
    try {
      fs.mkdirSync(path.join(dir, 'shelf'));
      fs.writeFileSync(path.join(dir, 'shelf', '__init__.py'), SHELF);
      fs.writeFileSync(path.join(dir, 'main.py'), used!.code);
      const run = spawnSync('python3', ['main.py'], { cwd: dir, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, "put('example', 'Example 10'): Example 10\nlookup('example'): Example 10\nsize(): 1\n");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
