// Crawler pieces: robots.txt rules, private-address detection, HTML → Markdown with the page's own anchors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { htmlToMarkdown } from '../../../src/docs/sources/html.ts';
import { parseRobots } from '../../../src/docs/sources/robots.ts';
import { isPrivateAddress } from '../../../src/docs/sources/site.ts';

describe('parseRobots', () => {
  const rules = parseRobots('User-agent: *\nDisallow: /docs/private/\nAllow: /docs/private/ok.html\nDisallow: /*.pdf$\n\nUser-agent: otherbot\nDisallow: /\n');
  const table: Array<[string, boolean]> = [
    ['/docs/a.html', true], ['/docs/private/x.html', false], ['/docs/private/ok.html', true], ['/file.pdf', false], ['/file.pdf.html', true],
  ];
  for (const [path, allowed] of table) it(`${path} → ${allowed ? 'allowed' : 'disallowed'}`, () => assert.equal(rules(path), allowed));
  it('uses a group naming tooldex over the * group', () => {
    assert.equal(parseRobots('User-agent: *\nDisallow:\n\nUser-agent: tooldex\nDisallow: /\n')('/docs/'), false);
  });
});

describe('isPrivateAddress', () => {
  const table: Array<[string, boolean]> = [
    ['127.0.0.1', true], ['10.1.2.3', true], ['172.20.0.1', true], ['192.168.1.1', true], ['169.254.169.254', true],
    ['::1', true], ['fd00::1', true], ['fe80::1', true], ['::ffff:10.0.0.1', true], ['93.184.216.34', false], ['2606:4700::1111', false],
  ];
  for (const [address, expected] of table) it(`${address} → ${expected}`, () => assert.equal(isPrivateAddress(address), expected));
});

describe('htmlToMarkdown', () => {
  it('keeps the main content, drops chrome, and records heading ids and links', () => {
    const page = htmlToMarkdown(`<html><head><title>Routing | Docs</title></head><body><nav><a href="/nav">Nav</a></nav>
      <main><h1 id="routing">Routing</h1><p>Routes map <code>paths</code> to handlers.</p>
      <h2 id="route-params">Route parameters</h2><pre><code class="language-js">app.get('/:id', h)</code></pre>
      <a href="other.html#x">next</a><script>alert(1)</script></main><footer>foot</footer></body></html>`, 'http://127.0.0.1:1/docs/routing.html');
    assert.equal(page.title, 'Routing');
    assert.equal(page.anchors.get('Route parameters'), 'route-params');
    assert.match(page.markdown, /^# Routing/m);
    assert.match(page.markdown, /```[a-z]*\napp\.get\('\/:id', h\)\n```/);
    assert.doesNotMatch(page.markdown, /alert|foot|Nav/);
    assert.ok(page.links.includes('http://127.0.0.1:1/docs/other.html#x'));
  });
});
