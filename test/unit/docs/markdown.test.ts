// chunkByHeadings and rstToMarkdown: heading trails, whole code blocks, long sections split with overlap.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chunkByHeadings, headingAnchor, marksDeprecated, splitLong, TARGET_CHARS } from '../../../src/docs/extract/markdown.ts';
import { rstToMarkdown } from '../../../src/docs/extract/rst.ts';

const locate = ({ anchor, line }: { anchor?: string; line: number }) => `https://x.test/page#${anchor ?? `L${line}`}`;

describe('chunkByHeadings', () => {
  const md = [
    '[![build](https://ci/badge.svg)](https://ci)', '', '# Widget', '', 'Intro paragraph about widgets and things.', '',
    '## Options', '', '### Required option', '', 'Use `.requiredOption()` to demand a value from the user.', '',
    '```js', '# not a heading inside code', 'program.requiredOption("-c, --cheese <type>");', '```', '',
    'Setext title', '------------', '', 'Body under a setext heading, long enough to keep.',
  ].join('\n');
  const passages = chunkByHeadings(md, { pageTitle: 'fallback', source: 'README.md', locate });

  it('gives every passage its heading trail, page title first', () => {
    const required = passages.find((p) => p.title === 'Required option');
    assert.ok(required);
    assert.deepEqual(required.headings, ['Widget', 'Options', 'Required option']);
    assert.equal(required.url, 'https://x.test/page#required-option');
  });
  it('keeps code blocks whole and ignores # lines inside them', () => {
    const required = passages.find((p) => p.title === 'Required option')!;
    assert.match(required.content, /```js\n# not a heading inside code\nprogram\.requiredOption/);
    assert.ok(!passages.some((p) => p.title === 'not a heading inside code'));
  });
  it('reads setext headings and drops badge lines and empty sections', () => {
    assert.ok(passages.some((p) => p.title === 'Setext title'));
    assert.ok(!passages.some((p) => p.content.includes('badge.svg')));
    assert.ok(!passages.some((p) => p.title === 'Options'), 'a heading with no body of its own is only a trail');
  });
  it('makes GitHub-style anchors', () => {
    assert.equal(headingAnchor('Custom Help (advanced)!'), 'custom-help-advanced');
  });
  it('uses the front matter title and drops MDX imports', () => {
    const out = chunkByHeadings('---\ntitle: Guide\n---\nimport X from "y";\n\nSome guide text that is long enough.', { pageTitle: 'guide', source: 'g.mdx', locate, mdx: true });
    assert.equal(out.length, 1);
    assert.doesNotMatch(out[0]!.content, /import X/);
  });
  it('writes headings as their rendered text: reference links and backslash escapes resolved', () => {
    const out = chunkByHeadings('# API\n\n##### fastify.onRequestHookHandler(request: [FastifyRequest][FastifyRequest]): Promise\\<unknown\\> \\| void\n\nRuns before the body is parsed, for every request.',
      { pageTitle: 'TypeScript', source: 'docs/TypeScript.md', locate });
    assert.equal(out[0]!.title, 'fastify.onRequestHookHandler(request: FastifyRequest): Promise<unknown> | void');
  });
  it('marks the sections under a deprecated heading, and only those', () => {
    const out = chunkByHeadings([
      '# axios', '', '## Cancellation', '', '### AbortController', '', 'Axios supports AbortController to cancel requests.', '',
      '### CancelToken `👎deprecated`', '', 'You can also cancel a request using a CancelToken.', '',
      '#### Nested example', '', 'A nested section of the deprecated API, long enough to keep.', '',
      '## Removing deprecated APIs', '', 'How to move off the old cancellation API, step by step.',
    ].join('\n'), { pageTitle: 'axios', source: 'README.md', locate });
    const deprecated = Object.fromEntries(out.map((p) => [p.title, Boolean(p.deprecated)]));
    assert.deepEqual(deprecated, { AbortController: false, 'CancelToken `👎deprecated`': true, 'Nested example': true, 'Removing deprecated APIs': false });
  });
  it('recognises the usual ways a heading says deprecated', () => {
    for (const heading of ['CancelToken 👎deprecated', '`foo()` (deprecated)', 'Deprecated: bar', 'Deprecated options', 'send() [Deprecated]', '~~old()~~ deprecated'])
      assert.ok(marksDeprecated(heading), heading);
    for (const heading of ['Removing deprecated APIs', 'Handling deprecation warnings', 'Options', 'Undeprecated', 'eslint-plugin-deprecated'])
      assert.ok(!marksDeprecated(heading), heading);
  });
});

describe('splitLong', () => {
  it('splits long sections on block boundaries with one block of overlap, never inside code', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40)}`);
    const code = '```js\n' + 'const x = 1;\n'.repeat(30) + '```';
    const chunks = splitLong([...paragraphs.slice(0, 6), code, ...paragraphs.slice(6)].join('\n\n'));
    assert.ok(chunks.length > 1);
    for (const chunk of chunks) assert.equal((chunk.match(/```/g) ?? []).length % 2, 0, 'code fences stay paired');
    assert.ok(chunks.some((c) => c.includes(code)), 'the code block is in one chunk');
    const first = chunks[0]!.split('\n\n');
    assert.ok(chunks[1]!.startsWith(first[first.length - 1]!), 'the next chunk starts with the last block of the previous one');
    for (const chunk of chunks) assert.ok(chunk.length <= TARGET_CHARS + 700);
  });
});

describe('rstToMarkdown', () => {
  it('turns titles into headings in order of appearance and literal blocks into fenced code', () => {
    const md = rstToMarkdown('Title\n=====\n\nIntro.\n\nUsage\n-----\n\nExample::\n\n    import thing\n    thing.go()\n\n.. code-block:: python\n\n    print(1)\n\nSee :func:`thing.go`.\n');
    assert.match(md, /^# Title$/m);
    assert.match(md, /^## Usage$/m);
    assert.match(md, /```python\nimport thing\nthing\.go\(\)\n```/);
    assert.match(md, /```python\nprint\(1\)\n```/);
    assert.match(md, /See `thing\.go`\./);
  });
});
