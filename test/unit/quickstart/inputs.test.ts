// Examples that need what a sandbox run never gives (standard input, a data file the docs do not provide) and Python 2
// code, found from real parses: ranked below examples that need nothing, or never tried.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inputNeeds, withInputNeeds } from '../../../src/quickstart/inputs.ts';
import { rankCandidates } from '../../../src/quickstart/score.ts';
import type { Candidate } from '../../../src/quickstart/types.ts';

const candidate = (code: string, language: string, origin: Candidate['origin'] = 'readme'): Candidate => ({ code, language, origin, source: 'u', path: 'README.md' });

describe('what an example needs from outside, read from a parse', () => {
  it('finds standard input in each ecosystem, not in comments, strings or other names', async () => {
    assert.equal((await inputNeeds('use std::io::{self, Read};\nfn main() {\n  let mut s = String::new();\n  io::stdin().read_to_string(&mut s).unwrap();\n  println!("{}", demo::parse(&s));\n}', 'rust')).stdin, 'io::stdin');
    assert.equal((await inputNeeds('package main\nimport ("bufio"; "os"; "fmt")\nfunc main() {\n\tsc := bufio.NewScanner(os.Stdin)\n\tfor sc.Scan() { fmt.Println(sc.Text()) }\n}', 'go')).stdin, 'os.Stdin');
    assert.equal((await inputNeeds('import sys\nimport demo\nprint(demo.load(sys.stdin.read()))', 'python')).stdin, 'sys.stdin');
    assert.equal((await inputNeeds('name = input("Name: ")\nprint(name)', 'python')).stdin, 'input()');
    assert.equal((await inputNeeds('process.stdin.on("data", (d) => console.log(String(d)));', 'javascript')).stdin, 'process.stdin');
    assert.equal((await inputNeeds('# reads sys.stdin in the CLI\nx = model.input("stdin")\nprint(x)', 'python')).stdin, undefined);
    assert.equal((await inputNeeds('const stdinLike = "process.stdin";\nconsole.log(stdinLike);', 'javascript')).stdin, undefined);
  });

  it('finds a data file the program reads but does not write', async () => {
    assert.equal((await inputNeeds('package main\nimport ("os"; "fmt")\nfunc main() {\n\tb, _ := os.ReadFile("testdata/example.json")\n\tfmt.Println(len(b))\n}', 'go')).dataFile, 'testdata/example.json');
    assert.equal((await inputNeeds('f, err := os.Open("testdata/in.txt")', 'go')).dataFile, 'testdata/in.txt', 'an error-tolerant parse still sees a fragment\'s call');
    assert.equal((await inputNeeds('let text = std::fs::read_to_string("data/words.txt").unwrap();', 'rust')).dataFile, 'data/words.txt');
    assert.equal((await inputNeeds('const fs = require("fs");\nconst csv = fs.readFileSync("./input.csv", "utf8");', 'javascript')).dataFile, './input.csv');
    // Written first, then read back: the program brings the file itself.
    assert.equal((await inputNeeds('with open("out.txt", "w") as f:\n    f.write("hi")\nwith open("out.txt") as f:\n    print(f.read())', 'python')).dataFile, undefined);
    assert.equal((await inputNeeds('package main\nimport "os"\nfunc main() {\n\tos.WriteFile("a.txt", []byte("x"), 0o644)\n\tb, _ := os.ReadFile("a.txt")\n\tprintln(string(b))\n}', 'go')).dataFile, undefined);
    // A string that is data, not a path.
    assert.equal((await inputNeeds('import json\nprint(json.loads(\'{"a": 1}\'))', 'python')).dataFile, undefined);
  });

  it('finds Python 2 statements, which Python 3 cannot compile', async () => {
    assert.match((await inputNeeds('import markdown2\nhtml = markdown2.markdown("*hi*")\nprint html', 'python')).python2 ?? '', /^print html/);
    assert.equal((await inputNeeds('import markdown2\nhtml = markdown2.markdown("*hi*")\nprint(html)', 'python')).python2, undefined);
  });
});

describe('ranking with what a parse finds', () => {
  it('ranks a README example reading stdin below a later one that does not, and never tries a Python 2 doctest', async () => {
    const go = [
      candidate('package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n\n\t"example.com/demo"\n)\n\nfunc main() {\n\tr := bufio.NewReader(os.Stdin)\n\tfmt.Println(demo.Parse(r))\n}', 'go'),
      candidate('package main\n\nimport (\n\t"fmt"\n\t"strings"\n\n\t"example.com/demo"\n)\n\nfunc main() {\n\tfmt.Println(demo.Parse(strings.NewReader("a: 1")))\n}', 'go'),
    ];
    const before = rankCandidates(go, 'go', 'example.com/demo', 'example.com/demo');
    assert.match(before[0]!.code, /os\.Stdin/, 'the regex blockers miss os.Stdin: it ranks first without the parse');
    const { ranked } = await withInputNeeds('go', before);
    assert.match(ranked[0]!.code, /strings\.NewReader/);
    assert.deepEqual(ranked[1]!.blockers, ['needs input']);
    assert.ok(ranked[1]!.signals.includes('reads standard input (os.Stdin)'));

    const py = [
      candidate('>>> import demo\n>>> html = demo.markdown("*boo!*")\n>>> print html\n<p><em>boo!</em></p>', 'pycon', 'doctest'),
      candidate('import demo\nprint(demo.markdown("*boo!*"))', 'python'),
    ];
    const pyRanked = rankCandidates(py, 'pypi', 'demo', 'demo');
    const { ranked: kept, python2 } = await withInputNeeds('pypi', pyRanked);
    assert.equal(kept.length, 1);
    assert.match(kept[0]!.code, /print\(demo/);
    assert.match([...python2.values()][0]!, /Python 2 syntax: print html/);
  });
});

describe('one place for standard input and data files', () => {
  it('the regex blockers no longer read stdin or files; the parse does, for ranking and for the pending offer alike', async () => {
    const { blockersOf } = await import('../../../src/quickstart/score.ts');
    const { withheldBecause } = await import('../../../src/quickstart/offer.ts');
    // A word in a comment is no reading of standard input (the regex's `stdin` counted it).
    assert.deepEqual(blockersOf('import demo\n# works with stdin too\nprint(demo.run("x"))'), []);
    assert.equal(await withheldBecause('pypi', 'import demo\n# works with stdin too\nprint(demo.run("x"))', 'python', 'main.py'), undefined);
    // Go's os.Stdin, which the regex never matched, withholds the program; so does a data file it does not write.
    const go = 'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tr := bufio.NewReader(os.Stdin)\n\tfmt.Println(r)\n}\n';
    assert.equal(await withheldBecause('go', go, 'go', 'main.go'), 'needs input');
    assert.equal(await withheldBecause('npm', "import fs from 'node:fs';\nconsole.log(fs.readFileSync('data.csv', 'utf8'));\n", 'javascript', 'index.mjs'), 'needs input');
    // Arguments are still the regex's.
    assert.deepEqual(blockersOf('import sys\nprint(sys.argv[1])'), ['needs input']);
  });
});
