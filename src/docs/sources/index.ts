// The registry source of each ecosystem, configured from the one config (base URLs, timeouts, size caps).
import type { Config } from '../../config.ts';
import type { Ecosystem } from '../../catalog/index.ts';
import { cratesSource } from './crates.ts';
import { goSource } from './gomod.ts';
import { npmSource } from './npm.ts';
import { pypiSource } from './pypi.ts';
import { rubygemsSource } from './rubygems.ts';
import type { RegistrySource, SourceSettings } from './types.ts';

const METADATA_MAX_BYTES = 64 * 1024 * 1024;

export function sourceFor(config: Config, ecosystem: Ecosystem): RegistrySource {
  const base = (baseUrl: string): SourceSettings => ({
    baseUrl,
    limits: { timeoutMs: config.TOOLDEX_FETCH_TIMEOUT_MS, maxBytes: METADATA_MAX_BYTES },
    artifactLimits: { timeoutMs: config.TOOLDEX_FETCH_TIMEOUT_MS, maxBytes: config.TOOLDEX_DOCS_MAX_ARTIFACT_MB * 1024 * 1024 },
  });
  switch (ecosystem) {
    case 'npm': return npmSource(base(config.TOOLDEX_NPM_REGISTRY));
    case 'pypi': return pypiSource(base(config.TOOLDEX_PYPI_URL));
    case 'crates': return cratesSource({ ...base(config.TOOLDEX_CRATES_URL), indexUrl: config.TOOLDEX_CRATES_INDEX_URL, downloadUrl: config.TOOLDEX_CRATES_DOWNLOAD_URL });
    case 'go': return goSource(base(config.TOOLDEX_GOPROXY));
    case 'rubygems': return rubygemsSource(base(config.TOOLDEX_RUBYGEMS_URL));
  }
}
