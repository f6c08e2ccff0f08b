// Weak supervision from the catalog itself (issue 21, round 10): pseudo-queries made from a tool's own text with its name
// and its family's words taken out, whose answer is that tool. No evaluation set is read: the queries come from the
// snapshot only, so they can join the fit without leaking any writer's questions (scripts/fit-loso.ts FIT_PSEUDO).
//
// Which tools: per ecosystem, a deterministic draw with probability popularity (0..1 within the ecosystem: the tools people ask for), so the
// pseudo-queries teach "the canonical tool for its own need", not the long tail's one-liners. Which text: the registry
// description (every tool has one; RubyGems has no README in the catalog) or, with source `readme`, the README
// opening's first sentence after the title. Both are indexed fields of the tool, so a pseudo-query matches its own
// answer better than a person's question would: that leak is why the pseudo-queries are weighted below the real ones
// and judged by leave-one-set-out over the real sets only.
import { createHash } from 'node:crypto';
import type { Ecosystem, ToolRecord } from '../src/catalog/types.ts';
import type { LabelledQuery } from './search-quality.ts';

/** The words a query uses to name an ecosystem, one of them appended to a share of the pseudo-queries (as people write). */
const LANGUAGE_WORDS: Record<Ecosystem, string[]> = {
  npm: ['in node', 'javascript', 'for node.js', 'npm package'],
  pypi: ['in python', 'python', 'python library'],
  crates: ['in rust', 'rust', 'rust crate'],
  go: ['in go', 'golang', 'go library'],
  rubygems: ['in ruby', 'ruby gem', 'for rails'],
};
/** Language and ecosystem words removed from the tool's text, so that the appended word alone says the ecosystem. */
const ECOSYSTEM_WORDS = new Set([
  'node', 'nodejs', 'node.js', 'js', 'javascript', 'typescript', 'ts', 'npm', 'python', 'python3', 'py', 'pypi', 'rust',
  'crate', 'crates', 'go', 'golang', 'ruby', 'gem', 'rails', 'library', 'package', 'module', 'a', 'an', 'the',
]);

/** A number in [0, 1) from a string: the draw is the same on every run and machine. */
export function unitHash(text: string): number {
  return createHash('sha1').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** The words of a tool's name and of the family it heads or belongs to (`@vitest/ui` → vitest, ui; `pyo3-log` → pyo3, log). */
export function nameWords(name: string): Set<string> {
  const plain = name.toLowerCase().replace(/^github\.com\/|^golang\.org\/x\/|^gopkg\.in\//, '');
  const words = plain.split(/[^a-z0-9]+/).filter(Boolean);
  // Go paths: the owner is a name too (`go-chi/chi`); a trailing version (`v5`) is not a word of the need.
  return new Set([...words, plain.replace(/[^a-z0-9]/g, ''), ...words.map((w) => w.replace(/^go|^py|js$|rs$/, ''))].filter((w) => w.length > 0));
}

/** The first sentence of the README opening that is not its title line: most READMEs open `name` + one-line pitch. */
function readmeSentence(tool: ToolRecord): string {
  const excerpt = typeof tool.extra.readmeExcerpt === 'string' ? tool.extra.readmeExcerpt : '';
  const text = excerpt.replace(/!?\[[^\]]*\]\[[^\]]*\]|!?\[[^\]]*\]\([^)]*\)|https?:\/\/\S+/g, ' ');
  const sentences = text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter((s) => s.split(/\s+/).length >= 5);
  return sentences[0] ?? '';
}

/** A tool's text as a query: its words less its name's, its family's and the ecosystem's, at most `maxWords`. */
export function pseudoQueryText(text: string, name: string, maxWords = 10): string {
  const banned = nameWords(name);
  const words = text
    .replace(/`[^`]*`/g, ' ')
    .replace(/[^\p{L}\p{N}.+#'-]+/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[.'-]+|[.'-]+$/g, ''))
    .filter((w) => w.length > 0 && !banned.has(w.toLowerCase()) && !banned.has(w.toLowerCase().replace(/[^a-z0-9]/g, '')) && !ECOSYSTEM_WORDS.has(w.toLowerCase()));
  return words.slice(0, maxWords).join(' ').toLowerCase();
}

export interface PseudoOptions {
  /** Tools drawn per ecosystem. */
  perEcosystem: number;
  /** `description` (the registry's one line) or `readme` (the README's first sentence; tools without one are skipped). */
  source: 'description' | 'readme';
  /** Each pseudo-query's weight in the fit, against 1 for a person's query. */
  weight: number;
  /** Share of the pseudo-queries that name their ecosystem ("… in rust"); two thirds of the real queries do. */
  namedShare: number;
}

export const PSEUDO_DEFAULTS: PseudoOptions = { perEcosystem: 120, source: 'description', weight: 0.5, namedShare: 0.65 };

/**
 * Pseudo-queries from the catalog: per ecosystem, tools drawn with probability popularity, each tool's text less its
 * name, family and ecosystem words (at least three words left), a language word appended to `namedShare` of them.
 * Set `pseudo-catalog`, `trainOnly`: fit on, never ranked as a left-out set.
 */
export function pseudoQueries(tools: readonly ToolRecord[], options: PseudoOptions = PSEUDO_DEFAULTS): LabelledQuery[] {
  const out: LabelledQuery[] = [];
  const seenText = new Set<string>();
  for (const ecosystem of ['npm', 'pypi', 'crates', 'go', 'rubygems'] as const) {
    const drawn = tools
      .filter((tool) => tool.ecosystem === ecosystem && unitHash(`draw:${tool.slug}`) < tool.popularity)
      .sort((a, b) => unitHash(`order:${a.slug}`) - unitHash(`order:${b.slug}`));
    let taken = 0;
    for (const tool of drawn) {
      if (taken >= options.perEcosystem) break;
      const source = options.source === 'readme' ? readmeSentence(tool) : tool.description;
      const text = pseudoQueryText(source, tool.name);
      // Three words at least, and one query per text: forks and mirrors share descriptions, and their twin would be a
      // negative with the very same words.
      if (text.split(' ').length < 3 || seenText.has(text)) continue;
      seenText.add(text);
      const named = unitHash(`named:${tool.slug}`) < options.namedShare;
      const words = LANGUAGE_WORDS[ecosystem];
      const query = named ? `${text} ${words[Math.floor(unitHash(`word:${tool.slug}`) * words.length)]}` : text;
      out.push({ query, ecosystem, named, acceptable: new Set([tool.slug]), set: 'pseudo-catalog', weight: options.weight, trainOnly: true });
      taken++;
    }
  }
  return out;
}

/**
 * The fit scripts' switch (scripts/fit-ranking.ts, scripts/fit-loso.ts): FIT_PSEUDO=n pseudo-queries per ecosystem,
 * FIT_PSEUDO_WEIGHT and FIT_PSEUDO_SOURCE as in PSEUDO_DEFAULTS otherwise; none when FIT_PSEUDO is unset.
 */
export function pseudoQueriesFromEnv(tools: readonly ToolRecord[], env: NodeJS.ProcessEnv = process.env): LabelledQuery[] {
  if (!env.FIT_PSEUDO) return [];
  return pseudoQueries(tools, {
    ...PSEUDO_DEFAULTS,
    perEcosystem: Number(env.FIT_PSEUDO),
    weight: Number(env.FIT_PSEUDO_WEIGHT ?? PSEUDO_DEFAULTS.weight),
    source: (env.FIT_PSEUDO_SOURCE ?? PSEUDO_DEFAULTS.source) as PseudoOptions['source'],
  });
}
