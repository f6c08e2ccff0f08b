// Query understanding: turns "python http client with async support" into search terms plus an ecosystem intent.
// Pure functions; the ranking tests drive them with tables of queries.
import type { Ecosystem } from './types.ts';

/** Words that name an ecosystem when they stand in the query ("… in python", "for rust", "node …"). */
const ECOSYSTEM_WORDS: Record<string, Ecosystem> = {
  python: 'pypi', py: 'pypi', pypi: 'pypi', pip: 'pypi', python3: 'pypi',
  rust: 'crates', crate: 'crates', crates: 'crates', cargo: 'crates', rustlang: 'crates',
  go: 'go', golang: 'go',
  ruby: 'rubygems', gem: 'rubygems', gems: 'rubygems', rubygems: 'rubygems',
  node: 'npm', nodejs: 'npm', 'node.js': 'npm', npm: 'npm', javascript: 'npm', js: 'npm',
  typescript: 'npm', ts: 'npm', deno: 'npm', bun: 'npm',
  // Frameworks that only exist in one ecosystem say which one the user works in.
  rails: 'rubygems', sinatra: 'rubygems', django: 'pypi', flask: 'pypi', fastapi: 'pypi', react: 'npm', vue: 'npm',
  angular: 'npm', svelte: 'npm', express: 'npm', nextjs: 'npm', tokio: 'crates', actix: 'crates', axum: 'crates',
};

/** Ecosystem words that still carry topic meaning and stay in the text query ("typescript types"). */
const KEEP_AS_TERM = new Set(['typescript', 'javascript', 'rails', 'sinatra', 'django', 'flask', 'fastapi', 'react', 'vue',
  'angular', 'svelte', 'express', 'nextjs', 'tokio', 'actix', 'axum']);

const FILLER = new Set([
  'a', 'an', 'the', 'for', 'in', 'on', 'of', 'to', 'with', 'and', 'or', 'that', 'which', 'using', 'use', 'via',
  'library', 'libraries', 'lib', 'package', 'packages', 'module', 'modules', 'tool', 'tools',
  'i', 'me', 'my', 'we', 'want', 'need', 'looking', 'find', 'some', 'something', 'good', 'best', 'way', 'how',
  'do', 'does', 'can', 'is', 'are', 'it', 'from', 'by', 'into', 'at', 'as', 'be', 'sdk', 'implementation',
  'support', 'supports', 'written', 'language', 'based', 'simple', 'easy',
]);

export interface ParsedQuery {
  /** Lower-case content words, filler and ecosystem markers removed. */
  terms: string[];
  ecosystem?: Ecosystem;
  /** The query as one name-like string ("react query" → "react-query"), for exact-name matching. */
  nameGuess: string;
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
  let ecosystem: Ecosystem | undefined;
  const kept: string[] = [];
  for (const word of words) {
    const marker = ECOSYSTEM_WORDS[word];
    if (marker) {
      ecosystem ??= marker;
      if (KEEP_AS_TERM.has(word)) kept.push(word);
      continue;
    }
    kept.push(word);
  }
  const terms = kept.flatMap(tokenize).filter((term) => !FILLER.has(term));
  // Single-word queries that are an ecosystem word ("rust") keep it as a term, so they still match something.
  const finalTerms = terms.length > 0 ? terms : words.flatMap(tokenize);
  return { terms: finalTerms, ecosystem, nameGuess: words.filter((w) => !FILLER.has(w)).join('-') };
}
