// A Python module docstring written as a page of reStructuredText sections (google-resumable-media's requests/__init__.py:
// "Simple Downloads", "Chunked Downloads", "Multipart Uploads") is a passage per section titled by its heading, as Rust's
// and Go's module docs are; a docstring without section titles stays one passage with its text as written.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromPythonPackage } from '../../../src/docs/extract/python.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const locate = (file: string, where: { line?: number }) => `${file}#L${where.line ?? ''}`;
const page = `"""Support for downloading and uploading media.

Simple Downloads
================

To download only a portion of the bytes in the object, set \`start\` and \`end\`::

    download = Download(url, start=0, end=99)

Chunked Downloads
=================

Download the object in chunks rather than all at once, retrying each chunk.

Multipart Uploads
-----------------

Send metadata about the resource to be sent along with its bytes in one request.
"""

def upload(data):
    """Upload the bytes of an object and return its resource."""
`;

describe('Python module docstrings as sections', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['python']); });

  it('splits a docstring with section titles into titled passages of the module', async () => {
    const drafts = await apiFromPythonPackage(parsers, { files: new Map([['media/requests/__init__.py', page]]), importNames: ['media'], locate });
    const module = drafts.filter((d) => d.symbol === 'media.requests');
    assert.deepEqual(module.map((d) => d.title), ['media.requests', 'Simple Downloads', 'Chunked Downloads', 'Multipart Uploads']);
    assert.deepEqual(module[3]!.headings, ['media.requests', 'Chunked Downloads', 'Multipart Uploads']);
    assert.match(module[1]!.content, /only a portion of the bytes/);
    assert.match(module[1]!.content, /```[\s\S]*Download\(url, start=0, end=99\)/);
    assert.ok(drafts.some((d) => d.symbol === 'media.requests.upload'), 'items are unchanged');
  });

  it('keeps a docstring without section titles as one passage, as written', async () => {
    const plain = '"""Helpers for the media package: small functions used by the upload and download paths::\n\n    x = 1\n"""\n';
    const drafts = await apiFromPythonPackage(parsers, { files: new Map([['media/helpers.py', plain]]), importNames: ['media'], locate });
    const module = drafts.filter((d) => d.symbol === 'media.helpers');
    assert.equal(module.length, 1);
    assert.equal(module[0]!.title, 'media.helpers');
    assert.match(module[0]!.content, /download paths::\n\nx = 1/);
    assert.doesNotMatch(module[0]!.content, /```/);
  });
});
