import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeUses, headingUse, linkPassages, type LinkablePassage } from '../../../src/docs/links.ts';

const passage = (over: Partial<LinkablePassage>): LinkablePassage => ({
  content: '', symbol: null, title: null, headings: [], internal: false, importance: 0.8, url: 'u', ...over,
});

describe('guide ↔ API links', () => {
  it('reads only code: code blocks and code spans, never prose', () => {
    const uses = codeUses('Use `Session.mount` to get a session, then\n\n```python\ns = requests.Session()\ns.get(url, timeout=3)\n```\n');
    assert.deepEqual(uses, [
      { qualifier: 'Session', name: 'mount' },
      { qualifier: 'requests', name: 'Session' },
      { qualifier: 's', name: 'get' },
    ]);
    assert.deepEqual(codeUses('Call get on the session to get a page.'), []);
  });

  it('reads the API a README documents in prose: a heading that names an item, a bold name before its parameters', () => {
    assert.deepEqual(headingUse('expand(str)'), { name: 'expand' });
    assert.deepEqual(headingUse('`parse(text, [options])`'), { name: 'parse' });
    assert.deepEqual(headingUse('new Parser(options)'), { name: 'Parser' });
    assert.deepEqual(headingUse('debug.enable(namespaces)'), { qualifier: 'debug', name: 'enable' });
    assert.deepEqual(headingUse('`Session.mount`'), { qualifier: 'Session', name: 'mount' });
    assert.equal(headingUse('Usage'), undefined, 'a plain word heading names no item');
    assert.equal(headingUse('Getting started'), undefined);
    assert.deepEqual(codeUses('**getLineInfo**`(input, offset)` can be used to get a line and column.'), [{ name: 'getLineInfo' }]);
    assert.deepEqual(codeUses('Wildcards are supported.', 'enable(namespaces)'), [{ name: 'enable' }]);
  });

  it('links a section to the items its code calls, and each item back to the section', () => {
    const passages = [
      passage({ title: 'Timeouts', content: 'Give up after a while:\n\n```rust\nlet res = tokio::time::timeout(Duration::from_secs(1), fut).await;\n```' }),
      passage({ symbol: 'tokio::time::timeout', content: '```rust\npub fn timeout<F>(…)\n```\n\nRequires a future to complete before the deadline.' }),
      passage({ symbol: 'tokio::time::sleep', content: 'Waits until duration has elapsed.' }),
      passage({ title: 'Intro', content: 'Tokio is a runtime: it has a timeout too, in prose.' }),
    ];
    const links = linkPassages(passages);
    assert.deepEqual(links[0], { uses: [1], usedIn: [] });
    assert.deepEqual(links[1], { uses: [], usedIn: [0] });
    assert.deepEqual(links[2], { uses: [], usedIn: [] });
    assert.deepEqual(links[3], { uses: [], usedIn: [] }, 'a name in prose links nothing');
    const readme = linkPassages([
      passage({ title: 'sleep(duration)', headings: ['tokio', 'sleep(duration)'], content: 'Waits until the duration has elapsed.' }),
      ...passages.slice(1, 3),
    ]);
    assert.deepEqual(readme[0]!.uses, [2], 'a section headed by an item\'s call documents it');
  });

  it('tells same-named items apart by the qualifier written before the call, and drops ambiguous bare names', () => {
    const passages = [
      passage({ title: 'Sessions', content: '```python\nsession.get("https://example.org")\n```' }),
      passage({ symbol: 'requests.get', content: 'Sends a GET request.' }),
      passage({ symbol: 'requests.Session.get', content: 'Sends a GET request on the session.' }),
      passage({ symbol: 'a.X.new', content: 'Makes an X.' }),
      passage({ symbol: 'a.Y.new', content: 'Makes a Y.' }),
      passage({ symbol: 'a.Z.new', content: 'Makes a Z.' }),
      passage({ symbol: 'a.W.new', content: 'Makes a W.' }),
      passage({ title: 'Bare', content: '```rust\nlet v = new(1);\nlet y = Y::new(2);\n```' }),
    ];
    const links = linkPassages(passages);
    assert.deepEqual(links[0]!.uses, [2], '`session.get(` is Session.get, not the module function');
    assert.deepEqual(links[7]!.uses, [4], 'a bare `new(` among four items links none; `Y::new(` links Y.new');
  });

  it('prefers public, current items and links an item split in chunks once', () => {
    const passages = [
      passage({ title: 'Debounce', content: 'Wrap a handler: `_.debounce(save, 200)`' }),
      passage({ symbol: 'lodash.internal.debounce', internal: true, content: 'Helper.' }),
      passage({ symbol: 'lodash.debounce', content: 'Creates a debounced function (part 1).' }),
      passage({ symbol: 'lodash.debounce', content: 'Creates a debounced function (part 2).' }),
    ];
    const links = linkPassages(passages);
    assert.deepEqual(links[0]!.uses, [2]);
    assert.deepEqual(links[2]!.usedIn, [0]);
    assert.deepEqual(links[3]!.usedIn, []);
  });
});
