// Query understanding: turns "python http client with async support" into search terms plus an ecosystem intent.
// Pure functions; the ranking tests drive them with tables of queries.
import type { Ecosystem } from './types.ts';

/** (Prototype-free: "constructor" or "toString" in a query are words, not markers.)
 * Words that name an ecosystem when they stand in the query ("… in python", "for rust", "node …"). */
const ECOSYSTEM_WORDS: Record<string, Ecosystem> = Object.assign(Object.create(null) as Record<string, Ecosystem>, {
  python: 'pypi', py: 'pypi', pypi: 'pypi', pip: 'pypi', python3: 'pypi',
  rust: 'crates', crate: 'crates', crates: 'crates', cargo: 'crates', rustlang: 'crates',
  go: 'go', golang: 'go',
  ruby: 'rubygems', gem: 'rubygems', gems: 'rubygems', rubygems: 'rubygems',
  node: 'npm', nodejs: 'npm', 'node.js': 'npm', npm: 'npm', javascript: 'npm', js: 'npm',
  typescript: 'npm', ts: 'npm', deno: 'npm', bun: 'npm',
  // Frameworks, libraries and idioms that only exist in one ecosystem say which one the user works in. Since round 8
  // the search reads framework cues from the catalog instead (CUE_SOURCES.derived); these framework entries (and
  // CUE_TERMS) are still read (1) by peer phrases: nameAt, so "alternative to rails" names rails and not a language,
  // (2) by the benches' comparisons (BENCH_CUES=hand in bench/search-harness.ts, QUICK_CUES=hand in
  // bench/search-quick.ts), (3) by the parser's table tests (test/unit/catalog/search-parts.test.ts, rank.test.ts).
  rails: 'rubygems', sinatra: 'rubygems', rack: 'rubygems', activerecord: 'rubygems', rspec: 'rubygems',
  minitest: 'rubygems', erb: 'rubygems', rubocop: 'rubygems', hanami: 'rubygems', sidekiq: 'rubygems',
  django: 'pypi', flask: 'pypi', fastapi: 'pypi', asyncio: 'pypi', pandas: 'pypi', numpy: 'pypi', pydantic: 'pypi',
  pytest: 'pypi', scipy: 'pypi', jupyter: 'pypi', sqlalchemy: 'pypi', celery: 'pypi', mypy: 'pypi', pyproject: 'pypi',
  react: 'npm', vue: 'npm', angular: 'npm', svelte: 'npm', express: 'npm', nextjs: 'npm', 'next.js': 'npm',
  webpack: 'npm', nestjs: 'npm', jest: 'npm', eslint: 'npm',
  tokio: 'crates', actix: 'crates', axum: 'crates', serde: 'crates', rustc: 'crates',
  goroutine: 'go', goroutines: 'go', gin: 'go', cobra: 'go',
});

/** The words of ECOSYSTEM_WORDS that name a language or its registry (not a framework). */
const LANGUAGE_WORDS = new Set(['python', 'py', 'pypi', 'pip', 'python3', 'rust', 'crate', 'crates', 'cargo', 'rustlang', 'go', 'golang',
  'ruby', 'gem', 'gems', 'rubygems', 'node', 'nodejs', 'node.js', 'npm', 'javascript', 'js', 'typescript', 'ts', 'deno', 'bun']);

/**
 * Cue words that still carry topic meaning stay in the text query, at a reduced weight so that the framework's own
 * packages do not flood the answer ("rails auth" must find devise, not the rails gems); plain language names leave.
 */
const CUE_TERMS = new Set(['typescript', 'javascript', 'rails', 'sinatra', 'rack', 'activerecord', 'rspec', 'minitest', 'erb',
  'rubocop', 'hanami', 'sidekiq', 'django', 'flask', 'fastapi', 'asyncio', 'pandas', 'numpy', 'pydantic', 'pytest', 'scipy',
  'jupyter', 'sqlalchemy', 'celery', 'mypy', 'react', 'vue', 'angular', 'svelte', 'express', 'nextjs', 'next.js', 'webpack',
  'nestjs', 'jest', 'eslint', 'tokio', 'actix', 'axum', 'serde', 'goroutine', 'goroutines', 'gin', 'cobra']);
export const CUE_WEIGHT = 0.35;

