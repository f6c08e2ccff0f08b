// Sphinx sources written as `.txt` in a docs folder (lxml's `doc/FAQ.txt`) are guides, read as reStructuredText; a
// `.txt` there without a section title (`docs/requirements.txt`) is not, and neither is a `.txt` outside a docs folder.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { passagesFromArtifact } from '../../../src/docs/documents.ts';
import { isDocFile } from '../../../src/docs/sources/types.ts';
import type { Artifact } from '../../../src/docs/sources/types.ts';

const file = (path: string, text: string) => ({ path, bytes: new TextEncoder().encode(text) });
const faq = `==========
lxml FAQ
==========

Threading
=========

Can I use threads to concurrently access the lxml API?
------------------------------------------------------

Short answer: yes, if you use lxml 2.2 and later. Since version 1.1, lxml frees the GIL
(Python's global interpreter lock) internally when parsing from disk and memory.

::

    parser = etree.XMLParser()
`;

describe('guides written as .txt in a docs folder', () => {
  const artifact: Artifact = {
    files: [
      file('doc/FAQ.txt', faq),
      file('docs/requirements.txt', 'sphinx>=7\nfuro\n'),
      file('notes.txt', 'Title\n=====\n\nA top-level text file with a title is not in a docs folder.\n'),
      file('README.rst', 'lxml\n====\n\nThe most feature-rich library for processing XML and HTML.\n'),
    ],
    facts: { description: 'XML toolkit', license: 'BSD', entryPoints: ['lxml'], typesIncluded: null, requirements: {}, importName: 'lxml' },
    fileUrl: (path, where) => `https://example.test/${path}${where?.anchor ? `#${where.anchor}` : ''}`, skipped: 0,
  };

  it('keeps doc(s)/ .txt files from the archive, and reads those with a section title as reStructuredText', async () => {
    assert.ok(isDocFile('doc/FAQ.txt', /\.py$/));
    assert.ok(isDocFile('docs/api/intro.txt', /\.py$/));
    assert.ok(!isDocFile('notes.txt', /\.py$/));
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'pypi', name: 'lxml', version: '6.1.3' });
    const threads = passages.find((p) => p.title === 'Can I use threads to concurrently access the lxml API?');
    assert.ok(threads, 'the FAQ section is a passage under its reST title');
    assert.equal(threads.source, 'doc/FAQ.txt');
    assert.match(threads.content, /frees the GIL/);
    assert.match(threads.content, /```[\s\S]*parser = etree.XMLParser\(\)/);
    assert.ok(!passages.some((p) => p.source === 'docs/requirements.txt'), 'a .txt without a section title is not a guide');
    assert.ok(!passages.some((p) => p.source === 'notes.txt'), 'a .txt outside a docs folder is not a guide');
  });
});
