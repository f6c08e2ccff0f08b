// PyPI adapter: the project's JSON API (/pypi/<name>/json) — summary, keywords, trove classifiers, URLs,
// python_requires, and the latest release's upload time.
import { deriveCategories, deriveFrameworks } from '../classify.ts';
import { toSlug } from '../slug.ts';
import type { ToolRecord } from '../types.ts';
import { readmeExcerpt } from './archive.ts';
import { fetchJson, HttpStatusError } from './http.ts';
import { cleanUrl, firstSentence, seedPopularity, trimSlash, type RegistryAdapter } from './types.ts';

interface PypiProject {
  info: {
    name: string; version: string; summary?: string | null; description?: string | null; keywords?: string | null; classifiers?: string[];
    license?: string | null; license_expression?: string | null; home_page?: string | null;
    project_urls?: Record<string, string> | null; requires_python?: string | null; docs_url?: string | null;
    yanked?: boolean;
  };
  urls?: Array<{ upload_time_iso_8601?: string }>;
}

function pickUrl(urls: Record<string, string>, patterns: RegExp): string | null {
  for (const [label, url] of Object.entries(urls)) if (patterns.test(label.toLowerCase())) return cleanUrl(url);
  return null;
}

export const pypiAdapter: RegistryAdapter = {
  ecosystem: 'pypi',
  async fetchTool(seed, context) {
    let project: PypiProject;
    try {
      project = await fetchJson<PypiProject>(`${trimSlash(context.urls.TOOLDEX_PYPI_URL)}/pypi/${encodeURIComponent(seed.name)}/json`, {
        timeoutMs: context.timeoutMs, maxBytes: 48 * 1024 * 1024,
      });
    } catch (error) {
      if (error instanceof HttpStatusError && error.status === 404) return undefined;
      throw error;
    }
    const info = project.info;
    const classifiers = info.classifiers ?? [];
    const keywords = (info.keywords ?? '').split(/[,;]\s*|\s+/).map((k) => k.trim().toLowerCase()).filter((k) => k.length > 1).slice(0, 30);
    const topics = classifiers.filter((c) => c.startsWith('Topic :: ')).map((c) => c.split(' :: ').slice(1).join(' ').toLowerCase());
    const description = (info.summary ?? seed.summary ?? '').trim();
    const urls = info.project_urls ?? {};
    const repository = pickUrl(urls, /source|repository|code|github|gitlab/);
    const homepage = cleanUrl(info.home_page) ?? pickUrl(urls, /home/);
    const docs = cleanUrl(info.docs_url) ?? pickUrl(urls, /doc/);
    const implementations = classifiers.filter((c) => c.startsWith('Programming Language :: Python :: Implementation :: '))
      .map((c) => c.split(' :: ').pop() ?? '');
    return {
      slug: toSlug('pypi', info.name ?? seed.name),
      ecosystem: 'pypi',
      name: info.name ?? seed.name,
      version: info.version ?? null,
      description,
      shortDescription: firstSentence(description),
      keywords: [...new Set([...keywords, ...topics])].slice(0, 30),
      languages: ['Python'],
      frameworks: [...new Set([...deriveFrameworks({ name: info.name, description, keywords, classifiers }), ...implementations])],
      categories: deriveCategories({ name: info.name, description, keywords, classifiers: topics }),
      license: info.license_expression ?? (info.license && info.license.length < 60 ? info.license : null) ??
        classifiers.find((c) => c.startsWith('License :: '))?.split(' :: ').pop() ?? null,
      homepage,
      repository,
      docsUrl: docs ?? homepage ?? repository,
      popularity: seedPopularity(seed, context.seedCount),
      downloads: null,
      updatedAt: project.urls?.[0]?.upload_time_iso_8601 ?? null,
      extra: {
        downloadRank: seed.rank, ...(info.requires_python ? { requiresPython: info.requires_python } : {}),
        ...(info.description ? { readmeExcerpt: readmeExcerpt(info.description) } : {}),
      },
    } satisfies ToolRecord;
  },
};