const FILLER = new Set([
  'a', 'an', 'the', 'for', 'in', 'on', 'of', 'to', 'with', 'and', 'or', 'that', 'which', 'using', 'use', 'via',
  'library', 'libraries', 'lib', 'package', 'packages', 'module', 'modules', 'tool', 'tools',
  'i', 'me', 'my', 'we', 'want', 'need', 'looking', 'find', 'some', 'something', 'good', 'best', 'way', 'how',
  'do', 'does', 'can', 'is', 'are', 'it', 'from', 'by', 'into', 'at', 'as', 'be', 'implementation',
  'support', 'supports', 'written', 'language', 'based', 'simple', 'easy', 'like', 'similar', 'alternative', 'but',
]);

/** Short forms developers type, expanded to the words tools describe themselves with (at a lower weight). */
const ABBREVIATIONS: Record<string, string[]> = Object.assign(Object.create(null) as Record<string, string[]>, {
  auth: ['authentication', 'authorization'], authn: ['authentication'], authz: ['authorization'], db: ['database'],
  k8s: ['kubernetes'], cfg: ['configuration'], config: ['configuration'], env: ['environment'], i18n: ['internationalization'],
  ws: ['websocket'], pubsub: ['publish', 'subscribe'], orm: ['object', 'relational'], cli: ['command', 'line'],
});
export const EXPANSION_WEIGHT = 0.5;

/** Words that tie a language to the query ("in python", "for rust"). */
const CONNECTORS = /^(in|for|with|using|from)$/;
/** Words that make a one-term query a description ("library for sqlite", "tool to lint"), not a name. */
const RELATION_WORDS = new Set(['for', 'to', 'with', 'of', 'in', 'on', 'that', 'which', 'using', 'via', 'into', 'from', 'by']);

export interface ParsedQuery {
  /** Lower-case content words, filler and ecosystem markers removed. */
  terms: string[];
  /** Weight of each term in the full-text score (cue words and expansions count less), by term. */
  weights: Map<string, number>;
  /** Framework cue words of a query that asks for something else too ("rails" in "rails auth"). */
  cues: string[];
  ecosystem?: Ecosystem;
  /** The query as one name-like string ("react query" → "react-query"), for exact-name matching. */
  nameGuess: string;
  /** The query is a name and nothing else ("serde", "requests python"): exact-name matching decides. */
  bareName: boolean;
  /**
   * The query asks for peers of a named tool ("alternative to moment", "like requests", "replacement for deprecated
   * request", "moment is unmaintained"): the name as it may be written (one word, or two joined), longest first. The
   * search resolves it against the catalog; the words of the pattern and of the name are not search terms.
   * One group per name offered (its spellings, longest first: the first that names a catalog tool stands for the
   * group), in the order offered; only groups compete with each other, as `without`'s do not.
   */
  peerOf?: string[][];
  /** The ecosystem a language word just before the peer's name says it lives in ("like python requests"). */
  peerEcosystem?: Ecosystem;
  /** Tools the query rules out ("http client without axios"): names, longest first, each resolved by the search. */
  without: string[][];
  /** Every content word of the query, the phrase's too: what tells which of several offered names is meant. */
  words: string[];
}

