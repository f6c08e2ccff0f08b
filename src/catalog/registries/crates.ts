// crates.io adapter: the sparse index names the newest version; the .crate archive's Cargo.toml gives
// description, keywords, categories, links and MSRV. (crates.io's JSON API is not used: it is often unreachable.)
import { parse as parseToml } from 'smol-toml';
import { deriveCategories, deriveFrameworks } from '../classify.ts';
import { toSlug } from '../slug.ts';
import type { ToolRecord } from '../types.ts';
import { readTarGzTexts, readmeExcerpt, readmeSummary } from './archive.ts';
import { fetchBytes, fetchText, HttpStatusError } from './http.ts';
import { cleanUrl, firstSentence, seedPopularity, trimSlash, type RegistryAdapter } from './types.ts';

/** Sparse index path: 1/a, 2/ab, 3/a/abc, se/rd/serde. */
export function crateIndexPath(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length <= 2) return `${lower.length}/${lower}`;
  if (lower.length === 3) return `3/${lower[0]}/${lower}`;
  return `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
}

interface IndexLine { name: string; vers: string; yanked: boolean }

export async function crateVersions(indexUrl: string, name: string, timeoutMs: number): Promise<IndexLine[]> {
  const text = await fetchText(`${trimSlash(indexUrl)}/${crateIndexPath(name)}`, { timeoutMs });
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as IndexLine);
}

interface CargoPackage {
  name?: string; description?: string; keywords?: string[]; categories?: string[]; license?: string;
  homepage?: string; repository?: string; documentation?: string; 'rust-version'?: string; edition?: string;
}

export const cratesAdapter: RegistryAdapter = {
  ecosystem: 'crates',
  async fetchTool(seed, context) {
    let lines: IndexLine[];
    try {
      lines = await crateVersions(context.urls.TOOLDEX_CRATES_INDEX_URL, seed.name, context.timeoutMs);
    } catch (error) {
      if (error instanceof HttpStatusError && error.status === 404) return undefined;
      throw error;
    }
    const stable = lines.filter((line) => !line.yanked && !line.vers.includes('-'));
    const latest = (stable.length ? stable : lines.filter((line) => !line.yanked)).at(-1);
    if (!latest) return undefined;
    const name = latest.name;
    const bytes = await fetchBytes(`${trimSlash(context.urls.TOOLDEX_CRATES_DOWNLOAD_URL)}/${name}/${name}-${latest.vers}.crate`, {
      timeoutMs: context.timeoutMs, maxBytes: 30 * 1024 * 1024,
    });
    const root = `${name}-${latest.vers}/`;
    const texts = await readTarGzTexts(bytes, (path) => path === `${root}Cargo.toml` || /^[^/]+\/readme(\.md)?$/i.test(path));
    const manifest = parseToml(texts.get(`${root}Cargo.toml`) ?? '') as { package?: CargoPackage };
    const pkg = manifest.package ?? {};
    const readme = [...texts.entries()].find(([path]) => /readme/i.test(path))?.[1];
    const description = (pkg.description ?? (readme ? readmeSummary(readme) : '') ?? '').replace(/\s+/g, ' ').trim();
    const keywords = (pkg.keywords ?? []).map((k) => k.toLowerCase());
    const crateCategories = (pkg.categories ?? []).map((c) => c.replace(/::/g, ' '));
    return {
      slug: toSlug('crates', name),
      ecosystem: 'crates',
      name,
      version: latest.vers,
      description,
      shortDescription: firstSentence(description),
      keywords: [...new Set([...keywords, ...crateCategories])],
      languages: ['Rust'],
      frameworks: deriveFrameworks({ name, description, keywords: [...keywords, ...crateCategories] }),
      categories: deriveCategories({ name, description, keywords, classifiers: crateCategories }),
      license: pkg.license ?? null,
      homepage: cleanUrl(pkg.homepage),
      repository: cleanUrl(pkg.repository),
      docsUrl: cleanUrl(pkg.documentation) ?? `https://docs.rs/${name}/${latest.vers}`,
      popularity: seedPopularity(seed, context.seedCount),
      downloads: null,
      updatedAt: null, // neither the sparse index nor the .crate carries a publish time
      extra: {
        ...(pkg['rust-version'] ? { msrv: pkg['rust-version'] } : {}), ...(pkg.edition ? { edition: pkg.edition } : {}),
        ...(readme ? { readmeExcerpt: readmeExcerpt(readme) } : {}),
      },
    } satisfies ToolRecord;
  },
};
