// Slug rules: URL-safe, stable, unique per (ecosystem, name) and guessable from the registry name.
// `npm-zod`, `npm-tanstack__react-query`, `pypi-scikit-learn`, `crates-serde`, `go-github.com__go-chi__chi__v5`, `rubygems-rails`.
import { ECOSYSTEMS, type Ecosystem } from './types.ts';

const PREFIX: Record<Ecosystem, string> = { npm: 'npm', pypi: 'pypi', crates: 'crates', go: 'go', rubygems: 'rubygems' };

/** Every spelling a user may put before a colon (`npm:zod`, `python:requests`, `cargo:serde`). */
const ECOSYSTEM_ALIASES: Record<string, Ecosystem> = Object.assign(Object.create(null) as Record<string, Ecosystem>, {
  npm: 'npm', node: 'npm', js: 'npm', javascript: 'npm', typescript: 'npm', ts: 'npm',
  pypi: 'pypi', pip: 'pypi', python: 'pypi', py: 'pypi',
  crates: 'crates', crate: 'crates', cargo: 'crates', rust: 'crates',
  go: 'go', golang: 'go', gomod: 'go',
  rubygems: 'rubygems', gem: 'rubygems', gems: 'rubygems', ruby: 'rubygems',
});

export function ecosystemFromAlias(alias: string): Ecosystem | undefined {
  return ECOSYSTEM_ALIASES[alias.toLowerCase()];
}

/** PEP 503 name normalisation: PyPI treats `Django_REST.framework` and `django-rest-framework` as one project. */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

export function normalizeName(ecosystem: Ecosystem, name: string): string {
  const lower = name.trim().toLowerCase();
  switch (ecosystem) {
    case 'pypi': return normalizePypiName(lower);
    case 'crates': return lower.replace(/_/g, '-'); // crates.io treats - and _ as the same name
    case 'npm': return lower.replace(/^@/, '').replace(/\//g, '__');
    case 'go': return lower.replace(/\//g, '__');
    case 'rubygems': return lower;
  }
}

export function toSlug(ecosystem: Ecosystem, name: string): string {
  const body = normalizeName(ecosystem, name).replace(/[^a-z0-9._~-]+/g, '-');
  return `${PREFIX[ecosystem]}-${body}`;
}

export function ecosystemOfSlug(slug: string): Ecosystem | undefined {
  return ECOSYSTEMS.find((ecosystem) => slug.startsWith(`${PREFIX[ecosystem]}-`));
}

export interface SlugReference {
  /** The tool part as written, without a version (`npm:zod`, `@tanstack/react-query`, `npm-zod`). */
  tool: string;
  /** A version, range or tag after the last `@` that is not a scope marker (`3.23.8`, `3`, `latest`). */
  version?: string;
}

export function parseSlugReference(input: string): SlugReference {
  const text = input.trim();
  const at = text.lastIndexOf('@');
  if (at > 0 && text[at - 1] !== ':' && text[at - 1] !== '/') {
    const version = text.slice(at + 1);
    if (version) return { tool: text.slice(0, at), version };
  }
  return { tool: text };
}

/**
 * Candidate slugs for what a user typed, most specific first. The catalog keeps the first that exists
 * (and, for a bare name found in several ecosystems, the most popular).
 */
export function candidateSlugs(tool: string): { explicit: boolean; slugs: string[] } {
  const text = tool.trim();
  const colon = text.indexOf(':');
  if (colon > 0) {
    const ecosystem = ecosystemFromAlias(text.slice(0, colon));
    if (ecosystem) return { explicit: true, slugs: [toSlug(ecosystem, text.slice(colon + 1))] };
  }
  const lower = text.toLowerCase();
  const slugs = new Set<string>();
  if (ecosystemOfSlug(lower)) slugs.add(lower);
  for (const ecosystem of ECOSYSTEMS) slugs.add(toSlug(ecosystem, text));
  return { explicit: false, slugs: [...slugs] };
}
