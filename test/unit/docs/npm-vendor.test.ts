// The npm source keeps a package's own vendored declarations (chalk re-exports its types from source/vendor/…), and
// still not vendored copies under node_modules, tests or fixtures, nor vendored JavaScript or Markdown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { vendoredDeclaration } from '../../../src/docs/sources/npm.ts';

describe('npm vendored declarations', () => {
  it('keeps .d.ts/.d.mts/.d.cts files under a vendor folder of the package', () => {
    for (const path of ['source/vendor/ansi-styles/index.d.ts', 'vendor/x.d.mts', 'lib/vendor/y/z.d.cts']) assert.equal(vendoredDeclaration(path), true, path);
  });
  it('leaves out vendored JavaScript and guides, and vendor folders under node_modules, tests or fixtures', () => {
    for (const path of ['source/vendor/ansi-styles/index.js', 'vendor/README.md', 'node_modules/a/vendor/x.d.ts', 'test/vendor/x.d.ts', 'fixtures/vendor/x.d.ts', 'lib/index.d.ts']) {
      assert.equal(vendoredDeclaration(path), false, path);
    }
  });
});
