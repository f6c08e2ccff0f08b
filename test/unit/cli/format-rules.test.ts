// The CLI's pure rules, table-driven: output-format precedence, exit codes, and human rendering hygiene.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ToolDexError } from '../../../src/errors.ts';
import { ServerError } from '../../../src/cli/client.ts';
import { outputFormat, type ClientFlags } from '../../../src/cli/options.ts';
import { renderDocs, renderSearch, renderTest, type Style } from '../../../src/cli/output.ts';
import { EXIT, exitCodeOf } from '../../../src/cli/run.ts';
import { fitPassage, shortenUrl, wrapCode, wrapProse } from '../../../src/cli/wrap.ts';
import type { ToolResult } from '../../../src/catalog/index.ts';
import type { DocsPassage } from '../../../src/docs/schema.ts';

describe('outputFormat', () => {
  const cases: Array<[ClientFlags, boolean, string]> = [
    [{}, true, 'human'],
    [{}, false, 'json'],
    [{ json: true }, true, 'json'],
    [{ json: true }, false, 'json'],
    [{ format: 'toon' }, true, 'toon'],
    [{ format: 'human' }, false, 'human'],
    [{ format: 'toon', json: true }, false, 'toon'],
    [{ format: 'human', json: true }, true, 'human'],
  ];
  for (const [flags, tty, expected] of cases) {
    it(`${JSON.stringify(flags)} on ${tty ? 'a terminal' : 'a pipe'} → ${expected}`, () => {
      assert.equal(outputFormat(flags, tty), expected);
    });
  }
});

describe('exitCodeOf', () => {
  const cases: Array<[unknown, number]> = [
    [new ToolDexError('invalid_request', 400, 'bad flag'), EXIT.usage],
    [new ServerError('invalid_limit', 422, 'limit'), EXIT.usage],
    [new ServerError('not_found', 404, 'nope'), EXIT.server],
    [new ServerError('missing_api_key', 401, 'key'), EXIT.server],
    [new ServerError('rate_limited', 429, 'slow down'), EXIT.server],
    [new ServerError('server_unreachable', 503, 'down'), EXIT.server],
    [new ToolDexError('store_locked', 409, 'held'), EXIT.server],
    [new Error('boom'), EXIT.server],
  ];
  for (const [error, code] of cases) {
    it(`${(error as Error).message} (${(error as ToolDexError).status ?? 'plain'}) → ${code}`, () => assert.equal(exitCodeOf(error), code));
  }
});

const plain: Style = {
  bold: (t) => t, dim: (t) => t, green: (t) => t, red: (t) => t, yellow: (t) => t, cyan: (t) => t, width: 80,
};

const tool = (slug: string, shortDescription: string): ToolResult => ({
  id: slug, name: slug.split(':')[1]!, description: shortDescription, shortDescription, languages: [], frameworks: [],
  categories: [], slug, updatedAt: null, image: '', ecosystem: 'npm', version: '1.2.3', license: null, popularity: 0.5,
  install: '', docsUrl: null, registryUrl: '', score: 1,
});

