// Text cut at a length never splits a UTF-16 surrogate pair: the shared cut (src/text-cut.ts) and every
// extractor that shortens text with it (signatures, summaries, long code blocks), with astral characters at the cut.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cutText, headOf } from '../../../src/text-cut.ts';
import { apiFromNpmPackage } from '../../../src/docs/extract/dts.ts';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { apiFromJavaScript } from '../../../src/docs/extract/jsdoc.ts';
import { splitLong } from '../../../src/docs/extract/markdown.ts';
import { apiFromPythonPackage } from '../../../src/docs/extract/python.ts';
import { apiFromRustCrate } from '../../../src/docs/extract/rust.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const locate = (file: string, where: { line?: number; anchor?: string }) => `${file}#${where.line ?? where.anchor ?? ''}`;
const files = (entries: Record<string, string>) => new Map(Object.entries(entries));
/** Astral characters (two UTF-16 units each) after a prefix of 0 or 1 unit: one of the two puts a pair across any cut. */
const astral = (count: number) => '😀𝔸🀄'.repeat(Math.ceil(count / 3)).slice(0, count * 2);
const variants = ['', 'a'];

describe('headOf / cutText', () => {
  it('steps back one unit where the cut would end between the halves of a pair', () => {
    assert.equal(headOf('ab😀cd', 3), 'ab');
    assert.equal(headOf('ab😀cd', 4), 'ab😀');
    assert.equal(headOf('ab😀cd', 2), 'ab');
    assert.equal(cutText('ab😀cd', 3), 'ab …');
    assert.equal(cutText('ab😀cd', 3, '\n…'), 'ab\n…');
  });
  it('leaves text at or under the length as it is, lone surrogates in the input included', () => {
    assert.equal(cutText('ab😀', 4), 'ab😀');
    assert.equal(headOf('x\uD83D', 2), 'x\uD83D');
    assert.equal(headOf('', 0), '');
    assert.equal(headOf('😀', 1), '');
  });
  it('never leaves a lone surrogate for any cut of astral text', () => {
    for (const prefix of variants) {
      const text = prefix + astral(50);
      for (let max = 0; max <= text.length + 1; max++) {
        const head = headOf(text, max);
        assert.ok(!LONE.test(head), `cut at ${max} of ${JSON.stringify(prefix)}`);
        assert.ok(head.length === Math.min(max, text.length) || head.length === max - 1);
      }
    }
  });
});

describe('extractors cut code-point safe', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(); });
  const check = (drafts: PassageDraft[], marker: RegExp) => {
    assert.ok(drafts.length, 'extracted something');
    assert.ok(drafts.some((d) => marker.test(d.content)), 'the text was cut');
    for (const d of drafts) assert.ok(!LONE.test(d.content), `lone surrogate in ${d.symbol ?? d.title}: ${JSON.stringify(d.content.slice(-40))}`);
  };

  for (const prefix of variants) {
    it(`Go signatures (prefix ${JSON.stringify(prefix)})`, async () => {
      const go = `package p\n\n// Banner is printed first.\nconst Banner = "${prefix}${astral(400)}"\n\n// Greet says hello.\nfunc Greet(s string, t [1]struct{ A string \`x:"${prefix}${astral(400)}"\` }) string { return s }\n`;
      check(await apiFromGoModule(parsers, { module: 'example.com/p', files: files({ 'go.mod': 'module example.com/p\n', 'p.go': go }), locate }), / …/);
    });
    it(`Rust signatures (prefix ${JSON.stringify(prefix)})`, async () => {
      const rs = `/// Greets.\npub fn greet(s: &str, #[doc = "${prefix}${astral(500)}"] t: u8) -> u8 { t }\n`;
      check(await apiFromRustCrate(parsers, { crate: 'p', files: files({ 'src/lib.rs': rs }), locate }), / …/);
    });
    it(`Python attribute signatures (prefix ${JSON.stringify(prefix)})`, async () => {
      const py = `BANNER = "${prefix}${astral(300)}"\n"""The banner printed first."""\n`;
      check(await apiFromPythonPackage(parsers, { files: files({ 'p/__init__.py': py }), importNames: ['p'], locate }), / …/);
    });
  }
  for (const prefix of variants) {
    it(`TypeScript declarations: signature and member summary (prefix ${JSON.stringify(prefix)})`, async () => {
      const manifest = { name: 'p', types: 'index.d.ts' };
      const dts = `/** Greets. */\nexport declare function greet(s: "${prefix}${astral(500)}"): void;\nexport interface Options {\n  /** ${prefix}${astral(120)}. */\n  mode: string;\n}\n`;
      const drafts = await apiFromNpmPackage({ name: 'p', manifest, files: files({ 'package.json': JSON.stringify(manifest), 'index.d.ts': dts }), locate });
      check(drafts, / …|…/);
    });
    it(`JavaScript signatures (prefix ${JSON.stringify(prefix)})`, async () => {
      const js = `/** Greets the caller politely. */\nexports.greet = function greet(s = "${prefix}${astral(300)}") { return s; };\n`;
      check(await apiFromJavaScript({ name: 'p', files: files({ 'index.js': js }), entries: ['index.js'], locate }), / …/);
    });
    it(`a code block longer than the cap (prefix ${JSON.stringify(prefix)})`, () => {
      const body = `Intro paragraph.\n\n\`\`\`\n${prefix}${astral(3500)}\n\`\`\`\n\nAfter.`;
      const chunks = splitLong(body);
      assert.ok(chunks.some((c) => c.includes('\n…')), 'the block was cut');
      for (const c of chunks) assert.ok(!LONE.test(c));
    });
  }
});
