// The registry adapter interface: one file per ecosystem turns a seed entry into a catalog record.
import type { Config } from '../../config.ts';
import { headOf } from '../../text-cut.ts';
import type { Ecosystem, ToolRecord } from '../types.ts';

/** A name to ingest, with what the seed list knows (popularity figures, a fallback summary). */
export interface SeedEntry {
  name: string;
  version?: string;
  /** Monthly downloads (npm) when the seed list has them. */
  downloads?: number;
  /** 1-based popularity rank within the ecosystem's seed list. */
  rank: number;
  summary?: string;
  /** From an extras list (a well-known name the popularity list misses): its rank says nothing about popularity. */
  extra?: boolean;
}

export interface RegistryContext {
  timeoutMs: number;
  /** Registry base URLs from the config (TOOLDEX_NPM_REGISTRY, TOOLDEX_PYPI_URL, …). */
  urls: Pick<Config, 'TOOLDEX_NPM_REGISTRY' | 'TOOLDEX_PYPI_URL' | 'TOOLDEX_CRATES_INDEX_URL' | 'TOOLDEX_CRATES_DOWNLOAD_URL' | 'TOOLDEX_GOPROXY' | 'TOOLDEX_RUBYGEMS_URL'>;
  /** Size of the seed list, to turn a rank into a 0..1 popularity. */
  seedCount: number;
}

export interface RegistryAdapter {
  ecosystem: Ecosystem;
  /** Fetches current metadata; resolves undefined when the registry does not know the name. */
  fetchTool(seed: SeedEntry, context: RegistryContext): Promise<ToolRecord | undefined>;
}

/** Popularity from a rank: 1 for the first, falling on a log scale to ~0.1 at the end of the list. */
export function popularityFromRank(rank: number, count: number): number {
  return Math.max(0, 1 - Math.log(rank) / Math.log(count * 1.3));
}

/** Popularity from downloads, log-scaled against a ceiling (npm's busiest packages ≈ 2.5e9 a month). */
export function popularityFromDownloads(downloads: number, ceiling = 2.5e9): number {
  if (downloads <= 0) return 0;
  return Math.min(1, Math.log10(downloads) / Math.log10(ceiling));
}

/**
 * A seed's popularity within its ecosystem: from monthly downloads when the list has them, from its rank otherwise;
 * an extra (a well-known name the list misses) gets the ecosystem's median until an ingest measures it.
 */
export function seedPopularity(seed: Pick<SeedEntry, 'downloads' | 'rank' | 'extra'>, seedCount: number): number {
  if (seed.downloads) return popularityFromDownloads(seed.downloads);
  return popularityFromRank(seed.extra ? Math.ceil(seedCount / 2) : seed.rank, seedCount);
}

export function firstSentence(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const sentence = clean.match(/^(.{20,}?[.!?])(\s|$)/)?.[1] ?? clean;
  return sentence.length > max ? `${headOf(sentence, max - 1).trimEnd()}…` : sentence;
}

export const cleanUrl = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const url = value.trim().replace(/^git\+/, '').replace(/^git:\/\//, 'https://').replace(/\.git$/, '')
    .replace(/^git@github\.com:/, 'https://github.com/').replace(/^ssh:\/\/git@/, 'https://');
  return /^https?:\/\//.test(url) ? url : null;
};

export const trimSlash = (url: string) => url.replace(/\/+$/, '');
