// RubyGems adapter: the gem's JSON API (/api/v1/gems/<name>.json). Where RubyGems cannot be reached
// (as on the build machines), the record is built from the seed list's summary and rank, with no version.
import { deriveCategories, deriveFrameworks } from '../classify.ts';
import { toSlug } from '../slug.ts';
import type { ToolRecord } from '../types.ts';
import { fetchJson, HttpStatusError } from './http.ts';
import { cleanUrl, firstSentence, popularityFromDownloads, seedPopularity, trimSlash, type RegistryAdapter } from './types.ts';

interface GemInfo {
  name: string; version?: string; info?: string; licenses?: string[]; homepage_uri?: string | null;
  source_code_uri?: string | null; documentation_uri?: string | null; downloads?: number; version_created_at?: string;
  dependencies?: { runtime?: Array<{ name: string }> };
}

/** Set after the first network failure, so one unreachable host costs one timeout per run, not one per gem. */
let unreachableHost: string | undefined;

export const rubygemsAdapter: RegistryAdapter = {
  ecosystem: 'rubygems',
  async fetchTool(seed, context) {
    let gem: GemInfo | undefined;
    try {
      if (unreachableHost === context.urls.TOOLDEX_RUBYGEMS_URL && seed.summary) throw new Error('RubyGems unreachable in this run');
      gem = await fetchJson<GemInfo>(`${trimSlash(context.urls.TOOLDEX_RUBYGEMS_URL)}/api/v1/gems/${encodeURIComponent(seed.name)}.json`, {
        timeoutMs: context.timeoutMs, retries: 1,
      });
    } catch (error) {
      if (error instanceof HttpStatusError && error.status === 404) return undefined;
      if (!(error instanceof HttpStatusError)) unreachableHost = context.urls.TOOLDEX_RUBYGEMS_URL;
      if (!seed.summary) throw error;
      gem = undefined; // unreachable: fall back to the seed list
    }
    const description = (gem?.info ?? seed.summary ?? '').replace(/\s+/g, ' ').trim();
    const dependencies = gem?.dependencies?.runtime?.map((d) => d.name) ?? [];
    return {
      slug: toSlug('rubygems', seed.name),
      ecosystem: 'rubygems',
      name: gem?.name ?? seed.name,
      version: gem?.version ?? seed.version ?? null,
      description,
      shortDescription: firstSentence(description),
      keywords: [],
      languages: ['Ruby'],
      frameworks: deriveFrameworks({ name: seed.name, description, keywords: [], dependencies }),
      categories: deriveCategories({ name: seed.name, description, keywords: [] }),
      license: gem?.licenses?.[0] ?? null,
      homepage: cleanUrl(gem?.homepage_uri),
      repository: cleanUrl(gem?.source_code_uri),
      docsUrl: cleanUrl(gem?.documentation_uri) ?? cleanUrl(gem?.homepage_uri) ?? `https://rubydoc.info/gems/${seed.name}`,
      // RubyGems publishes total downloads: when its API answered, they rank the gem.
      popularity: gem?.downloads ? popularityFromDownloads(gem.downloads, 2e9) : seedPopularity(seed, context.seedCount),
      downloads: gem?.downloads ?? null,
      updatedAt: gem?.version_created_at ?? null,
      extra: gem ? {} : { source: 'seed list (RubyGems unreachable at ingest)' },
    } satisfies ToolRecord;
  },
};
