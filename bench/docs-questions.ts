// The docs bench's labelled questions: reads bench/docs-*.tsv and decides whether a passage answers a question.
// Pure: text in, verdicts out. The answer syntax is described at the top of bench/docs-heldout.tsv.
import fs from 'node:fs';
import path from 'node:path';

export type Condition = { kind: 'symbol' | 'file' | 'title' | 'text'; value: string };
/** Alternatives (any one suffices), each a list of conditions one passage must all meet. */
export type Expectation = Condition[][];

export interface Question {
  set: 'heldout' | 'tuning' | 'fresh' | 'fresh-r4' | 'fresh-r5' | 'fresh-r6' | 'fresh-r7' | 'fresh-r8' | 'fresh-r9' | 'fresh-r10' | 'fresh-r11' | 'fresh-r12' | 'fresh-r13' | 'fresh-r14' | 'fresh-r15' | 'fresh-r16' | 'fresh-r17' | 'fresh-r18' | 'fresh-r19' | 'fresh-r20' | 'fresh-r21';
  tool: string;
  ecosystem: string;
  question: string;
  expect: Expectation;
  raw: string;
}

/** What the bench knows of a returned passage (tooldex results and baseline hits alike). */
export interface Answer { title?: string | null; content: string; source?: string | null; symbol?: string | null }

export function parseExpectation(raw: string): Expectation {
  return raw.split(' || ').map((alternative) => alternative.split(' && ').map((part): Condition => {
    const match = /^(symbol|file|title|text):(.*)$/s.exec(part.trim());
    return match ? { kind: match[1] as Condition['kind'], value: match[2]!.trim() } : { kind: 'text', value: part.trim() };
  }));
}

