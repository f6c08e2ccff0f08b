// Ranking by evidence: comment-less declarations folded into the item that documents them, deprecation said in prose
// labelled, and a passage that explains ranked above a bare declaration for the same words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromNpmPackage } from '../../../src/docs/extract/dts.ts';
import { docSaysDeprecated, labelDeprecatedInProse } from '../../../src/docs/extract/deprecation.ts';
import { hasExplanation } from '../../../src/docs/extract/evidence.ts';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import { rankPassages, WEIGHTS, type IndexedPassage } from '../../../src/docs/rank.ts';

describe('comment-less declarations folded into the documented item', () => {
  it('folds undocumented interface members into the interface and overloads into one passage', async () => {
    const passages = await apiFromNpmPackage({
      name: 'fx', manifest: { types: 'index.d.ts' }, locate: () => '',
      files: new Map([['index.d.ts', [
        '/** The source of a cancel token: the token and the function that cancels it. */',
        'export interface CancelTokenSource {',
        '  token: CancelToken;',
        '  cancel: Canceler;',
        '  /** Whether the source was cancelled, with the reason given. */',
        '  reason?: string;',
        '}',
        'export declare function request(url: string): Promise<string>;',
        '/** Sends a request and resolves with its body. */',
        'export declare function request(config: { url: string }): Promise<string>;',
      ].join('\n')]]),
    });
    const symbols = passages.map((p) => p.symbol);
    assert.ok(!symbols.includes('fx.CancelTokenSource.token') && !symbols.includes('fx.CancelTokenSource.cancel'), JSON.stringify(symbols));
    assert.ok(symbols.includes('fx.CancelTokenSource.reason'), 'a documented member stays a passage of its own');
    const owner = passages.find((p) => p.symbol === 'fx.CancelTokenSource')!;
    assert.match(owner.content, /interface CancelTokenSource \{\n {2}token: CancelToken;\n {2}cancel: Canceler;\n\}/);
    const requests = passages.filter((p) => p.symbol === 'fx.request');
    assert.equal(requests.length, 1);
    assert.match(requests[0]!.content, /request\(url: string\)[^\n]*\n[^\n]*request\(config/);
    assert.match(requests[0]!.content, /Sends a request and resolves with its body/);
  });
});

describe('deprecation said in prose', () => {
  it('reads statements that the item is deprecated, not the adjective about something else', () => {
    assert.ok(docSaysDeprecated('```ts\ncancel(): void\n```\n\nThis method is deprecated. Use an AbortController instead.'));
    assert.ok(docSaysDeprecated('```ts\nold(): void\n```\n\nDeprecated since 2.0: use `fresh()`.'));
    assert.ok(!docSaysDeprecated('```ts\nparse(): void\n```\n\nReplaces the deprecated `loose` option with a strict parser.'));
    assert.ok(!docSaysDeprecated('```ts\nrun(): void\n```\n\nRuns the task.\n\n```ts\n// deprecated: is deprecated\n```'));
  });
  it('labels the items a guide section names deprecated, and the types named after them', () => {
    const api = (symbol: string, content = 'Described here in words.'): PassageDraft => ({ url: '', headings: [], content, source: 'index.d.ts', symbol, importance: 0.8 });
    const labelled = labelDeprecatedInProse([
      { url: '', headings: ['axios', 'Cancellation', 'CancelToken (deprecated)'], content: 'You can also cancel a request using a CancelToken.', source: 'README.md', importance: 1, deprecated: true },
      { url: '', headings: ['axios', 'Migrating'], content: 'The `legacyTimeout` option is deprecated; set `timeout`.', source: 'README.md', importance: 1 },
      api('axios.CancelToken'), api('axios.CancelTokenSource'), api('axios.AxiosRequestConfig.cancelToken'), api('axios.AbortSignal'),
      api('axios.Cancel'), api('axios.AxiosRequestConfig.legacyTimeout'), api('axios.AxiosRequestConfig.timeout'),
      api('axios.stop', 'Stops the client. This function is deprecated, call `close` instead.'),
    ]);
    const deprecated = labelled.filter((p) => p.symbol && p.deprecated).map((p) => p.symbol).sort();
    assert.deepEqual(deprecated, ['axios.AxiosRequestConfig.cancelToken', 'axios.AxiosRequestConfig.legacyTimeout', 'axios.CancelToken', 'axios.CancelTokenSource', 'axios.stop']);
    assert.ok(labelled.filter((p) => p.deprecated && p.symbol).every((p) => p.importance! < 0.5), 'ranked down');
  });
});

describe('a passage that explains outranks a bare declaration', () => {
  const passage = (id: number, symbol: string | null, content: string): IndexedPassage => ({
    id, url: `u${id}`, title: symbol ?? 'Cancellation', headings: [symbol ?? 'Cancellation'], content, source: symbol ? 'index.d.ts' : 'README.md',
    identifiers: [], symbol, importance: 0.8, internal: false, bare: Boolean(symbol) && !hasExplanation(content),
  });
  // axios's case: a one-line declaration named like the question's words, and the README section that explains.
  const passages = [
    // (Its type names the request: since title coverage left the word score in round 10, that is what ranks it first by words.)
    passage(0, 'axios.AxiosRequestConfig.cancelToken', '```ts\ncancelToken?: CancelToken<Request>\n```'),
    passage(1, null, 'You can cancel a request in flight with an AbortController.'),
  ];
  const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol?.split('.').pop() ?? p.title ?? '' })));
  const rank = () => rankPassages(passages, lexical, 'cancel a request', { limit: 2, identifiers: [] }).map((p) => p.doc);

  it('ranks the explaining section first', () => assert.deepEqual(rank(), [1, 0]));
  // Since round 11 the fitted weights carry the evidence in several declared features (a guide section up, the words its text says beyond its name): without them the word score alone puts the bare
  // declaration named cancel first.
  it('is what moves it: without the evidence weights the bare declaration named cancel comes first', () => {
    const evidence = ['section', 'textCoverage', 'example'] as const;
    const saved = evidence.map((name) => WEIGHTS[name]);
    for (const name of evidence) WEIGHTS[name] = 0;
    try {
      assert.deepEqual(rank(), [0, 1]);
    } finally {
      evidence.forEach((name, i) => { WEIGHTS[name] = saved[i]!; });
    }
  });
});