export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2') // camelCase → camel Case
    .toLowerCase()
    .split(/[^a-z0-9+#.]+|(?<=[a-z])\.(?=[a-z])|\.(?=\s|$)/)
    .map((token) => token.replace(/^\.+|\.+$/g, ''))
    .filter(Boolean);
}

/**
 * Phrases that ask for another tool than the one they name, as word sequences before the name (`after`) or after it
 * (`before`): the words around a name, not per-example rules. "X for Y" (a name and another ecosystem) is read by the
 * search, which knows where X lives.
 */
const PEER_BEFORE = [
  ['alternative', 'to'], ['alternatives', 'to'], ['alternative', 'for'], ['alternatives', 'for'], ['alternative', 'of'],
  ['like'], ['similar', 'to'], ['replacement', 'for'], ['replacement', 'of'], ['replace'], ['replacing'], ['instead', 'of'],
  ['successor', 'to'], ['successor', 'of'], ['migrate', 'from'], ['migrating', 'from'], ['migration', 'from'],
  ['switch', 'from'], ['switching', 'from'], ['move', 'away', 'from'], ['moving', 'away', 'from'], ['move', 'from'],
  ['moving', 'from'], ['deprecated'], ['unmaintained'], ['abandoned'], ['better', 'than'], ['faster', 'than'],
];
/**
 * What is said of a tool that is on its way out ("X is deprecated", "X got archived", "X is in maintenance mode", "X was
 * renamed"): an auxiliary (or none, for the participles that stand alone) and a status. The grammar of such sentences,
 * not a list of sentences.
 */
const AUXILIARIES = [['is'], ['was'], ['got'], ['has', 'been'], ['had', 'been'], ['is', 'now'], ['has', 'gone'], ['went']];
const STATUSES = [['deprecated'], ['unmaintained'], ['abandoned'], ['archived'], ['retired'], ['renamed'], ['yanked'],
  ['discontinued'], ['dead'], ['sunset'], ['superseded'], ['obsolete'], ['frozen'], ['eol'], ['end', 'of', 'life'],
  ['in', 'maintenance', 'mode'], ['into', 'maintenance', 'mode'], ['no', 'longer', 'maintained'], ['not', 'maintained'],
  ['no', 'longer', 'supported'], ['not', 'supported', 'anymore']];
/** Participles that say it without an auxiliary ("X deprecated"); not "renamed" or "retired", which follow verbs ("list renamed files"). */
const BARE_STATUSES = [['deprecated'], ['unmaintained'], ['abandoned'], ['archived'], ['discontinued']];
const PEER_AFTER = [
  ['alternative'], ['alternatives'], ['replacement'],
  ...AUXILIARIES.flatMap((aux) => STATUSES.map((status) => [...aux, ...status])), ...BARE_STATUSES,
  ['is', 'slow'], ['is', 'too', 'slow'], ['is', 'too', 'heavy'], ['is', 'too', 'big'],
];
/** "chalk but smaller", "requests but for go": a name that opens the query, then "but" — only at the start. */
/**
 * A sentence whose subject is the opening name ("jest is painfully slow with esm…", "enzyme doesn't support react 18"):
 * an auxiliary or copula right after it makes the query a remark about that tool, and what it asks for is another one.
 * The auxiliaries are English's closed class, not a list of complaints.
 */
// (The words are split at apostrophes: "doesn't" reads as "doesn", "t".)
const OPENING_CLAUSE = [['is'], ['was'], ['isn', 't'], ['wasn', 't'], ['doesn', 't'], ['does', 'not'], ['can', 't'], ['cannot'], ['won', 't']];
const PEER_OPENING = [['but'], ...OPENING_CLAUSE];
/** Words for what a package is, said between its name and the phrase ("the request package is deprecated"). */
const KIND_WORDS = new Set(['package', 'library', 'lib', 'crate', 'gem', 'module', 'framework', 'tool', 'project', 'dependency']);
/** A word that names a tool the one the query wants is compatible with ("jest-compatible but faster"). */
const PEER_SUFFIX = /^([a-z0-9][a-z0-9.+-]*?)-compatible$/;
const NEGATION = new Set(['without', 'except', 'not', 'excluding']);
/** Words that cannot be a tool's name in these phrases. */
const NOT_A_NAME = new Set(['a', 'an', 'the', 'my', 'our', 'something', 'one', 'library', 'package', 'tool', 'that', 'this', 'deprecated',
  'unmaintained', 'abandoned', 'old', 'legacy', 'using', 'use', 'what', 'which', 'should', 'now', 'it', 'is', 'was', 'so', 'but']);

const at = (words: string[], i: number, phrase: string[]) => phrase.every((word, k) => words[i + k] === word);

/**
 * A language suffix people add to a package's name when they write it ("moment.js", "tui-rs"): the name without it is
 * offered first (the package is `moment`, not the obscure `moment-js`), and the suffix says the ecosystem.
 */
const NAME_LANGUAGE_SUFFIX = /[.-](js|ts|rs|py|rb|go)$/;
const SUFFIX_ECOSYSTEM: Record<string, Ecosystem> = { js: 'npm', ts: 'npm', rs: 'crates', py: 'pypi', rb: 'rubygems', go: 'go' };
const nameForms = (name: string) => {
  const bare = name.replace(NAME_LANGUAGE_SUFFIX, '');
  return bare.length >= 2 && bare !== name ? [bare, name] : [name];
};
const suffixEcosystem = (name: string): Ecosystem | undefined => {
  const suffix = NAME_LANGUAGE_SUFFIX.exec(name)?.[1];
  return suffix ? SUFFIX_ECOSYSTEM[suffix] : undefined;
};

/** A name starting at word i: that word, and that word joined with the next (for "active record", "create react app"). */
function nameAt(words: string[], i: number): string[] | undefined {
  const first = words[i];
  if (!first || NOT_A_NAME.has(first) || FILLER.has(first) || ECOSYSTEM_WORDS[first] && !CUE_TERMS.has(first)) return undefined;
  const next = words[i + 1];
  const forms = nameForms(first);
  if (next && !FILLER.has(next) && !NOT_A_NAME.has(next) && !ECOSYSTEM_WORDS[next] && !KIND_WORDS.has(next)) forms.unshift(`${first}-${next}`);
  return forms;
}

/**
 * A gerund that takes an object ("without linking openssl", "instead of typing long paths", "instead of destroying
 * them") is an action, not a tool's name: a name that ends in -ing ("alternative to tracing for logs") stands alone or
 * before a connecting word. English grammar, not a list of words.
 */
const actionAt = (words: string[], i: number): boolean => {
  const [word, next] = [words[i] ?? '', words[i + 1]];
  return /^[a-z]{3,}ing$/.test(word) && next !== undefined && !FILLER.has(next) && !ECOSYSTEM_WORDS[next] && !KIND_WORDS.has(next);
};

/** A language word just before a name ("python requests"): the ecosystem the name is meant in. */
const languageAt = (words: string[], i: number): Ecosystem | undefined =>
  LANGUAGE_WORDS.has(words[i] ?? '') ? ECOSYSTEM_WORDS[words[i]!] : undefined;

/** Finds "alternative to X" / "X is deprecated" and "without X"; returns the name and the positions the phrase used. */
function peerPhrases(words: string[]): { peerOf?: string[][]; peerEcosystem?: Ecosystem; without: string[][]; used: Set<number> } {
  const used = new Set<number>();
  const without: string[][] = [];
  let peerOf: string[][] | undefined;
  let peerEcosystem: Ecosystem | undefined;
  words.forEach((word, i) => {
    if (NEGATION.has(word) && words[i + 1] !== 'too') {
      // "without running redis": what is ruled out is the action's object.
      const at = actionAt(words, i + 1) ? i + 2 : i + 1;
      const name = nameAt(words, at);
      if (name) {
        without.push(name);
        for (let k = i; k <= at; k++) used.add(k);
      }
    }
  });
  // Every phrase that fits offers its name ("X is deprecated" first: "deprecated" alone also precedes other words);
  // each name is a group of its spellings, and the search picks among the groups that name a catalog tool.
  const offered: string[][] = [];
  const after = (phrases: string[][], i: number, from: number, opening = false) => {
    for (const phrase of phrases) {
      if (!at(words, i, phrase)) continue;
      // The name may stand before a word for what it is ("the failure crate is deprecated").
      const kind = KIND_WORDS.has(words[i - 1] ?? '') && i >= 2 ? words[i - 1]! : undefined;
      const nameIndex = kind ? i - 2 : i - 1;
      if (nameIndex < from || (opening && nameIndex !== from) || !nameAt(words, nameIndex)) continue;
      offered.push(nameForms(words[nameIndex]!));
      // "amethyst game engine archived", "the failure error library is deprecated": the word before the status may be
      // what the tool is, and the name one or two words earlier. Those are offered after it; the search picks the one
      // whose tool the query's other words describe.
      for (let k = nameIndex - 1; k >= Math.max(from, nameIndex - 2) && !opening && nameAt(words, k); k--) offered.push(nameForms(words[k]!));
      // "the dotenv crate is unmaintained", "the sass gem is deprecated": a kind word that is a registry's says where.
      peerEcosystem ??= languageAt(words, nameIndex - 1) ?? suffixEcosystem(words[nameIndex]!) ?? (kind ? ECOSYSTEM_WORDS[kind] : undefined);
      for (let k = nameIndex; k < i + phrase.length; k++) used.add(k);
      return;
    }
  };
  for (let i = 1; i < words.length; i++) after(PEER_AFTER, i, 0);
  if (offered.length === 0) {
    // "chalk but smaller", "like python requests but for go": the opening name (after "like" and a language word).
    const start = words[0] === 'like' ? (languageAt(words, 1) ? 2 : 1) : 0;
    for (let i = start + 1; i < words.length && i <= start + 2; i++) after(PEER_OPENING, i, start, true);
  }
  for (let i = 0; i < words.length; i++) {
    for (const phrase of PEER_BEFORE) {
      if (!at(words, i, phrase)) continue;
      // "like python requests": the language word says where the name lives, and is not the name.
      const language = languageAt(words, i + phrase.length);
      const nameIndex = i + phrase.length + (language ? 1 : 0);
      // "instead of typing long paths" contrasts two actions: no tool is named.
      const name = actionAt(words, nameIndex) ? undefined : nameAt(words, nameIndex);
      if (!name) continue;
      offered.push(name);
      peerEcosystem ??= language ?? suffixEcosystem(words[nameIndex]!);
      // A two-word form takes its second word too; a one-word name leaves the next word to the query.
      const length = name[0]!.includes('-') && !words[nameIndex]!.includes('-') ? 2 : 1;
      for (let k = i; k < nameIndex + length; k++) used.add(k);
      break;
    }
  }
  // "jest-compatible": the named tool is the one to find peers of (least sure: offered last).
  words.forEach((word, i) => {
    const match = PEER_SUFFIX.exec(word);
    if (match && !used.has(i) && !NOT_A_NAME.has(match[1]!)) {
      offered.push(nameForms(match[1]!));
      used.add(i);
    }
  });
  // A spelling offered again (the same name read by two phrases) stays in its first group only.
  const seen = new Set<string>();
  const groups = offered.map((forms) => forms.filter((form) => !seen.has(form) && seen.add(form))).filter((forms) => forms.length);
  if (groups.length) peerOf = groups;
  return { peerOf, peerEcosystem, without, used };
}

/**
 * Where framework cues come from. `derived` (shipped since round 8): a reader of the catalog (`frameworkOf`, passed by
 * the search: CatalogSearchIndex.frameworkOf) that knows a framework by data, one word or two joined; under
 * leave-one-set-out over seven sets it does as well as the hand lists above (docs/search.md "Round 8"). `hand`: those
 * lists, kept for comparison (benches switch them on). Language words always count.
 */
export const CUE_SOURCES = { hand: false, derived: true };
/** Reads a word (or two joined: "active record" → "activerecord") as a framework that lives in one ecosystem. */
export type FrameworkOf = (word: string) => Ecosystem | undefined;

export function parseQuery(query: string, options: { peers?: boolean; frameworkOf?: FrameworkOf } = {}): ParsedQuery {
  // A possessive is its noun ("python's requests" → "python requests"); the apostrophe would leave a word "s".
  const all = query.toLowerCase().replace(/([a-z0-9])['’]s\b/g, '$1').split(/[\s,;!?()"'’]+/).filter(Boolean);
  const phrases = options.peers === false ? { without: [], used: new Set<number>() } as ReturnType<typeof peerPhrases> : peerPhrases(all);
  // The words of a peer phrase ("alternative to moment") are not search terms: the search describes the tool instead.
  const unphrased = all.filter((_, i) => !phrases.used.has(i));
  const listMarker = (word: string) => (CUE_SOURCES.hand || LANGUAGE_WORDS.has(word) ? ECOSYSTEM_WORDS[word] : undefined);
  // A cue from the catalog: never a language word (those stay the list's) nor filler; remembered for isCue.
  const derived = new Map<string, Ecosystem>();
  const derive = (word: string) => {
    if (!CUE_SOURCES.derived || !options.frameworkOf || FILLER.has(word) || LANGUAGE_WORDS.has(word)) return undefined;
    const found = derived.get(word) ?? options.frameworkOf(word);
    if (found) derived.set(word, found);
    return found;
  };
  const handMarker = (word: string) => listMarker(word) ?? derive(word);
  // Two words that are one framework's name ("active record", "spring boot") are read as that name.
  const words: string[] = [];
  for (let i = 0; i < unphrased.length; i++) {
    const [word, next] = [unphrased[i]!, unphrased[i + 1]];
    if (next && !handMarker(word) && !handMarker(next) && !FILLER.has(word) && !FILLER.has(next)
      && handMarker(`${word}${next}`)) {
      words.push(`${word}${next}`);
      i++;
    } else {
      words.push(word);
    }
  }
  const markerOf = (word: string) => handMarker(word);
  const isCue = (word: string) => CUE_SOURCES.hand && CUE_TERMS.has(word) || derived.has(word);
  // Which marker sets the ecosystem: "in rust" / "for go" (the user's language) over a bare language word over a
  // framework cue; "written in rust" says how a tool is made, not where it is used ("python linter written in rust").
  let ecosystem: Ecosystem | undefined;
  let strength = 0;
  const kept: string[] = [];
  const cues = new Set<string>();
  const markers: string[] = [];
  /** Positions of the words that only say the ecosystem (and, below, the "in"/"for" before them). */
  const markerAt = new Set<number>();
  words.forEach((raw, i) => {
    // "pydantic-like", "express-style": the named tool is a cue, not a term to match
    const word = raw.replace(/-(like|style|ish|compatible)$/, '');
    const marker = markerOf(word);
    if (!marker) {
      kept.push(word);
      return;
    }
    const before = words[i - 1] ?? '';
    const madeWith = before === 'in' && /^(written|implemented|built|made|coded)$/.test(words[i - 2] ?? '') || before === 'by';
    const cue = isCue(word);
    const level = madeWith ? 0 : cue ? 1 : CONNECTORS.test(before) ? 3 : 2;
    if (level > strength) {
      ecosystem = marker;
      strength = level;
    }
    if (cue || madeWith) {
      kept.push(word);
      cues.add(word);
    } else {
      markers.push(word);
      markerAt.add(i);
    }
  });
  // A language word that did not set the ecosystem is the topic ("python extensions in rust"): it stays a term.
  for (const word of markers) if (markerOf(word) !== ecosystem) kept.push(word);
  // The words that only say the ecosystem the query asks for, with the "in"/"for" before them: not part of a name.
  for (const i of [...markerAt]) {
    if (markerOf(words[i]!) !== ecosystem) markerAt.delete(i);
    else if (CONNECTORS.test(words[i - 1] ?? '')) markerAt.add(i - 1);
  }
  const unmarked = words.filter((_, i) => !markerAt.has(i));
  const terms = kept.flatMap(tokenize).filter((term) => !FILLER.has(term));
  // A query of cue words only ("rails", "pandas") is a name search: they are its terms at full weight.
  const onlyCues = terms.length > 0 && terms.every((term) => cues.has(term));
  // Single-word queries that are an ecosystem word ("rust") keep it as a term, so they still match something.
  const finalTerms = terms.length > 0 ? [...new Set(terms)] : [...new Set(words.flatMap(tokenize))];
  // "rust library for sqlite" asks for a library for sqlite, not for the crate named sqlite: a query with a connecting
  // word left (other than before its language) describes a tool; one content word alone is a name.
  const bareName = finalTerms.length <= 1 && !unmarked.some((word) => RELATION_WORDS.has(word));
  const weights = new Map(finalTerms.map((term) => [term, cues.has(term) && !onlyCues ? CUE_WEIGHT : 1]));
  for (const term of finalTerms) {
    for (const expansion of ABBREVIATIONS[term] ?? []) if (!weights.has(expansion)) weights.set(expansion, EXPANSION_WEIGHT);
  }
  // The query as a name: without filler and without the language it names ("requests python" → "requests").
  const named = words.filter((w) => !FILLER.has(w) && !(markerOf(w) && !isCue(w)));
  const nameGuess = (named.length ? named : words.filter((w) => !FILLER.has(w))).join('-');
  // A bare name ("boto3", "rails") is looked up as a name, wherever it lives: no ecosystem intent from the word itself.
  return {
    terms: words.length ? finalTerms : [], weights: words.length ? weights : new Map(), cues: onlyCues ? [] : [...cues], nameGuess,
    bareName: bareName && !phrases.peerOf && words.length > 0,
    ecosystem: onlyCues && words.length === 1 ? undefined : ecosystem,
    ...(phrases.peerOf ? { peerOf: phrases.peerOf } : {}),
    ...(phrases.peerEcosystem ? { peerEcosystem: phrases.peerEcosystem } : {}),
    without: phrases.without,
    words: [...new Set(all.flatMap(tokenize).filter((word) => !FILLER.has(word) && !NOT_A_NAME.has(word)))],
  };
}
