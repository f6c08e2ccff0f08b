// Mentions (src/catalog/mentions.ts): tools of the same ecosystem that name a tool in their own text, as a lift over the
// rate at which the other ecosystems' texts use the same words. Built over a real TextIndex of a miniature catalog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mentionShare, mentionTerms } from '../../../src/catalog/mentions.ts';
import { TextIndex } from '../../../src/catalog/text-index.ts';
import { ECOSYSTEMS, type Ecosystem } from '../../../src/catalog/types.ts';

const tool = (ecosystem: Ecosystem, name: string, description: string) => ({ ecosystem, name, description });

function shares(tools: ReturnType<typeof tool>[]): Map<string, number> {
  const index = TextIndex.build(tools.map((t) => ({ name: t.name, keywords: '', description: t.description, tags: '', readme: '' })));
  const ecosystemOf = Uint8Array.from(tools, (t) => ECOSYSTEMS.indexOf(t.ecosystem));
  const share = mentionShare(tools, ecosystemOf, (term) => index.hits(term));
  return new Map(tools.map((t, doc) => [`${t.ecosystem}/${t.name}`, share[doc]!]));
}

test('the terms that name a tool: scope and parts, language words left out, a Go owner where the last element is shared', () => {
  assert.deepEqual(mentionTerms('npm', '@tanstack/react-query', false), ['tanstack', 'react', 'queri']);
  assert.deepEqual(mentionTerms('npm', 'file-js', false), ['file']);
  assert.deepEqual(mentionTerms('npm', 'node-js', false), []);
  assert.deepEqual(mentionTerms('go', 'github.com/google/uuid', false), ['uuid']);
  assert.deepEqual(mentionTerms('go', 'github.com/google/uuid', true), ['googl', 'uuid']);
});

test('a tool its ecosystem writes around outranks a literal match nobody names; a plain word gains nothing', () => {
  const s = shares([
    tool('crates', 'tokio', 'An event-driven, non-blocking I/O platform'),
    tool('crates', 'tokio-util', 'Utilities for working with Tokio'),
    tool('crates', 'hyper', 'A fast HTTP library built on tokio'),
    tool('crates', 'tonic', 'A gRPC implementation on top of tokio and hyper'),
    tool('crates', 'async-runtime-lite', 'A tiny async runtime'),
    tool('crates', 'time', 'Date and time library'),
    tool('crates', 'chrono-lite', 'Parse time strings'),
    tool('npm', 'time', 'Format time'),
    tool('npm', 'ms', 'Convert time strings to milliseconds'),
    tool('npm', 'dayjs', 'Parse and display time'),
    tool('npm', 'luxon', 'Immutable date wrapper'),
  ]);
  assert.equal(s.get('crates/tokio'), 1, 'named by three other crates: the most in its ecosystem');
  assert.ok(s.get('crates/hyper')! > 0 && s.get('crates/hyper')! < 1);
  assert.equal(s.get('crates/async-runtime-lite'), 0);
  assert.equal(s.get('crates/tonic'), 0);
  // "time" is said by npm's texts more often than by the crates': no lift, though another crate says it.
  assert.equal(s.get('crates/time'), 0);
});

test('a tool naming itself in its own description is no mention', () => {
  const s = shares([
    tool('pypi', 'ruff', 'ruff is an extremely fast Python linter'),
    tool('pypi', 'flake8-isort', 'flake8 plugin that integrates isort'),
    tool('pypi', 'ruff-lsp', 'A language server for ruff'),
  ]);
  assert.equal(s.get('pypi/ruff'), 1);
  assert.equal(s.get('pypi/flake8-isort'), 0);
  assert.equal(s.get('pypi/ruff-lsp'), 0);
});
