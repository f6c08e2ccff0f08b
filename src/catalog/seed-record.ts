// A catalog record built from a seed list alone (name, summary, version, downloads or rank), for names whose
// registry is not reachable or was not asked (`tooldex ingest --offline`). No network; the record says where it came from.
import { deriveCategories, deriveFrameworks } from './classify.ts';
import { firstSentence, seedPopularity, type SeedEntry } from './registries/types.ts';
import { toSlug } from './slug.ts';
import type { Ecosystem, ToolRecord } from './types.ts';

const LANGUAGES: Record<Ecosystem, string[]> = {
  npm: ['JavaScript'], pypi: ['Python'], crates: ['Rust'], go: ['Go'], rubygems: ['Ruby'],
};

function defaultDocsUrl(ecosystem: Ecosystem, name: string): string {
  switch (ecosystem) {
    case 'npm': return `https://www.npmjs.com/package/${name}`;
    case 'pypi': return `https://pypi.org/project/${name}/`;
    case 'crates': return `https://docs.rs/${name}`;
    case 'go': return `https://pkg.go.dev/${name}`;
    case 'rubygems': return `https://rubydoc.info/gems/${name}`;
  }
}

export function recordFromSeed(ecosystem: Ecosystem, seed: SeedEntry, seedCount: number): ToolRecord {
  const description = (seed.summary ?? '').replace(/\s+/g, ' ').trim();
  const typed = ecosystem === 'npm' && (seed.name.startsWith('@types/') || /\btypescript\b|\btype-safe\b|\btyped\b/i.test(description));
  return {
    slug: toSlug(ecosystem, seed.name),
    ecosystem,
    name: seed.name,
    version: seed.version ?? null,
    description,
    shortDescription: firstSentence(description),
    keywords: [],
    languages: typed ? ['JavaScript', 'TypeScript'] : LANGUAGES[ecosystem],
    frameworks: deriveFrameworks({ name: seed.name, description, keywords: [] }),
    categories: deriveCategories({ name: seed.name, description, keywords: [] }),
    license: null,
    homepage: null,
    repository: ecosystem === 'go' && seed.name.startsWith('github.com/') ? `https://${seed.name.split('/').slice(0, 3).join('/')}` : null,
    docsUrl: defaultDocsUrl(ecosystem, seed.name),
    popularity: seedPopularity(seed, seedCount),
    downloads: seed.downloads ?? null,
    updatedAt: null,
    extra: {
      source: 'seed list',
      ...(ecosystem === 'pypi' && !seed.extra ? { downloadRank: seed.rank } : {}),
      ...(seed.extra ? { wellKnownExtra: true } : {}),
    },
  };
}