export function loadQuestions(file: string, set: Question['set']): Question[] {
  return fs.readFileSync(path.join(import.meta.dirname, file), 'utf8').split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [tool = '', question = '', raw = ''] = line.split('\t');
      const prefix = tool.slice(0, tool.indexOf(':'));
      return { set, tool, ecosystem: prefix === 'gem' ? 'rubygems' : prefix, question, expect: parseExpectation(raw), raw };
    });
}

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');
const segments = (symbol: string) => symbol.replace(/[!`]|\(\)/g, '').split(/::|\.|#|\//).map((s) => s.trim().toLowerCase()).filter(Boolean);

/** `time::timeout` names `tokio::time::timeout` and `tokio::time::timeout::timeout`: same last segment, others in order. */
export function namesSymbol(passageSymbol: string, expected: string): boolean {
  const have = segments(passageSymbol);
  const want = segments(expected);
  if (!want.length || have[have.length - 1] !== want[want.length - 1]) return false;
  let i = 0;
  for (const segment of have.slice(0, -1)) if (segment === want[i]) i++;
  return i >= want.length - 1;
}

/**
 * An npm tarball keeps every file under `package/`, so a question written against the unpacked tarball says
 * `file:package/README.md`; a passage's source names the file as the package publishes it (`…/README.md`).
 */
const withoutArchiveRoot = (file: string) => file.replace(/^package\//, '');

/**
 * Round 14's judging rule: a Python or Rust item is also named by its DEFINING module's path. A passage carries the path
 * the package exports an item by (`asyncpg.Connection.copy_records_to_table`, `hyper_rustls::HttpsConnectorBuilder`
 * re-exported from a private module); a question writer who read the source names the module that defines it
 * (`asyncpg.connection.Connection…`, `hyper_rustls::connector::builder::HttpsConnectorBuilder`). Both name the same
 * item, so the defining module, read off the passage's source file (`asyncpg/connection.py`, `src/connector/builder.rs`),
 * is spliced in after the symbol's root: the question's segments must still all appear, in order, last one equal.
 * Only for `.py`, `.pyi` and `.rs` sources (Go and TypeScript items are named by their package, not their file).
 */
export function definingPath(symbol: string, source: string | null | undefined): string | undefined {
  const file = /^(?:[a-z]+:\/\/[^/]+\/)?(.+)\.(?:py|pyi|rs)$/i.exec(source ?? '')?.[1];
  if (!file || !symbol) return undefined;
  const modules = file.split('/').filter((s) => s && !['__init__', 'mod', 'lib'].includes(s));
  const [root, ...rest] = segments(symbol);
  return root ? [root, ...modules, ...rest].join('::') : undefined;
}

/**
 * Round 14's judging rule for Go examples: an `Example…` function's passage (src/docs/extract/golang.ts
 * examplePassages: source `…_test.go`, content `Example (suffix) of \`pkg.Item\`:`) carries the item it exemplifies
 * as its symbol; a question writer who read pkg.go.dev or the test file names the function (`ExamplePrintToPDF`,
 * `ExampleEvents_acceptAlert`, `Example_publish`). The function's name is rebuilt from the passage's own header, so a
 * question naming it is answered by that passage, and only by it.
 */
export function exampleName(answer: Answer): string | undefined {
  if (!answer.source?.endsWith('_test.go')) return undefined;
  const header = /^Example(?: \(([^)\n]+)\))? of `([^`\n]+)`:/.exec(answer.content);
  if (!header) return undefined;
  const [, suffix, named] = header;
  // An item's example: `pkg.Item` or `pkg.Type.Method` (the item after the package's own name); a package's: its import path.
  const item = answer.symbol ? named!.split('.').slice(1).join('_') : '';
  const name = `Example${item}${suffix ? `_${suffix}` : ''}`;
  return answer.symbol ? `${named!.split('.')[0]}.${name}` : `${named}/${name}`;
}

/**
 * Round 16's judging rule for Go: an item is also named by its package's import path, `<import path>::Item::Member`
 * (`github.com/bsm/redislock::Lock::Refresh`, `github.com/DataDog/datadog-go/v5/statsd::WithTags`), the way a writer who
 * read pkg.go.dev names it. A Go passage carries the package's name as its root (`redislock.Lock.Refresh`) and its file
 * relative to the module (`statsd/options.go`), so the import path names that package when it ends with the file's
 * directory, or, for a file at the module's root, when its last element (less a `/vN` or `.vN` major version and a
 * `go-`/`-go` affix) is the package's name. The item after the path is then matched as any symbol is (namesSymbol).
 * Until round 16 no such name matched anything: fresh-r15's writer named 37 of 48 Go answers so.
 */
export function namesGoItem(answer: Answer, expected: string): boolean {
  const cut = expected.indexOf('::');
  const importPath = cut > 0 ? expected.slice(0, cut).trim().toLowerCase() : '';
  if (!importPath.includes('/') || !answer.source?.endsWith('.go') || !answer.symbol || answer.symbol.includes('/')) return false;
  const [pkg, ...item] = answer.symbol.split('.');
  if (!item.length) return false;
  const dir = answer.source.includes('/') ? answer.source.slice(0, answer.source.lastIndexOf('/')).toLowerCase() : '';
  const bare = (name: string) => name.toLowerCase().replace(/\.v\d+$/, '').replace(/^go-|-go$/g, '').replace(/[-_.]/g, '');
  const last = importPath.split('/').filter((element) => !/^v\d+$/.test(element)).pop() ?? '';
  const samePackage = dir ? importPath.endsWith(`/${dir}`) : bare(last) === bare(pkg!);
  return samePackage && namesSymbol(item.join('.'), expected.slice(cut + 2));
}

/** `published`: the judge before round 14 (a symbol named only by the path the passage carries), for before/after figures. */
export type Judge = 'defining' | 'published';

export function meets(answer: Answer, condition: Condition, judge: Judge = 'defining'): boolean {
  switch (condition.kind) {
    case 'symbol': {
      if (namesSymbol(answer.symbol || answer.title || '', condition.value)) return true;
      if (judge === 'published') return false;
      const other = definingPath(answer.symbol ?? '', answer.source) ?? exampleName(answer);
      return Boolean(other && namesSymbol(other, condition.value)) || namesGoItem(answer, condition.value);
    }
    case 'file': {
      const want = withoutArchiveRoot(condition.value);
      return Boolean(answer.source && (answer.source === want || answer.source.endsWith(`/${want}`)));
    }
    case 'title': return squash((answer.title ?? '').replace(/`/g, '').trim()) === squash(condition.value.replace(/`/g, ''));
    case 'text': {
      const body = `${answer.title ?? ''}\n${answer.content}`;
      if (squash(body).includes(squash(condition.value))) return true;
      // Round 16: inline-code marks are markup, as in `title` above. A writer who copied the rendered docs writes
      // "inherit from MarkdownConverter" where the passage says "inherit from `MarkdownConverter`" (reST's ``x``
      // becomes `x` in passages), so the text is also met with every backtick removed on both sides.
      return judge !== 'published' && squash(body.replace(/`/g, '')).includes(squash(condition.value.replace(/`/g, '')));
    }
  }
}

export const answers = (answer: Answer, expect: Expectation, judge: Judge = 'defining') => expect.some((all) => all.every((c) => meets(answer, c, judge)));

/** Rank (1-based) of the first answering passage, or 0. */
export function firstHit(results: Answer[], expect: Expectation): number {
  const index = results.findIndex((r) => answers(r, expect));
  return index + 1;
}

/** The artifact holds the answer: each condition of some alternative is found in its files (text, not ranking). */
export function presentIn(files: Map<string, string>, expect: Expectation): boolean {
  const bodies = [...files.values()].map(squash);
  const has = (c: Condition) => {
    switch (c.kind) {
      case 'file': return [...files.keys()].some((p) => p === c.value || p.endsWith(`/${c.value}`));
      case 'symbol': {
        const name = segments(c.value).pop() ?? '';
        const word = new RegExp(`(^|[^a-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z0-9_]|$)`);
        return bodies.some((body) => word.test(body));
      }
      case 'title':
      case 'text': return bodies.some((body) => body.includes(squash(c.value.replace(/`/g, c.kind === 'title' ? '' : '`'))))
        || bodies.some((body) => body.includes(squash(c.value)));
    }
  };
  return expect.some((all) => all.every(has));
}
