// Registry popularity where a registry publishes it: npm's downloads API (monthly counts, 128 unscoped names per
// request) and crates.io's API (all-time and recent downloads, and a download-ranked list to discover names).
// Each returns nothing when the API cannot be reached, and the ingest keeps the shipped lists' figures.
import type { Logger } from '../../log.ts';
import type { SeedEntry } from './types.ts';
import { fetchJson } from './http.ts';
import { trimSlash } from './types.ts';

export interface PopularityUrls {
  TOOLDEX_NPM_DOWNLOADS_URL: string;
  TOOLDEX_CRATES_URL: string;
  TOOLDEX_FETCH_TIMEOUT_MS: number;
}

const NPM_BULK = 128;
const CRATES_PAGE = 100;

/** Monthly downloads of npm packages by name (unscoped names only: the bulk endpoint does not take scopes). */
export async function npmMonthlyDownloads(names: string[], urls: PopularityUrls, logger: Logger): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const unscoped = names.filter((name) => !name.startsWith('@'));
  for (let i = 0; i < unscoped.length; i += NPM_BULK) {
    const batch = unscoped.slice(i, i + NPM_BULK);
    try {
      const body = await fetchJson<Record<string, { downloads?: number } | null>>(
        `${trimSlash(urls.TOOLDEX_NPM_DOWNLOADS_URL)}/downloads/point/last-month/${batch.map(encodeURIComponent).join(',')}`,
        { timeoutMs: urls.TOOLDEX_FETCH_TIMEOUT_MS, retries: 1 });
      // One name answers with the object itself; several with a map of name → object.
      if (batch.length === 1 && typeof body.downloads === 'number') out.set(batch[0]!, body.downloads);
      else for (const [name, entry] of Object.entries(body)) if (entry && typeof entry.downloads === 'number') out.set(name, entry.downloads);
    } catch (error) {
      logger.info({ err: (error as Error).message }, 'npm downloads API unreachable; keeping the shipped monthly downloads');
      return out;
    }
  }
  return out;
}

interface CratesPage { crates?: Array<{ id: string; downloads?: number; recent_downloads?: number | null; description?: string | null }> }

/** Recent (90-day) downloads of crates by name, from crates.io's API. */
export async function cratesRecentDownloads(names: string[], urls: PopularityUrls, logger: Logger): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < names.length; i += CRATES_PAGE) {
    const ids = names.slice(i, i + CRATES_PAGE).map((name) => `ids[]=${encodeURIComponent(name)}`).join('&');
    try {
      const page = await fetchJson<CratesPage>(`${trimSlash(urls.TOOLDEX_CRATES_URL)}/api/v1/crates?per_page=${CRATES_PAGE}&${ids}`,
        { timeoutMs: urls.TOOLDEX_FETCH_TIMEOUT_MS, retries: 1 });
      for (const krate of page.crates ?? []) out.set(krate.id, krate.recent_downloads ?? krate.downloads ?? 0);
    } catch (error) {
      logger.info({ err: (error as Error).message }, 'crates.io API unreachable; keeping the shipped list order');
      return out;
    }
  }
  return out;
}

/** The most downloaded crates (crates.io's own ranking), as seed entries with their descriptions. */
export async function discoverCrates(count: number, urls: PopularityUrls, logger: Logger): Promise<SeedEntry[]> {
  const found: SeedEntry[] = [];
  for (let page = 1; found.length < count; page++) {
    try {
      const body = await fetchJson<CratesPage>(`${trimSlash(urls.TOOLDEX_CRATES_URL)}/api/v1/crates?sort=downloads&per_page=${CRATES_PAGE}&page=${page}`,
        { timeoutMs: urls.TOOLDEX_FETCH_TIMEOUT_MS, retries: 1 });
      const crates = body.crates ?? [];
      for (const krate of crates) {
        found.push({ name: krate.id, rank: found.length + 1, summary: krate.description ?? undefined, downloads: krate.recent_downloads ?? undefined });
      }
      if (crates.length < CRATES_PAGE) break;
    } catch (error) {
      logger.info({ err: (error as Error).message }, 'crates.io API unreachable; using the shipped crate list');
      break;
    }
  }
  return found.slice(0, count);
}
