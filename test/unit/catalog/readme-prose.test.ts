// The candidate README extract (scripts/search-readme-prose.ts, measured in round 13, not in the build): what a parser
// keeps and leaves out, by class.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readmeProse } from '../../../scripts/search-readme-prose.ts';

const markdown = [
  '# widgetkit',
  '',
  '[![Build](https://ci.example/badge.svg)](https://ci.example) [![npm](https://img.example/v.svg)](https://npm.example)',
  '',
  '> [!NOTE]',
  '> Version 2 renamed the options.',
  '',
  'Widgetkit draws **resizable** charts from [tabular data](https://example.org/data) in the browser.',
  '',
  '## Table of contents',
  '- [Features](#features)',
  '- [Installation](#installation)',
  '',
  '### Features',
  '',
  '- [Streaming](https://example.org/streaming) updates',
  '- [Sparklines]',
  '- ![shot](https://img.example/shot.png)',
  '',
  '## Installation',
  '',
  'Run the installer with your package manager of choice:',
  '',
  '```sh',
  'npm install widgetkit',
  '```',
  '',
  '## Usage',
  '',
  'Call `draw` with a table.',
  '',
  '```js',
  'draw(table)',
  '```',
  '',
  '| option | meaning |',
  '| --- | --- |',
  '| width | pixels |',
  '',
  '[Docs](https://docs.example) | [Chat](https://chat.example)',
  '',
  '## License',
  '',
  'Permission is hereby granted, free of charge, to any person obtaining a copy.',
  '',
  '[Sparklines]: https://example.org/sparklines',
].join('\n');

describe('README prose for search text', () => {
  const prose = readmeProse(markdown);
  it('keeps the prose in reading order, link text without its address, an admonition without its marker', () => {
    assert.ok(prose.includes('Version 2 renamed the options.'), prose);
    assert.ok(prose.includes('Widgetkit draws resizable charts from tabular data in the browser.'), prose);
    assert.ok(prose.indexOf('Version 2') < prose.indexOf('Widgetkit draws'), prose);
    assert.ok(!prose.includes('[!NOTE]') && !prose.includes('https://'), prose);
  });
  it('keeps headings of kept sections and list items that carry words, even when they are links', () => {
    assert.ok(prose.includes('Features') && prose.includes('Usage'), prose);
    assert.ok(prose.includes('Streaming updates') && prose.includes('Sparklines'), prose);
  });
  it('leaves out badges, tables of contents, navigation rows, code, tables and setup or licence sections', () => {
    for (const noise of ['Build', 'Table of contents', 'Installation', 'installer', 'npm install', 'draw(table)', 'pixels', 'Docs', 'Chat', 'License', 'Permission']) {
      assert.ok(!prose.includes(noise), `${noise} in: ${prose}`);
    }
    assert.ok(prose.includes('Call draw with a table.'), prose);
  });
  it('reads the prose of an HTML block (a centred title and tagline) and drops its images', () => {
    const html = '<h1 align="center">Gridline</h1>\n<p align="center">\nA tiny layout engine for terminal dashboards\n<br>\n<a href="https://x.example"><img src="https://x.example/b.svg"></a>\n</p>\n\nMore prose here.';
    const text = readmeProse(html);
    assert.ok(text.includes('A tiny layout engine for terminal dashboards'), text);
    assert.ok(text.includes('More prose here.') && !text.includes('b.svg'), text);
  });
  it('reads reStructuredText titles underlined with tildes as titles, not as a code fence, and drops directives', () => {
    const rst = ['Parsekit', '~~~~~~~~', '', '.. image:: https://ci.example/badge.svg', '   :target: https://ci.example', '', 'Parsekit turns grammars into fast parsers.', '', 'Usage', '-----', '', 'Write a grammar::', '', '    rule = "a" | "b"', '', 'Then call it.'].join('\n');
    const text = readmeProse(rst);
    assert.ok(text.includes('Parsekit turns grammars into fast parsers.'), text);
    assert.ok(text.includes('Then call it.') && !text.includes('image::') && !text.includes(':target:') && !text.includes('rule ='), text);
  });
  it('keeps a code fence whose closing line follows code (a fence is not an underline)', () => {
    const text = readmeProse(['# demo', '', '```js', 'run();', '```', '', 'After the code comes the description.'].join('\n'));
    assert.equal(text, 'demo After the code comes the description.');
  });
  it('stays within the cap', () => {
    assert.ok(readmeProse('Words of prose here. '.repeat(200), 100).length <= 100);
  });
});
