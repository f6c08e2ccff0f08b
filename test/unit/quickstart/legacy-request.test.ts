// The docs capability's plain test request (what a context carries while verification is pending or off) reads a
// Rust doctest the way rustdoc does: hidden `# ` lines stay in the program.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testRequestFor } from '../../../src/docs/context.ts';

const mainOf = (request: Record<string, unknown> | null) => (request?.files as Array<{ code: string }>)[0]!.code;

describe('unverified Rust test requests', () => {
  it('keep the doctest\'s hidden lines: its own fn main and setup are used, not dropped', () => {
    const code = '# use std::collections::HashMap;\n# fn main() -> Result<(), Box<dyn std::error::Error>> {\nlet mut m = HashMap::new();\nm.insert(1, demo::f()?);\nprintln!("{:?}", m);\n# Ok(())\n# }';
    assert.equal(mainOf(testRequestFor('crates', 'demo', '1.0.0', 'crates-demo', { code, language: 'rust', source: 'u' })),
      'use std::collections::HashMap;\nfn main() -> Result<(), Box<dyn std::error::Error>> {\nlet mut m = HashMap::new();\nm.insert(1, demo::f()?);\nprintln!("{:?}", m);\nOk(())\n}\n');
  });

  it('wrap a fragment in main with its hidden use lines at the top and attributes kept', () => {
    const code = '# use demo::Thing;\n#[derive(Debug)]\nstruct A;\nlet t = Thing::new();\n#\nprintln!("{:?} {:?}", t, A);';
    const main = mainOf(testRequestFor('crates', 'demo', '1.0.0', 'crates-demo', { code, language: 'rust', source: 'u' }));
    assert.match(main, /^use demo::Thing;\n\nfn main\(\) \{\n/);
    assert.match(main, /    let t = Thing::new\(\);/);
    assert.match(main, /#\[derive\(Debug\)\]/);
  });
});

describe('unverified npm test requests', () => {
  const pathOf = (code: string, language: string) => (testRequestFor('npm', 'demo', '1.0.0', 'npm-demo', { code, language, source: 'u' })?.files as Array<{ path: string }>)[0]!.path;
  it('run an example with imports as an ES module, TypeScript too (top-level await fails in a CommonJS .ts)', () => {
    assert.equal(pathOf("import { z } from 'demo';\nconsole.log(await z.parseAsync(1));", 'ts'), 'index.mts');
    assert.equal(pathOf("import demo from 'demo';\nconsole.log(demo(1));", 'js'), 'index.mjs');
    assert.equal(pathOf('console.log(demo(1));', 'js'), 'index.mjs');
  });
  it('keep a require-style example CommonJS', () => {
    assert.equal(pathOf("const demo = require('demo');\nconsole.log(demo(1));", 'js'), 'index.cjs');
    assert.equal(pathOf("const demo = require('demo');\nconst n: number = demo(1);\nconsole.log(n);", 'ts'), 'index.cts');
  });
});
