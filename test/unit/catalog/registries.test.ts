// Text extraction from published artifacts: README summaries and excerpts, Go package docs, licence texts,
// seed-list parsing and crates.io index paths.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goPackageDoc, licenseFromText, readmeExcerpt, readmeSummary } from '../../../src/catalog/registries/archive.ts';
import { crateIndexPath } from '../../../src/catalog/registries/crates.ts';
import { escapeModulePath, latestGoVersion } from '../../../src/catalog/registries/gomod.ts';
import { firstSentence, popularityFromDownloads, popularityFromRank } from '../../../src/catalog/registries/types.ts';
import { parseSeeds } from '../../../src/catalog/seeds.ts';

describe('README text', () => {
  const readme = [
    '# chi', '', '[![Build](https://x/badge.svg)](https://ci)', '', '> [!NOTE]', '> maintained',
    '', '`chi` is a **lightweight**, idiomatic and [composable](https://x) router for building Go HTTP services.',
    '', '```go', 'r := chi.NewRouter()', '```', '', 'More text.',
  ].join('\n');
  it('summarises with the first prose paragraph, markup removed', () => {
    assert.equal(readmeSummary(readme), 'chi is a lightweight, idiomatic and composable router for building Go HTTP services.');
  });
  it('skips a setext heading', () => {
    assert.equal(readmeSummary('Testify\n=======\n\nThou shalt write tests in Go.'), 'Thou shalt write tests in Go.');
  });
  it('excerpts prose without code, links or badges, within the cap', () => {
    const excerpt = readmeExcerpt(readme, 200);
    assert.ok(excerpt.includes('lightweight'));
    assert.ok(!excerpt.includes('NewRouter') && !excerpt.includes('https://'));
    assert.ok(readmeExcerpt('word '.repeat(1000), 100).length <= 100);
  });
});

describe('catalog text cut at a length', () => {
  // An emoji is two UTF-16 units: a cut between them would leave a lone surrogate in the stored description.
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  it('never ends between the halves of a character, at any cut position', () => {
    for (let at = 395; at <= 401; at++) {
      const text = `${'a'.repeat(at)}\u{1F680} rockets are fast`;
      assert.ok(!lone.test(readmeSummary(`${text}\n`)), `readme summary, emoji at ${at}`);
      assert.ok(!lone.test(goPackageDoc(`// Package ${text}\npackage x\n`) ?? ''), `go doc, emoji at ${at}`);
      assert.ok(!lone.test(readmeExcerpt(text, 400)), `readme excerpt, emoji at ${at}`);
      assert.ok(!lone.test(firstSentence(text, 401)), `first sentence, emoji at ${at}`);
    }
  });
});

describe('Go package doc', () => {
  it('takes the first paragraph of the package comment', () => {
    const source = '// Package chi is a small router.\n// It composes.\n//\n// Example:\n//   r := chi.NewRouter()\npackage chi\n';
    assert.equal(goPackageDoc(source), 'Package chi is a small router. It composes.');
  });
  it('ignores comments that are not package docs', () => {
    assert.equal(goPackageDoc('// Copyright 2020 the authors.\npackage chi\n'), undefined);
  });
  it('escapes upper case in module paths and picks the newest release', () => {
    assert.equal(escapeModulePath('github.com/Azure/azure-sdk-for-go'), 'github.com/!azure/azure-sdk-for-go');
    assert.equal(latestGoVersion(['v1.2.0', 'v1.10.0', 'v1.11.0-rc.1', 'v1.9.9']), 'v1.10.0');
  });
});

describe('licence texts', () => {
  const cases: Array<[string, string | null]> = [
    ['Apache License\nVersion 2.0, January 2004', 'Apache-2.0'],
    ['MIT License\n\nPermission is hereby granted, free of charge, to any person', 'MIT'],
    ['Redistribution and use in source and binary forms ... Neither the name of Google', 'BSD-3-Clause'],
    ['All rights reserved. Proprietary.', null],
  ];
  for (const [text, id] of cases) it(`${id ?? 'unknown'}`, () => assert.equal(licenseFromText(text), id));
});

describe('seed lists and popularity', () => {
  it('parses tsv with a header and txt one name a line, dropping duplicates and ranking in order', () => {
    const tsv = parseSeeds('npm.tsv', 'name\tversion\tmonthly_downloads\tsummary\nzod\t4.0.0\t100\tSchemas\nZod\t\t\t\nchalk\t\t90\t\n');
    assert.deepEqual(tsv.map((s) => [s.name, s.rank, s.downloads]), [['zod', 1, 100], ['chalk', 2, 90]]);
    const txt = parseSeeds('go.txt', 'github.com/a/b\n# comment\ngithub.com/c/d\n');
    assert.deepEqual(txt.map((s) => s.name), ['github.com/a/b', 'github.com/c/d']);
  });
  it('maps ranks and downloads onto 0..1, most popular highest', () => {
    assert.equal(popularityFromRank(1, 100), 1);
    assert.ok(popularityFromRank(100, 100) > 0 && popularityFromRank(100, 100) < popularityFromRank(10, 100));
    assert.ok(popularityFromDownloads(2e9) > popularityFromDownloads(2e6));
    assert.equal(popularityFromDownloads(0), 0);
  });
  it('builds crates.io sparse index paths', () => {
    assert.deepEqual(['a', 'ab', 'abc', 'serde'].map(crateIndexPath), ['1/a', '2/ab', '3/a/abc', 'se/rd/serde']);
  });
});
