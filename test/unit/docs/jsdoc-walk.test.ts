// The JSDoc walk's bound (src/docs/extract/jsdoc.ts): subtrees whose text holds no JSDoc comment and no module
// reference are skipped, which must never lose an item or a module to follow.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromJavaScript, markedRanges } from '../../../src/docs/extract/jsdoc.ts';

const locate = (file: string, where: { line?: number }) => `https://example.test/${file}#L${where.line ?? 0}`;

describe('markedRanges', () => {
  it('says whether a range of the text holds the start of a JSDoc comment or a module reference', () => {
    const text = 'var a = 1; /** doc */ function b() {} var c = require("./c"); var d = 2;';
    const marked = markedRanges(text);
    const at = (s: string) => text.indexOf(s);
    assert.equal(marked(0, at('/**')), false, 'before the comment');
    assert.equal(marked(at('/**'), at('/**') + 1), true, 'the comment starts at pos: inclusive');
    assert.equal(marked(at('function b'), at('var c')), false, 'after the comment, before require');
    assert.equal(marked(at('var c'), at('var d')), true, 'require');
    assert.equal(marked(at('var d'), text.length), false);
    assert.equal(markedRanges('const x = 1;')(0, 12), false);
  });
});

describe('apiFromJavaScript with the walk bounded', () => {
  it('still finds items nested deep in undocumented code, and follows a require no JSDoc is near', async () => {
    // A bundle-like entry: long undocumented code around one documented function inside an IIFE (as lodash's
    // runInContext), and a require inside another undocumented IIFE that leads to the module documenting `parse`.
    const filler = Array.from({ length: 200 }, (_, i) => `var v${i} = { a: [${i}, ${i + 1}], b: function () { return v${i}.a[0] + ${i}; } };`).join('\n');
    const index = `(function () {\n${filler}\n  var api = (function () {\n    ${filler.slice(0, 2000)}\n` +
      '    /**\n     * Creates a debounced function that delays invoking `func`.\n     */\n    function debounce(func, wait) { return func; }\n' +
      `    return { debounce: debounce };\n  })();\n})();\n(function () { ${filler.slice(0, 500)} var lib = require('./lib/parse'); })();\n`;
    const parse = 'module.exports = {\n  /** Parses a string into a value. */\n  parse(text) { return JSON.parse(text); },\n  helper() {}\n};\n';
    const files = new Map([['index.js', index], ['lib/parse.js', parse], ['unused.js', '/** Never loaded. */\nfunction unused() {}\n']]);
    const drafts = await apiFromJavaScript({ name: 'pkg', files, entries: ['index.js'], locate });
    const symbols = drafts.map((d) => d.symbol).sort();
    assert.deepEqual(symbols, ['pkg.debounce', 'pkg.parse']);
    const debounce = drafts.find((d) => d.symbol === 'pkg.debounce')!;
    assert.match(debounce.content, /^```js\nfunction debounce\(func, wait\)\n```\n\nCreates a debounced function/);
    assert.match(drafts.find((d) => d.symbol === 'pkg.parse')!.url, /lib\/parse\.js#L3$/);
  });

  it('reads nothing of a module with no JSDoc and no module reference', async () => {
    const files = new Map([['index.js', `${'var x = 1 + 2;\n'.repeat(100)}function plain() {}\n`]]);
    assert.deepEqual(await apiFromJavaScript({ name: 'pkg', files, entries: ['index.js'], locate }), []);
  });
});
