// The teach feature `usesValue` (teach-features.ts): a program that changes or hands on a value it got and reads it
// again, or feeds one call's result to another, against one that only makes a value and shows it once (the
// `Default`-and-read program a rater calls trivial). Read from the syntax tree of made-up programs; nothing is run.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TEACH_FEATURES, teachFeatures, usesValue } from '../../../src/quickstart/teach-features.ts';

describe('usesValue: write then read vs construct and read once', () => {
  it('Rust: a default value read once is not a use; written then read is', async () => {
    assert.equal(await usesValue('crates', 'fn main() {\n    let s = Small::default();\n    println!("{}", s.as_str());\n}'), false);
    assert.equal(await usesValue('crates', 'fn main() {\n    let mut b = Small::default();\n    b.push_str("hi");\n    println!("{}", b.len());\n}'), true);
  });

  it('JavaScript: a result fed to another call, and set then get, are uses; a dumped instance and one call are not', async () => {
    assert.equal(await usesValue('npm', "import { encode, decode } from 'b';\nconsole.log(decode(encode('hi')));"), true);
    assert.equal(await usesValue('npm', "import { Cache } from 'c';\nconst c = new Cache();\nc.set('a', 1);\nconsole.log(c.get('a'));"), true);
    assert.equal(await usesValue('npm', "import { Cache } from 'c';\nconst c = new Cache();\nconsole.log(c);"), false);
    assert.equal(await usesValue('npm', "import { f } from 'c';\nconsole.log(f('x'));"), false);
  });

  it('Go and Python: the same line', async () => {
    assert.equal(await usesValue('go', 'package main\n\nimport (\n\t"fmt"\n\t"x/cache"\n)\n\nfunc main() {\n\tc := cache.New()\n\tc.Set("a", "b")\n\tfmt.Println(c.Get("a"))\n}'), true);
    assert.equal(await usesValue('go', 'package main\n\nimport (\n\t"fmt"\n\t"x/cache"\n)\n\nfunc main() {\n\tc := cache.New()\n\tfmt.Println(c)\n}'), false);
    assert.equal(await usesValue('pypi', 'import m\nd = m.Doc()\nd.add("x")\nprint(d.render())'), true);
    assert.equal(await usesValue('pypi', 'import m\nw = m.Warning()\nprint(w.args)'), false);
  });

  it('is a declared teach feature', async () => {
    assert.ok((TEACH_FEATURES as readonly string[]).includes('usesValue'));
    const x = await teachFeatures({ ecosystem: 'npm', program: "import { Cache } from 'c';\nconst c = new Cache();\nc.set('a', 1);\nconsole.log(c.get('a'));", stdout: '1', origin: 'readme', score: 0, signals: [] });
    assert.equal(x.usesValue, 1);
  });
});
