// Programs tooldex writes from the API, and examples with text left to the reader, take their input from the docs:
// the text the docs pass to a function or bind to a parameter's name, the functions the docs call, and a sample of the
// kind of document the package is for. Made-up packages only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collectCandidates } from '../../../src/quickstart/collect.ts';
import { docsValues } from '../../../src/quickstart/docs-values.ts';
import { fillElidedText, openingSentence, textStandIn, withPackageKind } from '../../../src/quickstart/npm-values.ts';
import { goProgram } from '../../../src/quickstart/programs/go.ts';

const file = (path: string, src: string) => ({ path, bytes: new TextEncoder().encode(src) });
const artifact = (files: ReturnType<typeof file>[], importName: string) => ({ files, importName, fileUrl: (p: string) => p });

describe('what the docs give the package', () => {
  it('reads bound and passed text and the calls, by qualifier, from real parses', async () => {
    const values = await docsValues('go', [
      { code: 's := "AnyKind of_string"\nfmt.Println(caser.ToSnake(s))\nerr := errors.New("boom")', language: 'go', origin: 'readme', path: 'README.md', source: '' },
    ]);
    assert.equal(values.bound.get('s'), 'AnyKind of_string');
    assert.equal(values.passed.get('caser.ToSnake'), 'AnyKind of_string');
    assert.deepEqual([...values.called.get('New') ?? []], ['errors']);
    // Interpolated or escaped text is not taken as is.
    const py = await docsValues('pypi', [{ code: 'name = f"x{y}"\nother = "a\\nb"\ntxt = "This is a test ---"\nr = slugify(txt)', language: 'python', origin: 'readme', path: 'README.md', source: '' }]);
    assert.deepEqual([...py.bound.keys()], ['txt']);
    assert.equal(py.passed.get('slugify'), 'This is a test ---');
  });

  it('Go: a written call takes the text the docs bind to its parameter and calls what the docs call, bytes printed as text', async () => {
    const found = await collectCandidates('go', artifact([
      file('README.md', '# caser\n\n```go\ns := "AnyKind of_string"\n```\n\n```go\nout := caser.Render(input)\n```\n'),
      file('caser.go', 'package caser\n\ntype Thing struct{ n int }\n\nfunc New() *Thing { return &Thing{} }\nfunc ToCamel(s string) string { return s }\nfunc Render(input []byte, opts ...int) []byte { return input }\n'),
    ], 'example.com/caser'));
    const api = found.filter((c) => c.origin === 'api').map((c) => c.code);
    // Render is what the README calls: tried first, before the constructor that a constructor-first order put first.
    assert.match(api[0] ?? '', /\bcaser\.Render\(/, api.join('\n'));
    assert.ok(api.some((c) => /\bcaser\.New\(/.test(c)), 'the constructor is still among those kept, after it');
    // Its []byte result is printed as text.
    assert.match(api[0] ?? '', /fmt\.Println\(string\(caser\.Render\(\[\]byte\(/);
    assert.ok(api.includes('fmt.Println(caser.ToCamel("AnyKind of_string"))'), api.join('\n'));
    // A call of another package's New in the docs is no call of this one's.
    const other = await collectCandidates('go', artifact([
      file('README.md', '```go\nerr := errors.New("x")\n```\n'),
      file('caser.go', 'package caser\n\nfunc New() *int { return nil }\nfunc Version() string { return "1" }\n'),
    ], 'example.com/caser'));
    assert.equal(other.filter((c) => c.origin === 'api')[0]?.code, 'fmt.Println(caser.Version())');
  });

  it('npm: a written program calls first the function the docs call, though other cues favour another', async () => {
    const found = await collectCandidates('npm', artifact([
      file('package.json', JSON.stringify({ name: 'texty', version: '1.0.0', types: 'index.d.ts' })),
      file('README.md', '# texty\n\n```js\nconst out = render(page);\n```\n'),
      file('index.d.ts', 'export declare function formatThing(s: string): string;\nexport declare function render(input: string): string;\n'),
    ], 'texty'));
    const api = found.filter((c) => c.origin === 'api').map((c) => c.code);
    assert.ok(api.length >= 2, api.join('\n'));
    assert.match(api[0]!, /console\.log\(render\(/, api.join('\n'));
  });

  it('Python: a written call takes the text the docs pass to the function through a name they bound', async () => {
    const found = await collectCandidates('pypi', artifact([
      file('README.md', '# slug\n\n```python\nfrom slug import slugify\ntxt = "This is a test ---"\nr = slugify(txt)\n```\n'),
      file('slug/__init__.py', 'from .core import slugify\n'),
      file('slug/core.py', 'def slugify(text, max_length=0):\n    return text.lower()\n\ndef helper_value(value):\n    return value\n'),
    ], 'slug'));
    const api = found.filter((c) => c.origin === 'api').map((c) => c.code);
    assert.ok(api.some((c) => c.includes('slugify("This is a test ---")')), api.join('\n'));
  });
});

describe('text an example leaves to the reader', () => {
  it('a package whose name or README opening names a kind of document gets a sample of it when the docs show none', () => {
    assert.equal(openingSentence('# Blackfriday\n\n[![Build](x.svg)](y)\n\nBlackfriday is a Markdown processor implemented in Go. It is fast.\n'), 'Blackfriday is a Markdown processor implemented in Go.');
    // A title underlined with badges in it (their names say SVG) is no sentence; links keep their text.
    assert.equal(openingSentence('Blackfriday\n[![Build Status][BuildSVG]][BuildURL]\n===========\n\nBlackfriday is a [Markdown][1] processor implemented in [Go](https://go.dev). It\nis fast.\n'), 'Blackfriday is a Markdown processor implemented in Go.');
    // The docs show more SVG than Markdown: a generic `input` is still the kind the package is for.
    const svg = [1, 2].map((i) => ({ path: 'docs.md', language: 'svg', code: `<svg id="${i}"/>\n` }));
    const blocks = withPackageKind(svg, 'blackfriday', '# Blackfriday\n\nBlackfriday is a Markdown processor implemented in Go.\n');
    assert.deepEqual(blocks.map((b) => b.language), ['svg', 'svg', 'markdown']);
    assert.match(textStandIn('input', blocks) ?? '', /^"# Example/);
    assert.equal(textStandIn('input', svg), JSON.stringify('<svg id="1"/>'));
    // The docs' own block of that kind is its text; a README that names no kind adds nothing.
    const own = [{ path: 'README.md', language: 'toml', code: 'a = 1\n' }];
    assert.equal(textStandIn('doc', withPackageKind(own, 'smol-toml')), JSON.stringify('a = 1'));
    const none: typeof own = [];
    assert.deepEqual(withPackageKind(none, 'left-pad', '# left-pad\n\nPads the left side of a string.\n'), []);
  });

  it('an elided document (`const doc = \'...\'`) becomes a sample of the kind; other literals stay', async () => {
    const blocks = withPackageKind<{ path: string; language: string; code: string }>([], 'smol-toml');
    const filled = await fillElidedText("import { parse } from 'smol-toml'\n\nconst doc = '...'\nconst other = 'x'\nconsole.log(parse(doc))\n", 'javascript', blocks);
    assert.deepEqual(filled.names, ['doc']);
    assert.match(filled.code, /const doc = "name = \\"example\\"\\nstars = 42/);
    assert.match(filled.code, /const other = 'x'/);
    // Nothing says what `thing` is: unchanged.
    const kept = await fillElidedText("const thing = '...'\n", 'javascript', blocks);
    assert.equal(kept.code, "const thing = '...'\n");
  });

  it('Go: a value the example computes and never prints is printed, bytes as text', async () => {
    const std = new Map([['fmt', 'fmt'], ['utf8', 'unicode/utf8']]);
    const program = await goProgram('output := caser.Render(input)', 'readme', undefined, { modulePackages: { caser: 'example.com/caser' }, std });
    assert.match(program, /\tprintValue\(output\)\n\}/);
    assert.match(program, /import \(\n\t"example.com\/caser"\n\t"fmt"\n\t"unicode\/utf8"\n\)/);
  });

  it('Go: the result of the package call a fragment ends on, dropped, is what it prints; not when it returns nothing', async () => {
    const std = new Map([['fmt', 'fmt'], ['time', 'time'], ['utf8', 'unicode/utf8']]);
    const context = { modulePackages: { now: 'example.com/now' }, std };
    const code = 't := time.Date(2013, 2, 18, 17, 51, 49, 0, time.UTC)\nnow.With(t).EndOfMonth()';
    const program = await goProgram(code, 'readme', undefined, context);
    assert.match(program, /\tprintValue\(now\.With\(t\)\.EndOfMonth\(\)\)\n\}/);
    assert.doesNotMatch(program, /fmt\.Println\(t\)/);
    // After the build says the function returns nothing, the call stays as written and the last value is printed.
    const kept = await goProgram(code, 'readme', undefined, { ...context, keepDropped: true });
    assert.match(kept, /\tnow\.With\(t\)\.EndOfMonth\(\)\n\tfmt\.Println\(t\)\n\}/);
    // A call on a local value (for its effect) is not the package's result.
    const local = await goProgram('L := now.New()\nL.Close()', 'readme', undefined, context);
    assert.doesNotMatch(local, /printValue\(L\.Close\(\)\)/);
  });

  // A real build where this machine has Go (the sandbox's toolchain is the same compiler); skipped where it has none.
  const goMissing = spawnSync('go', ['version']).status !== 0;
  it('Go: a dropped call returning (value, error) is printed whole (variadic printValue): it builds, prints the value, and the error only when not nil', { skip: goMissing && 'no go toolchain here', timeout: 300_000 }, async () => {
    const context = { modulePackages: { strconv: 'strconv' }, std: new Map([['fmt', 'fmt'], ['utf8', 'unicode/utf8']]) };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printvalue-'));
    try {
      const run = async (fragment: string) => {
        const program = await goProgram(fragment, 'readme', undefined, context);
        assert.match(program, /\tprintValue\(strconv\.Atoi\("\w+"\)\)\n\}/);
        fs.writeFileSync(path.join(dir, 'main.go'), program);
        const built = spawnSync('go', ['run', 'main.go'], { cwd: dir, encoding: 'utf8', timeout: 280_000, env: { ...process.env, GOFLAGS: '', GO111MODULE: 'on' } });
        assert.equal(built.status, 0, built.stderr);
        return built.stdout;
      };
      assert.equal(await run('strconv.Atoi("42")'), '42\n');
      assert.equal(await run('strconv.Atoi("x")'), '0 strconv.Atoi: parsing "x": invalid syntax\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
