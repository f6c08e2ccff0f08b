// The docs bench's judge: a question's `file:` condition must match a passage's source however the question's
// writer named the file (as published, or as found in the unpacked npm tarball under `package/`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answers, parseExpectation } from '../../../bench/docs-questions.ts';

const readmePassage = { title: 'Usage', content: 'pc.red("text")', source: 'https://unpkg.com/picocolors@1.1.1/README.md' };

test('a file condition written against the unpacked tarball matches the published file', () => {
  assert.equal(answers(readmePassage, parseExpectation('file:package/README.md && text:pc.red')), true);
  assert.equal(answers(readmePassage, parseExpectation('file:README.md')), true);
});

test('a file condition still tells files apart', () => {
  assert.equal(answers(readmePassage, parseExpectation('file:package/CHANGELOG.md')), false);
  assert.equal(answers(readmePassage, parseExpectation('file:package/README.md && text:createColors')), false);
});
