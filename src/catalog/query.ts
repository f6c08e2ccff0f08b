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
  // Frameworks, libraries and idioms that only exist in one ecosystem say which one the user works in.
  rails: 'rubygems', sinatra: 'rubygems', rack: 'rubygems', activerecord: 'rubygems', rspec: 'rubygems',
  minitest: 'rubygems', erb: 'rubygems', rubocop: 'rubygems', hanami: 'rubygems', sidekiq: 'rubygems',
  django: 'pypi', flask: 'pypi', fastapi: 'pypi', asyncio: 'pypi', pandas: 'pypi', numpy: 'pypi', pydantic: 'pypi',
  pytest: 'pypi', scipy: 'pypi', jupyter: 'pypi', sqlalchemy: 'pypi', celery: 'pypi', mypy: 'pypi', pyproject: 'pypi',
  react: 'npm', vue: 'npm', angular: 'npm', svelte: 'npm', express: 'npm', nextjs: 'npm', 'next.js': 'npm',
  webpack: 'npm', nestjs: 'npm', jest: 'npm', eslint: 'npm',
  tokio: 'crates', actix: 'crates', axum: 'crates', serde: 'crates', rustc: 'crates',
  goroutine: 'go', goroutines: 'go', gin: 'go', cobra: 'go',
});

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
  'support', 'supports', 'written', 'language', 'based', 'simple', 'easy', 'like', 'similar', 'alternative',
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
}

export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2') // camelCase → camel Case
    .toLowerCase()
    .split(/[^a-z0-9+#.]+|(?<=[a-z])\.(?=[a-z])|\.(?=\s|$)/)
    .map((token) => token.replace(/^\.+|\.+$/g, ''))
    .filter(Boolean);
}

export function parseQuery(query: string): ParsedQuery {
  const words = query.toLowerCase().split(/[\s,;!?()"']+/).filter(Boolean);
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
    const marker = ECOSYSTEM_WORDS[word];
    if (!marker) {
      kept.push(word);
      return;
    }
    const before = words[i - 1] ?? '';
    const madeWith = before === 'in' && /^(written|implemented|built|made|coded)$/.test(words[i - 2] ?? '') || before === 'by';
    const cue = CUE_TERMS.has(word);
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
  for (const word of markers) if (ECOSYSTEM_WORDS[word] !== ecosystem) kept.push(word);
  // The words that only say the ecosystem the query asks for, with the "in"/"for" before them: not part of a name.
  for (const i of [...markerAt]) {
    if (ECOSYSTEM_WORDS[words[i]!] !== ecosystem) markerAt.delete(i);
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
  const named = words.filter((w) => !FILLER.has(w) && !(ECOSYSTEM_WORDS[w] && !CUE_TERMS.has(w)));
  const nameGuess = (named.length ? named : words.filter((w) => !FILLER.has(w))).join('-');
  // A bare name ("boto3", "rails") is looked up as a name, wherever it lives: no ecosystem intent from the word itself.
  return {
    terms: finalTerms, weights, cues: onlyCues ? [] : [...cues], nameGuess,
    bareName,
    ecosystem: onlyCues && words.length === 1 ? undefined : ecosystem,
  };
}
