// fillByImportance: when a package has more passages than the cap, guides and items that explain themselves are kept
// before members (Go fields) and before declarations with no prose, each tier by importance, in the original order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fillByImportance } from '../../../src/docs/documents.ts';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';

const draft = (name: string, importance: number, content: string, extra: Partial<PassageDraft> = {}): PassageDraft => ({
  url: `https://x.test/${name}`, title: name, headings: [name], content, source: 'x.go', symbol: name, importance, ...extra,
});
const explained = '```go\nfunc F()\n```\n\nF does the work the reader asked about.';
const bare = '```go\ntype T struct{}\n```';

describe('fillByImportance', () => {
  const passages = [
    draft('README', 1, 'What the package is for, in prose.', { symbol: undefined }),
    draft('pkg.Shallow.Field', 0.65, '```go\nField int\n```\n\nField sets how many times to try.', { member: true }),
    draft('pkg.Undocumented', 0.5, bare),
    draft('sub.deep.Type.Method', 0.55, explained),
    draft('sub.deep.Other', 0.45, explained),
  ];

  it('keeps everything when the package fits', () => {
    assert.deepEqual(fillByImportance(passages, 10).map((p) => p.title), passages.map((p) => p.title));
  });

  it('keeps documented items before a shallower field and an undocumented declaration, in the original order', () => {
    assert.deepEqual(fillByImportance(passages, 3).map((p) => p.title), ['README', 'sub.deep.Type.Method', 'sub.deep.Other']);
  });

  it('fills what is left with members before bare declarations', () => {
    assert.deepEqual(fillByImportance(passages, 4).map((p) => p.title), ['README', 'pkg.Shallow.Field', 'sub.deep.Type.Method', 'sub.deep.Other']);
  });

  it('orders within a tier by importance', () => {
    assert.deepEqual(fillByImportance(passages, 2).map((p) => p.title), ['README', 'sub.deep.Type.Method']);
  });
});
