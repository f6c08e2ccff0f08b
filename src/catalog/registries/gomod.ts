// Go module adapter: the module proxy's version list, .info (publish time), .mod (go version) and the
// module zip's README for a description (the proxy has no descriptions of its own).
import semver from 'semver';
import { deriveCategories, deriveFrameworks } from '../classify.ts';
import { toSlug } from '../slug.ts';
import type { ToolRecord } from '../types.ts';
import { goPackageDoc, licenseFromText, readZipTexts, readmeExcerpt, readmeSummary } from './archive.ts';
import { fetchBytes, fetchJson, fetchText, HttpStatusError } from './http.ts';
import { firstSentence, seedPopularity, trimSlash, type RegistryAdapter } from './types.ts';

/** The proxy's case encoding: every upper-case letter becomes "!" + its lower-case form. */
export const escapeModulePath = (path: string) => path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

export function latestGoVersion(versions: string[]): string | undefined {
  const valid = versions.filter((v) => semver.valid(v));
  const releases = valid.filter((v) => !semver.prerelease(v));
  return (releases.length ? releases : valid).sort(semver.rcompare)[0];
}

export const goAdapter: RegistryAdapter = {
  ecosystem: 'go',
  async fetchTool(seed, context) {
    const base = `${trimSlash(context.urls.TOOLDEX_GOPROXY)}/${escapeModulePath(seed.name)}/@v`;
    let version: string | undefined;
    try {
      version = latestGoVersion((await fetchText(`${base}/list`, { timeoutMs: context.timeoutMs })).split('\n').filter(Boolean));
      version ??= (await fetchJson<{ Version: string }>(`${base.slice(0, -3)}/@latest`, { timeoutMs: context.timeoutMs })).Version;
    } catch (error) {
      if (error instanceof HttpStatusError && (error.status === 404 || error.status === 410)) return undefined;
      throw error;
    }
    const [info, mod, zip] = await Promise.all([
      fetchJson<{ Time?: string }>(`${base}/${version}.info`, { timeoutMs: context.timeoutMs }),
      fetchText(`${base}/${version}.mod`, { timeoutMs: context.timeoutMs }),
      fetchBytes(`${base}/${version}.zip`, { timeoutMs: context.timeoutMs * 4, maxBytes: 60 * 1024 * 1024 }).catch(() => undefined),
    ]);
    const prefix = `${seed.name}@${version}/`;
    // Root files only: the README and the root package's .go files (for its "// Package x …" comment).
    const isRootFile = (path: string) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/');
    const texts = zip ? readZipTexts(zip, (path) => isRootFile(path) && (/(readme(\.md)?|licen[cs]e(\.md|\.txt)?)$/i.test(path) || (path.endsWith('.go') && !path.endsWith('_test.go')))) : new Map<string, string>();
    const readme = [...texts.entries()].find(([path]) => /readme/i.test(path))?.[1] ?? '';
    const licenseText = [...texts.entries()].find(([path]) => /licen[cs]e/i.test(path))?.[1];
    const packageDoc = [...texts.entries()].filter(([path]) => path.endsWith('.go'))
      .sort(([a], [b]) => Number(b.endsWith('/doc.go')) - Number(a.endsWith('/doc.go')))
      .map(([, source]) => goPackageDoc(source)).find(Boolean);
    const description = packageDoc || readmeSummary(readme) || seed.summary || '';
    const goVersion = mod.match(/^go\s+(\S+)/m)?.[1];
    const repository = seed.name.startsWith('github.com/') ? `https://${seed.name.split('/').slice(0, 3).join('/')}` : null;
    return {
      slug: toSlug('go', seed.name),
      ecosystem: 'go',
      name: seed.name,
      version,
      description,
      shortDescription: firstSentence(description),
      keywords: [],
      languages: ['Go'],
      frameworks: deriveFrameworks({ name: seed.name, description, keywords: [] }),
      categories: deriveCategories({ name: seed.name, description, keywords: [] }),
      license: licenseText ? licenseFromText(licenseText) : null,
      homepage: null,
      repository,
      docsUrl: `https://pkg.go.dev/${seed.name}`,
      popularity: seedPopularity(seed, context.seedCount),
      downloads: null,
      updatedAt: info.Time ? new Date(info.Time).toISOString() : null,
      extra: { ...(goVersion ? { goVersion } : {}), ...(readme ? { readmeExcerpt: readmeExcerpt(readme) } : {}) },
    } satisfies ToolRecord;
  },
};