describe('human renderers', () => {
  it('strip terminal escape sequences from registry text', () => {
    const out = renderSearch({ results: [tool('npm:evil', 'nice \x1b]0;pwned\x07\x1b[2J tool')] }, plain);
    assert.doesNotMatch(out, /\x1b|\x07/);
    assert.match(out, /nice \]0;pwned\[2J tool/);
  });

  it('cut long descriptions to the terminal width', () => {
    const out = renderSearch({ results: [tool('npm:long', 'word '.repeat(100))] }, plain);
    for (const line of out.split('\n')) assert.ok(line.length <= 80, `${line.length}: ${line}`);
    assert.match(out, /…/);
  });

  it('say what to do when nothing matched', () => {
    assert.match(renderSearch({ results: [] }, plain), /No tools found/);
  });

  it('show a failed run with its status, output and the session to reuse', () => {
    const out = renderTest({
      ok: false, status: 'failed_run', phases: { provisionMs: 200, installMs: 1500, runMs: 90 }, stdout: '', stderr: 'TypeError: x\n',
      exitCode: 1, sessionId: 'abc123', sessionExpiresAt: null, sessionReused: false,
    }, plain);
    assert.match(out, /^✗ failed_run {2}provision 0\.2 s · install 1\.5 s · run 0\.1 s {2}exit 1/);
    assert.match(out, /── stderr ──\nTypeError: x/);
    assert.match(out, /session {2}abc123 {2}reuse with --session abc123/);
  });

  describe('docs passages say what they document: the symbol, and whether it is deprecated or internal', () => {
    const docs = (...results: DocsPassage[]) => ({ slug: 'crates-tokio', docsUrl: null, query: 'timeout', version: '1.40.0', results });
    const passage = (extra: Partial<DocsPassage>): DocsPassage => ({ url: 'https://docs.rs/tokio/x', headings: ['tokio', 'time'], content: 'Text.', ...extra });
    // The line after the heading trail, in a passage rendered alone.
    const labelLine = (extra: Partial<DocsPassage>, style = plain) => renderDocs(docs(passage(extra)), style).split('\n\n')[1]!.split('\n')[1]!;

    it('show the symbol, and the tags only when set', () => {
      assert.equal(labelLine({ symbol: 'tokio::time::timeout' }), '   symbol tokio::time::timeout');
      assert.equal(labelLine({ symbol: 'zod.v3.string', deprecated: true, internal: true }), '   symbol zod.v3.string  deprecated internal');
      assert.equal(labelLine({ internal: true }), '   internal');
      assert.equal(labelLine({ deprecated: true }), '   deprecated');
    });

    it('add nothing to a passage that carries none of them', () => {
      const out = renderDocs(docs(passage({}), passage({ internal: false, deprecated: false })), plain);
      assert.doesNotMatch(out, /symbol|deprecated|internal/);
      for (const block of out.split('\n\n').slice(1)) assert.equal(block.split('\n')[1], '   https://docs.rs/tokio/x');
    });

    it('dim the symbol, colour the tags, and keep the line within the terminal with the tags whole', () => {
      const marked: Style = { ...plain, dim: (t) => `<dim>${t}</dim>`, yellow: (t) => `<yellow>${t}</yellow>` };
      assert.equal(labelLine({ symbol: 'a::b', deprecated: true, internal: true }, marked),
        '   <dim>symbol a::b</dim>  <yellow>deprecated</yellow> <yellow>internal</yellow>');
      const long = labelLine({ symbol: `crate::${'very_long_module::'.repeat(10)}item\x1b[2J`, deprecated: true, internal: true });
      assert.equal(long.length, plain.width);
      assert.match(long, /^ {3}symbol crate::very_long_module::.*…  deprecated internal$/);
      assert.doesNotMatch(long, /\x1b/);
    });

    it('close a code block that a long passage is cut inside, so the next passage starts outside code', () => {
      const code = ['Intro.', '', '```ts', ...Array.from({ length: 30 }, (_, i) => `step${i}();`), '```'].join('\n');
      const out = renderDocs(docs(passage({ content: code }), passage({ content: 'Plain prose.' })), plain);
      const [first, second] = out.split('\n2. ');
      const fences = first!.split('\n').filter((line) => line.trim().startsWith('```'));
      assert.equal(fences.length, 2, 'the cut passage opens and closes its block');
      assert.match(first!, /```\n {3}… \d+ more lines/);
      assert.match(second!, /\n {3}Plain prose\.$/);
    });
  });
});

describe('fitting text to the terminal (wrap.ts)', () => {
  const sentence = 'Use safeParse to validate data without throwing: it returns an object with success and either data or error.';

  it('wraps prose only between words, each line within the width', () => {
    for (const width of [20, 33, 60]) {
      const lines = wrapProse(sentence, width);
      for (const line of lines) assert.ok(line.length <= width, `${line.length} > ${width}`);
      assert.equal(lines.join(' '), sentence, 'joining the lines with spaces gives the text back: no word was split');
    }
  });

  it('breaks code between tokens, indents continuations, and never splits an identifier', () => {
    const signature = 'export declare function safeParse<T extends ZodTypeAny>(schema: T, data: unknown, params?: Partial<ParseParams>): SafeParseReturnType<input<T>, output<T>>;';
    for (const width of [40, 57, 80]) {
      const lines = wrapCode(`  ${signature}`, width);
      assert.ok(lines.length > 1);
      for (const line of lines) assert.ok(line.length <= width, `${line.length} > ${width}: ${line}`);
      lines.slice(1).forEach((line) => assert.match(line, /^ {6}\S/, 'continuations are indented four more spaces'));
      const rejoined = lines.map((line) => line.trim()).join(' ');
      assert.equal(rejoined.replace(/\s+/g, ''), signature.replace(/\s+/g, ''), 'nothing lost');
      for (let i = 0; i < lines.length - 1; i++) {
        assert.match(lines[i]!, /[ ,([{]$|[,([{]$|\S$/);
        const end = lines[i]!.trimEnd().slice(-1);
        assert.ok(/[,([{]/.test(end) || signature.includes(`${lines[i]!.trim().split(' ').pop()} ${lines[i + 1]!.trim().split(' ')[0]}`),
          `break after "${lines[i]}" is at a space or after a bracket or comma`);
      }
    }
  });

  it('cuts one token longer than the line with an ellipsis instead of splitting it', () => {
    assert.deepEqual(wrapCode('x'.repeat(50), 20), [`${'x'.repeat(19)}…`]);
    assert.deepEqual(wrapProse(`a ${'y'.repeat(30)} b`, 10), ['a', `${'y'.repeat(9)}…`, 'b']);
  });

  it('shortens URLs in the middle, keeping host and last segment', () => {
    const url = 'https://github.com/colinhacks/zod/blob/main/packages/docs/content/api/very/deep/path/basics.mdx#safeparse';
    assert.equal(shortenUrl(url, 200), url);
    assert.equal(shortenUrl('https://zod.dev/api', 16), 'zod.dev/api');
    assert.equal(shortenUrl(url, 40), 'github.com/…/basics.mdx#safeparse');
    const tight = shortenUrl(url, 20);
    assert.ok(tight.length <= 20 && tight.startsWith('github.com') && tight.includes('…'), tight);
  });

  it('fits a passage: fenced code kept as code, prose wrapped, list items hang', () => {
    const passage = `${sentence}\n\n\`\`\`ts\nconst result = User.safeParse({ name: "Ada", email: "not an email" }, { path: [] });\n\`\`\`\n\n- first item of a list that is long enough to wrap over two lines`;
    const lines = fitPassage(passage, 40);
    for (const line of lines) assert.ok(line.length <= 40, line);
    assert.ok(lines.includes('```ts'));
    assert.ok(lines.some((line) => line.startsWith('const result = User.safeParse(')));
    const item = lines.findIndex((line) => line.startsWith('- first'));
    assert.match(lines[item + 1]!, /^ {2}\S/);
  });
});
