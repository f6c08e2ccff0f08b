// Shapes of the catalog capability: what the store holds per tool and what search returns.

export const ECOSYSTEMS = ['npm', 'pypi', 'crates', 'go', 'rubygems'] as const;
export type Ecosystem = (typeof ECOSYSTEMS)[number];

/** One tool as the catalog stores it (system of record: the `tools` table). */
export interface ToolRecord {
  slug: string;
  ecosystem: Ecosystem;
  name: string;
  version: string | null;
  description: string;
  shortDescription: string;
  keywords: string[];
  languages: string[];
  frameworks: string[];
  categories: string[];
  license: string | null;
  homepage: string | null;
  repository: string | null;
  docsUrl: string | null;
  /** 0..1 within its ecosystem, from downloads or download rank (log scale). */
  popularity: number;
  downloads: number | null;
  updatedAt: string | null;
  extra: Record<string, unknown>;
}

/** One element of `results` from GET /tools/search: the seed's fields first, then extras. */
export interface ToolResult {
  id: string;
  name: string;
  description: string;
  shortDescription: string;
  languages: string[];
  frameworks: string[];
  categories: string[];
  slug: string;
  updatedAt: string | null;
  image: string;
  ecosystem: Ecosystem;
  version: string | null;
  license: string | null;
  popularity: number;
  install: string;
  docsUrl: string | null;
  registryUrl: string;
  score: number;
}

export interface SearchOptions {
  limit?: number;
  language?: string;
  ecosystem?: Ecosystem;
  category?: string;
  /** false: rank by the full-text score and signals only, without the semantic layer. */
  semantic?: boolean;
}
