// Examples into programs, per ecosystem (pure logic over real tree-sitter parses): transcripts, doctests, fragments,
// imports the README omits, definitions that get exercised. Table-driven; the sandbox runs are in the integration tests.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goProgram } from '../../../src/quickstart/programs/go.ts';
import { nodeProgram, packageBindings } from '../../../src/quickstart/programs/node.ts';
import { pythonProgram, transcriptToScript } from '../../../src/quickstart/programs/python.ts';
import { cargoManifest, rustProgram, unhideDoctest } from '../../../src/quickstart/programs/rust.ts';
import { rubyProgram } from '../../../src/quickstart/programs/ruby.ts';

const std = new Map([['fmt', 'fmt'], ['strings', 'strings'], ['json', 'encoding/json'], ['os', 'os']]);

describe('python programs', () => {
  it('turns a >>> transcript into a script that prints the results it shows and catches the exceptions it shows', async () => {
    const script = await transcriptToScript([
      ">>> import requests", ">>> r = requests.get('x')", '>>> r.status_code', '200', ">>> r.headers['content-type']", "'application/json'",
      '>>> for i in range(2):', '...     print(i)', '0', '1', '>>> int("x")', 'Traceback (most recent call last):', '  ...', "ValueError: invalid literal",
    ].join('\n'));
    assert.equal(script, [
      'import requests', "r = requests.get('x')", 'print(r.status_code)', "print(repr(r.headers['content-type']))",
      'for i in range(2):\n    print(i)', 'try:\n    int("x")\nexcept Exception as error:\n    print(type(error).__name__ + \':\', error)', '',
    ].join('\n'));
  });

  it('adds the import the example forgot and prints a script\'s result when it prints nothing', async () => {
    assert.equal(await pythonProgram('x = six.moves.range(3)\ny = list(x)', 'python', 'six'), 'import six\nx = six.moves.range(3)\ny = list(x)\nprint(y)\n');
    assert.equal(await pythonProgram('import yaml\nyaml.safe_load("a: 1")', 'python', 'yaml'), 'import yaml\nprint(yaml.safe_load("a: 1"))\n');
    assert.equal(await pythonProgram('import m\n\ndef greet():\n    return m.hi()', 'python', 'm'), 'import m\n\ndef greet():\n    return m.hi()\n\nprint(greet())\n');
    assert.equal(await pythonProgram('import m\n\nasync def main():\n    print(await m.get())\n\nmain()', 'python', 'm'), 'import asyncio\nimport m\n\nasync def main():\n    print(await m.get())\n\nasyncio.run(main())\n');
  });
});

