// npm packages that ship no declarations, through the npm source against a fake registry on 127.0.0.1: the API comes
// from the JSDoc of their JavaScript (read with the TypeScript parser) and from DefinitelyTyped's @types package of
// the same major.minor, whose passages say they come from there. A package with its own types uses those, and its
// JavaScript's JSDoc only to explain declarations shipped without a comment.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fetchReleaseNotes } from '../../../src/changes/release-notes.ts';
import { loadConfig } from '../../../src/config.ts';
import { passagesFromArtifact } from '../../../src/docs/documents.ts';
import { npmSource } from '../../../src/docs/sources/npm.ts';
import { goodPackage, makeTgz, startFakeRegistry, type FakeRegistry } from './fixtures.ts';
import { hasExplanation } from '../../../src/docs/extract/evidence.ts';

// Written the way lodash is: the API defined inside a factory inside an IIFE, private helpers marked @private.
const LIBRARY = `;(function() {
  function runInContext(context) {
    /**
     * Delays a call.
     * @private
     */
    function baseDelay(func, wait) { return setTimeout(func, wait); }

    /**
     * Creates a debounced function that delays invoking \`func\` until after \`wait\` milliseconds have elapsed
     * since the last time the debounced function was invoked.
     *
     * @static
     * @memberOf _
     * @param {Function} func The function to debounce.
     * @returns {Function} Returns the new debounced function.
     * @example
     *
     * jQuery(window).on('resize', _.debounce(calculateLayout, 150));
     */
    function debounce(func, wait, options) { return baseDelay(func, wait); }

    function undocumented() {}

    lodash.debounce = debounce;
    return lodash;
  }
  var _ = runInContext();
  module.exports = _;
}.call(this));
`;
const TYPES = `export = _;\ndeclare const _: _.Static;\ndeclare namespace _ {\n  interface Static {\n    /** Creates a throttled function that only invokes func at most once per every wait milliseconds. */\n    throttle(func: () => void, wait?: number): () => void;\n  }\n}\n`;
const typesTgz = (version: string, doc: string) => makeTgz([
  { name: 'package/package.json', body: JSON.stringify({ name: '@types/fx-untyped', version, types: 'index.d.ts' }) },
  { name: 'package/index.d.ts', body: TYPES.replace('Creates a throttled', doc) },
  { name: 'package/README.md', body: '# Installation\n\n> `npm install --save @types/fx-untyped`\n\nThis package contains type definitions for fx-untyped.\n' },
]);

