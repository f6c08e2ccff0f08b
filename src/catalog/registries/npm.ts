// npm adapter: the packument's latest version (dist-tags) gives the manifest and its publish time.
// The registry served here has no search and no download counts; popularity comes from the seed list.
import { deriveCategories, deriveFrameworks } from '../classify.ts';
import { toSlug } from '../slug.ts';
import type { ToolRecord } from '../types.ts';
import { readTarGzTexts, readmeExcerpt } from './archive.ts';
import { fetchBytes, fetchJson, HttpStatusError } from './http.ts';
import { cleanUrl, firstSentence, seedPopularity, trimSlash, type RegistryAdapter } from './types.ts';

interface NpmManifest {
  name: string; version: string; description?: string; keywords?: string[] | string; license?: string | { type?: string };
  homepage?: string; repository?: string | { url?: string }; types?: string; typings?: string; engines?: Record<string, string>;
  peerDependencies?: Record<string, string>; dependencies?: Record<string, string>; browser?: unknown;
  exports?: unknown; main?: string; module?: string; bin?: unknown; deprecated?: string; dist?: { tarball?: string };
}

interface NpmPackument {
  'dist-tags'?: Record<string, string>;
  versions?: Record<string, NpmManifest>;
  time?: Record<string, string>;
}

export const encodeNpmName = (name: string) => name.replace('/', '%2f');

export const npmAdapter: RegistryAdapter = {
  ecosystem: 'npm',
  async fetchTool(seed, context) {
    const base = trimSlash(context.urls.TOOLDEX_NPM_REGISTRY);
    let manifest: NpmManifest | undefined;
    let published: string | undefined;
    try {
      // One packument per package: its dist-tags name the latest version, whose manifest and publish time we keep.
      const packument = await fetchJson<NpmPackument>(`${base}/${encodeNpmName(seed.name)}`, {
        timeoutMs: context.timeoutMs, maxBytes: 96 * 1024 * 1024,
      });
      const latest = packument['dist-tags']?.latest;
      manifest = latest ? packument.versions?.[latest] : undefined;
      published = latest ? packument.time?.[latest] : undefined;
    } catch (error) {
      if (error instanceof HttpStatusError && error.status === 404) return undefined;
      throw error;
    }
    if (!manifest) return undefined;
    const readme = manifest.dist?.tarball ? await fetchReadme(manifest.dist.tarball, context.timeoutMs) : '';
    const keywords = (Array.isArray(manifest.keywords) ? manifest.keywords : typeof manifest.keywords === 'string' ? manifest.keywords.split(/[,\s]+/) : [])
      .filter((k): k is string => typeof k === 'string').map((k) => k.toLowerCase()).slice(0, 30);
    const description = (manifest.description ?? seed.summary ?? '').trim();
    const typed = Boolean(manifest.types ?? manifest.typings) || seed.name.startsWith('@types/') || keywords.includes('typescript');
    const dependencies = Object.keys({ ...manifest.peerDependencies, ...manifest.dependencies });
    const frameworks = deriveFrameworks({ name: seed.name, description, keywords, dependencies: Object.keys(manifest.peerDependencies ?? {}) });
    const platforms = [manifest.engines?.node || !manifest.browser ? 'Node.js' : undefined, manifest.browser ? 'Browser' : undefined]
      .filter((p): p is string => Boolean(p));
    const repository = cleanUrl(typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url);
    const record: ToolRecord = {
      slug: toSlug('npm', manifest.name ?? seed.name),
      ecosystem: 'npm',
      name: manifest.name ?? seed.name,
      version: manifest.version ?? null,
      description,
      shortDescription: firstSentence(description),
      keywords,
      languages: typed ? ['JavaScript', 'TypeScript'] : ['JavaScript'],
      frameworks: [...new Set([...frameworks, ...platforms])],
      categories: deriveCategories({ name: seed.name, description, keywords }),
      license: typeof manifest.license === 'string' ? manifest.license : manifest.license?.type ?? null,
      homepage: cleanUrl(manifest.homepage),
      repository,
      docsUrl: cleanUrl(manifest.homepage) ?? repository,
      popularity: seedPopularity(seed, context.seedCount),
      downloads: seed.downloads ?? null,
      updatedAt: published ? new Date(published).toISOString() : null,
      extra: {
        types: typed, engines: manifest.engines ?? {}, dependencies: dependencies.length,
        ...(manifest.deprecated ? { deprecated: manifest.deprecated } : {}), ...(manifest.bin ? { bin: true } : {}),
        ...(readme ? { readmeExcerpt: readmeExcerpt(readme) } : {}),
      },
    };
    return record;
  },
};

/** The README inside the published tarball (the registry served here has no readme field in packuments). */
async function fetchReadme(tarball: string, timeoutMs: number): Promise<string> {
  try {
    const bytes = await fetchBytes(tarball, { timeoutMs: timeoutMs * 2, maxBytes: 25 * 1024 * 1024, retries: 1 });
    const texts = await readTarGzTexts(bytes, (path) => /^[^/]+\/readme(\.(md|markdown|txt))?$/i.test(path));
    return [...texts.values()][0] ?? '';
  } catch {
    return ''; // a missing README only costs search text, never the record
  }
}
