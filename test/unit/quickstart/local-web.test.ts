// Network examples run against a local stand-in web server: third-party URL literals are pointed at it, only examples
// whose one obstacle is the network get such a variant, and the variant ranks above the doctest a network-free ranking
// would pick (requests' status-code table). Pure rewriting and scoring; the sandbox run is in the integration test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_WEB_ORIGIN, localWebVariants, pointedAtLocalWeb, sendsRequest, withLocalWeb } from '../../../src/quickstart/local-web.ts';
import { blockersOf, rankCandidates } from '../../../src/quickstart/score.ts';
import type { Candidate } from '../../../src/quickstart/types.ts';

const PY = { grammar: 'python' } as const;
const PYCON = { grammar: 'python', transcript: true } as const;
const JS = { grammar: 'javascript' } as const;
const readme = (code: string, language = 'python'): Candidate => ({ code, language, origin: 'readme', path: 'README.md', source: 'readme' });

describe('local stand-in web server', () => {
  it('points third-party URL literals at the stand-in, keeping path and query, and leaves loopback URLs alone', async () => {
    assert.equal(await pointedAtLocalWeb(`requests.get('https://api.github.com/user?x=1', auth=('u', 'p'))`, PY), `requests.get('${LOCAL_WEB_ORIGIN}/user?x=1', auth=('u', 'p'))`);
    assert.equal(await pointedAtLocalWeb('axios.get("https://example.com")', JS), `axios.get("${LOCAL_WEB_ORIGIN}/")`);
    // Only the URL a request is sent to: yarl's parsed URL beside it stays as the docs wrote it.
    assert.equal(await pointedAtLocalWeb(`url = URL('https://www.python.org/~guido')\nr = session.get('https://example.com/a')`, PY), `url = URL('https://www.python.org/~guido')\nr = session.get('${LOCAL_WEB_ORIGIN}/a')`);
    assert.equal(await pointedAtLocalWeb(`resp = urllib3.request("GET", "https://httpbin.org/robots.txt")`, PY), `resp = urllib3.request("GET", "${LOCAL_WEB_ORIGIN}/robots.txt")`);
    assert.equal(await pointedAtLocalWeb(`const { body } = await got('https://sindresorhus.com');`, JS, ['got']), `const { body } = await got('${LOCAL_WEB_ORIGIN}/');`);
    assert.equal(await pointedAtLocalWeb(`fetch('http://localhost:3000/a')`, JS), undefined);
    assert.equal(await pointedAtLocalWeb('requests.get(url)', PY), undefined);
  });

  it('reads the code with a parser: strings in comments, URLs in text and prompts are not requests; options objects are', async () => {
    // A URL in a comment or in a string that is not an argument of the call is left alone.
    assert.equal(await pointedAtLocalWeb("// see requests.get('https://docs.example.com')\nconsole.log('https://example.com');", JS), undefined);
    assert.equal(await pointedAtLocalWeb("x = 1  # requests.get('https://example.com')\nprint(x)", PY), undefined);
    // A parenthesis inside a string before the URL does not hide the request (the old pattern stopped at it).
    assert.equal(await pointedAtLocalWeb("requests.request('GET (x)', 'https://api.example.com/v1')", PY), `requests.request('GET (x)', '${LOCAL_WEB_ORIGIN}/v1')`);
    // The URL an options object gives, a keyword argument, a template literal with an interpolated path.
    assert.equal(await pointedAtLocalWeb("await axios.request({ method: 'get', url: 'https://api.example.com/users' });", JS), `await axios.request({ method: 'get', url: '${LOCAL_WEB_ORIGIN}/users' });`);
    assert.equal(await pointedAtLocalWeb("httpx.get(url='https://example.org/get', params={'a': 1})", PY), `httpx.get(url='${LOCAL_WEB_ORIGIN}/get', params={'a': 1})`);
    assert.equal(await pointedAtLocalWeb('const r = await fetch(`https://api.example.com/users/${id}`);', JS), `const r = await fetch(\`${LOCAL_WEB_ORIGIN}/users/\${id}\`);`);
    // A transcript: prompts kept, the URL on a continuation line found where it is; output lines are not code.
    const transcript = ">>> import requests\n>>> r = requests.post(\n...     'https://httpbin.org/post', data={'k': 'v'})\n>>> r.status_code\n200\n>>> print('https://example.com')";
    assert.equal(await pointedAtLocalWeb(transcript, PYCON), transcript.replace('https://httpbin.org', LOCAL_WEB_ORIGIN));
  });

  it('points only requests elsewhere, never a URL the example parses or builds (whatwg-url)', async () => {
    assert.ok(await sendsRequest("r = requests.get('https://api.github.com/user')", PY));
    assert.ok(await sendsRequest("async with session.get('http://python.org') as r:\n    pass", PY));
    assert.ok(await sendsRequest("const res = await fetch('https://example.com');", JS));
    assert.ok(await sendsRequest('resp = urllib3.request("GET", "https://httpbin.org/robots.txt")', PY));
    assert.ok(await sendsRequest("const { body } = await got('https://sindresorhus.com');", JS, ['got']));
    assert.ok(!(await sendsRequest("const url = new URL('https://example.com/a?b=1');\nconsole.log(url.searchParams.get('b'));", JS)));
    assert.ok(!(await sendsRequest("console.log(isURL('https://example.com'));", JS, ['validator'])));
    const parser = readme("const { URL } = require('whatwg-url');\nconsole.log(new URL('https://example.com/').href);", 'js');
    assert.deepEqual(await localWebVariants([parser], 'npm', blockersOf, ['whatwgUrl']), []);
  });

  it('makes a variant only of examples whose one obstacle is the network', async () => {
    const network = readme(">>> import requests\n>>> r = requests.get('https://api.github.com/user')\n>>> r.status_code\n200");
    const secrets = readme("import requests, os\nrequests.get('https://api.example.com', headers={'X': os.environ['API_TOKEN']})");
    const variants = await localWebVariants([network, secrets, readme('print(1)')], 'pypi', blockersOf);
    assert.equal(variants.length, 1);
    assert.ok(variants[0]!.localWeb);
    assert.match(variants[0]!.code, /127\.0\.0\.1:8765\/user/);
    assert.deepEqual(await localWebVariants([network], 'crates', blockersOf), []);
  });

  it('ranks the README\'s client call, run against the stand-in, above a status-code doctest of an inner module', async () => {
    const status: Candidate = { code: ">>> import requests\n>>> requests.codes['temporary_redirect']\n307", language: 'pycon', origin: 'doctest', path: 'src/requests/status_codes.py', source: 'doctest' };
    const network = readme(">>> import requests\n>>> r = requests.get('https://api.github.com/user', auth=('user', 'pass'))\n>>> r.status_code\n200\n>>> r.json()\n{}");
    const candidates = [network, status, ...await localWebVariants([network], 'pypi', blockersOf)];
    const ranked = rankCandidates(candidates, 'pypi', 'requests', 'requests', [], { publicNames: ['get', 'post', 'codes', 'Session'] }).filter((c) => !c.blockers.includes('needs network'));
    assert.equal(ranked[0]!.localWeb, true, ranked.map((c) => `${c.source} ${c.score} ${c.signals.join(',')}`).join('\n'));
    assert.ok(ranked[0]!.signals.includes('runs against a local stand-in web server'));
    assert.deepEqual(ranked[0]!.blockers, []);
  });

  it('starts the stand-in before the example: after `from __future__` in Python, an import or a require in Node', () => {
    const py = withLocalWeb('pypi', 'from __future__ import annotations\nimport requests\n', 'main.py');
    assert.match(py.code, /^from __future__ import annotations\nimport _tooldex_local_web/);
    assert.equal(py.file.path, '_tooldex_local_web.py');
    assert.match(withLocalWeb('npm', 'x()', 'index.mjs').code, /^import '\.\/tooldex-local-web\.cjs';/);
    assert.match(withLocalWeb('npm', 'x()', 'index.cjs').code, /^require\('\.\/tooldex-local-web\.cjs'\);/);
  });
});