describe('npm packages without declarations (fake registry)', () => {
  let registry: FakeRegistry;
  before(async () => {
    registry = await startFakeRegistry([
      { name: 'fx-untyped', versions: { '2.3.1': makeTgz([
        { name: 'package/package.json', body: JSON.stringify({ name: 'fx-untyped', version: '2.3.1', main: 'fx.js' }) },
        { name: 'package/README.md', body: '# fx-untyped\n\nUtilities.\n' },
        { name: 'package/fx.js', body: LIBRARY.replace('var _ = runInContext();', "var _ = runInContext();\n  _.chunk = require('./lib/chunk');") },
        { name: 'package/lib/chunk.js', body: '/**\n * Splits an array into groups the length of `size`.\n */\nfunction chunk(array, size) { return [array]; }\nmodule.exports = chunk;\n' },
        { name: 'package/build/release.js', body: '/**\n * Publishes a release of the package to the registry.\n */\nfunction publishRelease() {}\n' },
      ]) } },
      { name: '@types/fx-untyped', versions: {
        '2.3.5': typesTgz('2.3.5', 'Creates a throttled'), '2.4.2': typesTgz('2.4.2', 'Wrong minor:'), '3.0.0': typesTgz('3.0.0', 'Wrong major:'),
      } },
      { name: 'fx-typed', versions: { '1.0.0': goodPackage('fx-typed', '1.0.0') } },
      { name: 'fx-bare', versions: { '1.2.0': makeTgz([
        { name: 'package/package.json', body: JSON.stringify({ name: 'fx-bare', version: '1.2.0', main: 'index.js', types: 'index.d.ts' }) },
        { name: 'package/README.md', body: '# fx-bare\n\nTools.\n' },
        { name: 'package/index.d.ts', body: 'export declare function frob(level: number): number;\nexport declare function plain(): void;\n/** Resets every counter the package keeps to zero. */\nexport declare function reset(): void;\n' },
        { name: 'package/index.js', body: "/**\n * Turns the knob to `level` and returns the level it had before.\n */\nfunction frob(level) { return level; }\n/**\n * Another text for reset that the declaration's own comment wins over.\n */\nfunction reset() {}\nfunction plain() {}\n/**\n * A helper the declarations do not export.\n */\nfunction helper() {}\nmodule.exports = { frob, reset, plain, helper };\n" },
      ]) } },
      // `exports` names an ESM build first whose comments were stripped (and a small wrapper for ./extra); the
      // CommonJS build the `require` condition names keeps the JSDoc.
      { name: 'fx-dual', versions: { '1.0.0': makeTgz([
        { name: 'package/package.json', body: JSON.stringify({ name: 'fx-dual', version: '1.0.0', types: 'index.d.ts', exports: {
          '.': { types: './index.d.ts', import: './esm/index.mjs', require: './cjs/index.js' },
          './extra': { import: { default: './esm/extra.mjs' }, default: './cjs/extra.js' },
        } }) },
        { name: 'package/README.md', body: '# fx-dual\n\nTools.\n' },
        { name: 'package/index.d.ts', body: 'export declare function frob(level: number): number;\nexport declare function twist(): void;\n' },
        { name: 'package/esm/index.mjs', body: `export function frob(level) { return level; }\nexport { twist } from './extra.mjs';\n${'// padding\n'.repeat(600)}` },
        { name: 'package/esm/extra.mjs', body: 'export function twist() {}\n' },
        { name: 'package/cjs/index.js', body: "/**\n * Turns the knob to `level` and returns the level it had before.\n */\nfunction frob(level) { return level; }\nmodule.exports = { frob };\n" },
        { name: 'package/cjs/extra.js', body: '/**\n * Twists the knob a quarter turn to the right.\n */\nfunction twist() {}\nmodule.exports = { twist };\n' },
      ]) } },
      // Declarations with comments but no examples, one bare; the JavaScript's JSDoc has the @example blocks (the
      // bare one's at the end of a JSDoc long enough to be split into chunks).
      { name: 'fx-examples', versions: { '1.0.0': makeTgz([
        { name: 'package/package.json', body: JSON.stringify({ name: 'fx-examples', version: '1.0.0', main: 'index.js', types: 'index.d.ts' }) },
        { name: 'package/README.md', body: '# fx-examples\n\nSizes.\n' },
        { name: 'package/index.d.ts', body: '/** Parses a size string such as 1kb into a number of bytes. */\nexport declare function parseSize(text: string): number;\n'
          + 'export declare function formatSize(bytes: number): string;\n'
          + '/**\n * Rounds a size to whole kilobytes.\n * @example\n * roundSize(1500) // 1024\n */\nexport declare function roundSize(bytes: number): number;\n' },
        { name: 'package/index.js', body: [
          '/**\n * Parses a size string.\n *\n * @example <caption>Units are case-insensitive</caption>\n * parseSize("1KB"); // 1024\n */\nfunction parseSize(text) { return 0; }',
          `/**\n * Formats a number of bytes as a size string with the largest unit that keeps the number above one.\n *\n${' * Every unit is a power of 1024 and the number is rounded to two decimals, trailing zeros dropped.\n *\n'.repeat(20)} * @example\n * formatSize(1536); // "1.5kb"\n */\nfunction formatSize(bytes) { return ''; }`,
          '/**\n * Rounds.\n * @example\n * roundSize(2500) // 2048\n */\nfunction roundSize(bytes) { return 0; }',
          'module.exports = { parseSize, formatSize, roundSize };\n',
        ].join('\n') },
      ]) } },
    ]);
  });
  after(() => registry.close());
  const source = () => npmSource({ baseUrl: registry.url, limits: { timeoutMs: 5000, maxBytes: 1 << 24 }, artifactLimits: { timeoutMs: 5000, maxBytes: 1 << 24 } });

  it('reads JSDoc from the JavaScript and the matching @types package, labelled DefinitelyTyped', async () => {
    const artifact = await source().artifact('fx-untyped', '2.3.1');
    assert.equal(artifact.facts.definitelyTyped, '@types/fx-untyped@2.3.5');
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'npm', name: 'fx-untyped', version: '2.3.1' });
    const debounce = passages.find((p) => p.symbol === 'fx-untyped.debounce');
    assert.ok(debounce, 'debounce from the JSDoc of fx.js');
    assert.equal(debounce.source, 'fx.js');
    assert.match(debounce.content, /function debounce\(func, wait, options\)/);
    assert.match(debounce.content, /Creates a debounced function/);
    assert.match(debounce.content, /```ts\n\njQuery\(window\)|jQuery\(window\)\.on/);
    assert.ok(hasExplanation(debounce.content));
    assert.ok(!passages.some((p) => p.symbol?.endsWith('baseDelay')), '@private helpers are not API');
    assert.ok(!passages.some((p) => p.symbol?.endsWith('undocumented')), 'a function without JSDoc is not indexed from JavaScript');
    assert.ok(passages.some((p) => p.symbol === 'fx-untyped.chunk' && p.source === 'lib/chunk.js'), 'a module the entry point requires is read');
    assert.ok(!passages.some((p) => p.symbol?.endsWith('publishRelease')), 'a script no entry point loads is not API');
    const throttle = passages.find((p) => p.symbol?.endsWith('.throttle'));
    assert.ok(throttle, 'throttle from @types/fx-untyped');
    assert.equal(throttle.headings[0], '@types/fx-untyped (DefinitelyTyped)');
    assert.equal(throttle.source, '@types/fx-untyped/index.d.ts');
    assert.match(throttle.url, /^https:\/\/unpkg\.com\/@types\/fx-untyped@2\.3\.5\/index\.d\.ts/);
    assert.match(throttle.content, /Creates a throttled function/);
    assert.ok(!passages.some((p) => /Wrong (major|minor)/.test(p.content)), 'only the @types version of the same major.minor');
    assert.ok(!passages.some((p) => p.source.endsWith('README.md') && /type definitions/.test(p.content)), "DefinitelyTyped's README is not a guide of the package");
  });

  it('release notes read the same download through `keep`: only the files kept, no @types look-up, the source\'s URLs', async () => {
    // A registry of its own: a connection the shared one kept alive past its idle timeout would be reset mid-test.
    const own = await startFakeRegistry([
      { name: 'fx-untyped', versions: { '2.3.4': makeTgz([
        { name: 'package/package.json', body: JSON.stringify({ name: 'fx-untyped', version: '2.3.4', main: 'fx.js' }) },
        { name: 'package/README.md', body: '# fx-untyped\n\nUtilities.\n' },
        { name: 'package/CHANGELOG.md', body: '# Changelog\n\n## 2.3.4\n\n- Fixed debounce.\n' },
        { name: 'package/fx.js', body: LIBRARY },
      ]) } },
      { name: '@types/fx-untyped', versions: { '2.3.5': typesTgz('2.3.5', 'Creates a throttled') } },
    ]);
    try {
      const notes = await fetchReleaseNotes(loadConfig({ TOOLDEX_NPM_REGISTRY: own.url }, {}), 'npm', 'fx-untyped', '2.3.4');
      assert.deepEqual(notes.files.map((f) => f.path), ['CHANGELOG.md']);
      assert.equal(own.hits.get('/@types/fx-untyped') ?? 0, 0, 'no @types look-up for release notes');
      assert.equal(notes.fileUrl('CHANGELOG.md', 3), 'https://unpkg.com/fx-untyped@2.3.4/CHANGELOG.md#L3');
    } finally {
      await own.close();
    }
  });

  it('a package with its own declarations uses them, without @types', async () => {
    const before = registry.hits.get('/@types/fx-typed') ?? 0;
    const artifact = await source().artifact('fx-typed', '1.0.0');
    assert.equal(artifact.facts.definitelyTyped, undefined);
    assert.equal(registry.hits.get('/@types/fx-typed') ?? 0, before, 'no @types look-up');
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'npm', name: 'fx-typed', version: '1.0.0' });
    assert.ok(passages.some((p) => p.symbol === 'fx-typed.frobnicate' && p.source === 'index.d.ts'));
  });

  it('a declaration without a comment gets the JSDoc its JavaScript gives it; the declarations still say what is API', async () => {
    const artifact = await source().artifact('fx-bare', '1.2.0');
    assert.ok(artifact.files.some((f) => f.path === 'index.js'), 'the JavaScript is kept beside its own declarations');
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'npm', name: 'fx-bare', version: '1.2.0' });
    const frob = passages.filter((p) => p.symbol === 'fx-bare.frob');
    assert.equal(frob.length, 1, 'one passage: the declaration, with the explanation folded in');
    assert.equal(frob[0]!.source, 'index.d.ts');
    assert.match(frob[0]!.content, /declare function frob\(level: number\): number/);
    assert.match(frob[0]!.content, /Turns the knob to `level`/);
    assert.ok(!/```js/.test(frob[0]!.content), "the JavaScript's own signature is not repeated");
    assert.ok(hasExplanation(frob[0]!.content));
    const reset = passages.find((p) => p.symbol === 'fx-bare.reset');
    assert.match(reset!.content, /Resets every counter/);
    assert.ok(!/Another text for reset/.test(reset!.content), "a declaration's own comment is kept as it is");
    assert.ok(!hasExplanation(passages.find((p) => p.symbol === 'fx-bare.plain')!.content), 'nothing to fold: stays bare');
    assert.ok(!passages.some((p) => p.symbol?.endsWith('helper')), 'JSDoc of what the declarations do not export is not API');
  });

  it('a declared item without an example takes the @example blocks of its JavaScript JSDoc, a long JSDoc\'s last chunk included', async () => {
    const artifact = await source().artifact('fx-examples', '1.0.0');
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'npm', name: 'fx-examples', version: '1.0.0' });
    const one = (symbol: string) => {
      const found = passages.filter((p) => p.symbol === symbol);
      assert.equal(found.length, 1, `${symbol}: one passage`);
      return found[0]!.content;
    };
    const parse = one('fx-examples.parseSize');
    assert.match(parse, /Parses a size string such as 1kb/, "the declaration's own comment stays");
    assert.ok(!/Parses a size string\.\n/.test(parse), "an explained declaration takes the examples only, not the JavaScript's prose");
    assert.match(parse, /```ts\nparseSize\("1KB"\); \/\/ 1024\n```/);
    assert.ok(!/```[^\n]*\n[^`]*<caption>/.test(parse), 'an example caption is not code');
    const format = one('fx-examples.formatSize');
    assert.match(format, /declare function formatSize\(bytes: number\): string/);
    assert.match(format, /Formats a number of bytes/);
    assert.match(format, /formatSize\(1536\); \/\/ "1\.5kb"/, 'the example of a later chunk of the JSDoc is folded too');
    const round = one('fx-examples.roundSize');
    assert.match(round, /roundSize\(1500\)/);
    assert.ok(!/roundSize\(2500\)/.test(round), 'a declaration with its own example keeps only it');
  });

  it('the JSDoc fold reads the `require` build when the first `exports` condition is an ESM build without comments', async () => {
    const artifact = await source().artifact('fx-dual', '1.0.0');
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'npm', name: 'fx-dual', version: '1.0.0' });
    assert.match(passages.find((p) => p.symbol === 'fx-dual.frob')!.content, /Turns the knob to `level`/);
    assert.match(passages.find((p) => p.symbol === 'fx-dual.twist')!.content, /Twists the knob a quarter turn/);
  });
});
