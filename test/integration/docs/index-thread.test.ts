// A large package's index (word index, centrality, bare declarations, guide ↔ API links) is built on the index thread
// (src/docs/index-parts.ts), so the event loop keeps serving while it builds, and it is the index the main thread
// builds: same terms and ids, same scores, same links, same answers. Read from a real store (PGlite, and PostgreSQL
// when TEST_DATABASE_URL is set), as a package index after a restart is.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';
import { INDEX_THREAD, indexThreadStats } from '../../../src/docs/index-parts.ts';
import { LEXICAL } from '../../../src/docs/lexical.ts';
import { createPackageIndexes, type PackageIndex } from '../../../src/docs/package-index.ts';
import { rankPassages } from '../../../src/docs/rank.ts';
import { claimIngestion, insertPassages } from '../../../src/docs/repository.ts';
import type { Store } from '../../../src/store/index.ts';
import { freshStore, storeKinds } from '../../helpers/stores.ts';

const WORDS = ['stream', 'buffer', 'connection', 'retry', 'timeout', 'parse', 'token', 'session', 'cache', 'header', 'cookie',
  'socket', 'proxy', 'encode', 'decode', 'schema', 'validate', 'rows', 'query', 'cursor', 'transaction', 'commit', 'rollback',
  'listener', 'event', 'callback', 'promise', 'yield', 'limit', 'offset', 'batch', 'upload', 'download', 'chunk', 'signal'];
const word = (i: number) => WORDS[i % WORDS.length]!;
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** A package of `n` passages: API items (some bare, some explained, some deprecated) and guide sections whose code calls them. */
function drafts(n: number): PassageDraft[] {
  return Array.from({ length: n }, (_, i): PassageDraft => {
    const name = `${word(i)}${cap(word(i * 7 + 3))}${i}`;
    if (i % 5 === 0) {
      return {
        url: `https://example.test/guide/${i}`, title: `How to ${word(i)} a ${word(i + 11)}`, headings: ['Guide', cap(word(i + 2)), `How to ${word(i)}`],
        source: 'README.md',
        content: `To ${word(i)} the ${word(i + 4)} with a ${word(i + 9)}, call \`client.${word(i + 1)}${cap(word(i * 7 + 10))}${i + 1}()\`:\n\n` +
          `\`\`\`js\nconst c = new Client();\nc.${word(i + 1)}${cap(word(i * 7 + 10))}${i + 1}({ ${word(i + 3)}: 3 });\nc.${word(i + 2)}${cap(word(i * 7 + 17))}${i + 2}();\n\`\`\`\n` +
          `It returns the ${word(i + 6)} and ${i % 3 ? 'never throws' : 'raises a TimeoutError on a slow socket'}.`,
      };
    }
    return {
      url: `https://example.test/api#${name}`, title: name, headings: ['API', 'Client', name], source: 'index.d.ts', symbol: `Client.${name}`,
      content: i % 4 === 1 ? `${name}(${word(i + 5)}: string): ${cap(word(i + 6))}`
        : `${name}(${word(i + 5)}: string): ${cap(word(i + 6))}\n\n${cap(word(i + 12))}s the ${word(i + 5)} and returns its ${word(i + 6)}; ` +
          `see \`Client.${word(i + 13)}${cap(word((i + 1) * 7 + 3))}${i + 1}\` for the ${word(i + 14)} case.`,
      importance: (i % 10) / 10, deprecated: i % 17 === 0, internal: i % 23 === 0,
    };
  });
}

const QUESTIONS = ['how do I retry a connection on timeout', 'parse a token from the header', 'streamBuffer', 'rollback a transaction',
  'upload a file in chunks with a limit', 'which call raises TimeoutError'];

/** The index's answers and parts, comparable across threads. */
function summary(index: PackageIndex) {
  return {
    passages: index.passages.map((p) => [p.id, p.centrality, p.bare]),
    links: index.links,
    size: index.lexical.size,
    vocabulary: index.lexical.nameVocabulary(),
    bodyTerms: index.passages.map((_, i) => [...index.lexical.bodyTerms(i)]),
    answers: QUESTIONS.map((q) => rankPassages(index.passages, index.lexical, q, { limit: 5, identifiers: [] }).map((p) => [p.url, p.score])),
    terms: QUESTIONS.map((q) => index.lexical.queryTerms(q)),
    candidates: QUESTIONS.map((q) => index.lexical.candidates(index.lexical.queryTerms(q)).sort((a, b) => a - b)),
  };
}

/** Builds (slug, version)'s index from the store, counting the event loop's timer ticks while it builds. */
async function timedBuild(store: Store, slug: string): Promise<{ index: PackageIndex; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => { ticks++; }, 1);
  try {
    const index = await createPackageIndexes(store).get(slug, '1.0.0', 'test');
    return { index, ticks };
  } finally {
    clearInterval(timer);
  }
}

for (const kind of storeKinds()) describe(`a large package's index built on the index thread (${kind})`, () => {
  let store: Store;
  let close: (() => Promise<void>) | undefined;
  const slug = 'npm-large-example';
  const saved = { ...INDEX_THREAD };
  before(async () => {
    ({ store, close } = await freshStore(kind));
    assert.equal(await claimIngestion(store, slug, '1.0.0', 60, 1), true);
    await insertPassages(store, slug, '1.0.0', drafts(3000));
  });
  after(async () => {
    Object.assign(INDEX_THREAD, saved);
    await close?.();
  });

  it('keeps the event loop serving while it builds, and is the index the main thread builds', async () => {
    Object.assign(INDEX_THREAD, { enabled: false });
    const main = await timedBuild(store, slug);
    Object.assign(INDEX_THREAD, { enabled: true, minPassages: 400 });
    const before = indexThreadStats.builds;
    const threaded = await timedBuild(store, slug);
    assert.equal(indexThreadStats.builds, before + 1, 'built on the thread');
    // On the main thread the build is one synchronous run after the store's read: no timer fires inside it. On the
    // thread the loop is free for its whole length (a thread start and thousands of passages: many milliseconds).
    assert.ok(threaded.ticks > main.ticks, `timer ticks during the build: thread ${threaded.ticks}, main ${main.ticks}`);
    assert.ok(threaded.ticks >= 5, `the loop ran during the thread's build (${threaded.ticks} ticks)`);
    assert.deepEqual(summary(threaded.index), summary(main.index));
    assert.ok(threaded.index.links!.some((l) => l.uses.length > 0), 'links were found');
    assert.ok(threaded.index.passages.some((p) => (p.centrality ?? 0) > 0), 'centrality was found');
  });

  it("builds with the asking thread's word-index settings (a bench's LEXICAL)", async () => {
    const savedLexical = { ...LEXICAL };
    try {
      Object.assign(LEXICAL, { stem: false, wholeIdentifiers: false });
      Object.assign(INDEX_THREAD, { enabled: false });
      const main = await timedBuild(store, slug);
      Object.assign(INDEX_THREAD, { enabled: true, minPassages: 400 });
      const threaded = await timedBuild(store, slug);
      assert.deepEqual(summary(threaded.index), summary(main.index));
      assert.ok(!main.index.lexical.nameVocabulary().includes('streambuffer0'), 'whole identifiers off');
    } finally {
      Object.assign(LEXICAL, savedLexical);
    }
  });

  it('builds a small package where it is asked for', async () => {
    Object.assign(INDEX_THREAD, { enabled: true, minPassages: 10_000 });
    const before = indexThreadStats.builds;
    await timedBuild(store, slug);
    assert.equal(indexThreadStats.builds, before);
  });
});
