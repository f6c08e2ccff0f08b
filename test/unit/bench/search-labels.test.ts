// Labelled search sets are read by their header: comment lines above it are skipped, and a file whose header lacks
// the query or answer column is refused (read wrongly, every query would score 0 without a word).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadLabelledQueries } from '../../../bench/search-quality.ts';

function setFile(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-labels-')), 'search-example.tsv');
  fs.writeFileSync(file, text);
  return file;
}

describe('loadLabelledQueries', () => {
  it('skips comment lines above the header and reads the columns by name', () => {
    const file = setFile('# written by hand\n# checked against the catalog\nquery\tecosystem\tnamed\tacceptable\nparse yaml in python\tpypi\ty\tpypi-pyyaml, pypi:ruamel.yaml\n');
    const [query, ...rest] = loadLabelledQueries(file);
    assert.equal(rest.length, 0);
    assert.equal(query!.query, 'parse yaml in python');
    assert.equal(query!.ecosystem, 'pypi');
    assert.equal(query!.named, true);
    assert.deepEqual([...query!.acceptable], ['pypi-pyyaml', 'pypi-ruamel-yaml']);
    assert.equal(query!.set, 'search-example');
  });

  it('refuses a file whose header has no query or acceptable column', () => {
    assert.throws(() => loadLabelledQueries(setFile('parse yaml\tpypi\ty\tpypi-pyyaml\n')), /no 'query' column/);
    assert.throws(() => loadLabelledQueries(setFile('query\tecosystem\tanswers\nparse yaml\tpypi\tpypi-pyyaml\n')), /no 'acceptable' column/);
  });
});