describe('rust programs', () => {
  it('keeps hidden doctest lines (they are part of the program), wraps a fallible doctest in main and prints asserted values', async () => {
    assert.equal(unhideDoctest('# use std::fmt;\n#[derive(Debug)]\nstruct A;\n## not hidden\n#\nlet a = 1;'), 'use std::fmt;\n#[derive(Debug)]\nstruct A;\n# not hidden\n\nlet a = 1;');
    const made = await rustProgram('# fn main() -> Result<(), std::num::ParseIntError> {\nlet n: u8 = "7".parse()?;\nassert_eq!(n + 1, 8);\n# Ok(())\n# }', 'doctest',
      { name: 'demo', importName: 'demo', version: '1.0.0', deps: {}, features: [] });
    assert.match(made.main, /^fn main\(\) -> Result<\(\), std::num::ParseIntError> \{/);
    assert.match(made.main, /match \(&\(n \+ 1\), &\(8\)\) \{ \(left, right\) => \{ println!\("\{:\?\}", left\); assert_eq!\(left, right\); \} \}/);
    const wrapped = await rustProgram('let mut buffer = itoa::Buffer::new();\nlet printed = buffer.format(128u64);\nassert_eq!(printed, "128");', 'readme',
      { name: 'itoa', importName: 'itoa', version: '1.0.15', deps: {}, features: [] });
    assert.match(wrapped.main, /^fn main\(\) \{\n {4}let mut buffer = itoa::Buffer::new\(\);/);
    assert.deepEqual(wrapped.deps, { itoa: { version: '=1.0.15', features: [] } });
  });

  it('adds the crates and features the code uses: serde derive, tokio for top-level await, dev-dependencies from Cargo.toml', async () => {
    const made = await rustProgram('use serde::Serialize;\n#[derive(Serialize)]\nstruct P { x: i32 }\nlet body = reqwest::get("http://localhost").await?.text().await?;\nprintln!("{}", serde_json::to_string(&P { x: 1 })?);', 'readme',
      { name: 'demo', importName: 'demo', version: '0.3.0', deps: { serde_json: { version: '1.0.100', features: [] } }, features: [] });
    assert.match(made.main, /^#\[tokio::main\]\nasync fn main\(\) -> Result<\(\), Box<dyn std::error::Error>> \{/);
    assert.deepEqual(made.deps.serde, { version: '1', features: ['derive'] });
    assert.deepEqual(made.deps.tokio, { version: '1', features: ['macros', 'rt-multi-thread'] });
    assert.deepEqual(made.deps.reqwest, { version: '0.12', features: ['json'] });
    assert.deepEqual(made.deps.serde_json, { version: '1.0.100', features: [] });
    assert.match(cargoManifest(made.deps), /\[dependencies\]\ndemo = \{ version = "=0\.3\.0" \}\nreqwest = \{ version = "0\.12", features = \["json"\] \}/);
  });
});

describe('go programs', () => {
  const context = { modulePackages: { testify: 'github.com/stretchr/testify', assert: 'github.com/stretchr/testify/assert' }, std };

  it('gives a fragment package main, the imports it uses (standard library and the module\'s sub-packages) and a main', async () => {
    const program = await goProgram('t := new(testing.T)\nok := assert.Equal(t, 123, 123, "they should be equal")\nfmt.Println(strings.ToUpper("ok"), ok)', 'readme', undefined,
      { ...context, std: new Map([...std, ['testing', 'testing']]) });
    assert.equal(program, 'package main\n\nimport (\n\t"fmt"\n\t"github.com/stretchr/testify/assert"\n\t"strings"\n\t"testing"\n)\n\nfunc main() {\n\tt := new(testing.T)\n\tok := assert.Equal(t, 123, 123, "they should be equal")\n\tfmt.Println(strings.ToUpper("ok"), ok)\n}\n');
  });

  it('qualifies names an in-package example uses bare, but not the keys of its composite literals', async () => {
    const program = await goProgram('diff := UnifiedDiff{A: SplitLines("a\\n"), Context: 3}\nfmt.Println(diff.Context)', 'readme', undefined,
      { modulePackages: { difflib: 'example.com/difflib' }, std }, new Map([['UnifiedDiff', 'difflib'], ['SplitLines', 'difflib'], ['Context', 'difflib']]));
    assert.match(program, /diff := difflib\.UnifiedDiff\{A: difflib\.SplitLines\("a\\n"\), Context: 3\}/);
    assert.match(program, /"example\.com\/difflib"/);
  });

  it('runs an Example function from main, keeps declarations at the top and prints values that would be unused', async () => {
    const example = await goProgram('import (\n\t"fmt"\n\t"github.com/google/uuid"\n)\n\nfunc ExampleNew() {\n\tfmt.Println(len(uuid.New().String()))\n\t// Output: 36\n}', 'go-example', 'ExampleNew',
      { modulePackages: { uuid: 'github.com/google/uuid' }, std });
    assert.match(example, /func ExampleNew\(\) \{[\s\S]*\}\n\nfunc main\(\) \{\n\tExampleNew\(\)\n\}/);
    assert.match(example, /import \(\n\t"fmt"\n\t"github.com\/google\/uuid"\n\)/);
    const unused = await goProgram('type Config struct{ Name string }\n\ncfg := Config{Name: "x"}\nid, err := uuid.NewRandom()', 'readme', undefined, { modulePackages: { uuid: 'github.com/google/uuid' }, std });
    assert.match(unused, /^type Config struct\{ Name string \}$/m);
    // Printed through a helper that shows bytes holding text as that text (Println shows them as numbers).
    assert.match(unused, /\tprintValue\(cfg\)\n\tprintValue\(id\)\n\tif err != nil \{\n\t\tpanic\(err\)\n\t\}\n\}/);
    assert.match(unused, /\nfunc printValue\(vs \.\.\.any\) \{[\s\S]*if b, ok := v\.\(\[\]byte\); ok && utf8\.Valid\(b\) \{\n\t\t\tvs\[i\] = string\(b\)/);
  });
});

describe('go programs that print where a reader reads', () => {
  const std = new Map([['fmt', 'fmt'], ['bytes', 'bytes'], ['strings', 'strings']]);
  it('builtin println (standard error) becomes fmt.Println; a program\'s own println stays', async () => {
    const program = await goProgram('value := query.Get(json, "name.last")\nprintln(value.String())', 'readme', undefined, { modulePackages: { query: 'example.com/query' }, std });
    assert.match(program, /\tfmt\.Println\(value\.String\(\)\)/);
    assert.match(program, /\t"fmt"/);
    const own = await goProgram('func println(s string) { fmt.Println("> " + s) }\n\nfunc main() {\n\tprintln("x")\n}', 'readme', undefined, { modulePackages: {}, std });
    assert.match(own, /\n\tprintln\("x"\)/);
  });
  it('a buffer main writes its result into and never prints is printed', async () => {
    const program = await goProgram('md := mark.New()\nvar buf bytes.Buffer\nif err := md.Convert(source, &buf); err != nil {\n\tpanic(err)\n}', 'readme', undefined, { modulePackages: { mark: 'example.com/mark' }, std });
    assert.match(program, /\tfmt\.Println\(buf\.String\(\)\)\n\}/, program);
  });
});

describe('node programs', () => {
  it('imports the package with the README\'s own statement when an example uses it without importing, and prints results', async () => {
    const bindings = await packageBindings(["const isNumber = require('is-number');", "import { z } from 'zod';"], 'is-number');
    assert.deepEqual(bindings, { isNumber: "const isNumber = require('is-number');" });
    const program = await nodeProgram("isNumber(5e3);               // true\nisNumber('foo');  //=> false", 'js', 'is-number', 'commonjs', { kind: 'named' }, bindings);
    assert.equal(program.path, 'index.mjs');
    assert.equal(program.code, "import isNumber from 'is-number';\n\nconsole.log(isNumber(5e3));               // true\nconsole.log(isNumber('foo'));  //=> false\n");
  });

  it('picks named imports for free identifiers, .mts for TypeScript, and lists the other packages it imports', async () => {
    const program = await nodeProgram('const User = z.object({ name: z.string() });\ntype U = z.infer<typeof User>;\nconst u: U = User.parse({ name: "a" });\nconsole.log(u, React.version);\nimport React from "react";', 'ts', 'zod', 'commonjs');
    assert.equal(program.path, 'index.mts');
    assert.match(program.code, /^import \{ z \} from 'zod';\n/);
    assert.deepEqual(program.packages, ['react']);
  });
});

describe('ruby programs', () => {
  it('requires the gem and prints the last value when the example prints nothing', () => {
    assert.equal(rubyProgram('Hello.greet("world")', 'hello'), "require 'hello'\n\np(Hello.greet(\"world\"))\n");
    assert.equal(rubyProgram("require 'hello'\nputs Hello.greet('x')", 'hello'), "require 'hello'\nputs Hello.greet('x')\n");
  });
});

describe('node programs follow the package\'s module kind', () => {
  it('imports an ES-only package that the README requires, and keeps CommonJS for a CommonJS package', async () => {
    const esm = await nodeProgram("const pLimit = require('demo');\nconst limit = pLimit(1);\nconsole.log(typeof limit);", 'js', 'demo', 'module');
    assert.equal(esm.path, 'index.mjs');
    assert.match(esm.code, /^import pLimit from 'demo';/);
    const cjs = await nodeProgram("const pLimit = require('demo');\nconsole.log(pLimit(1));", 'js', 'demo', 'commonjs');
    assert.equal(cjs.path, 'index.cjs');
    assert.match(cjs.code, /^const pLimit = require\('demo'\);/);
  });
});
