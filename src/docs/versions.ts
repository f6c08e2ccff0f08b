// resolveVersion: turns what a client wrote after `@` (exact, range such as `3` or `^1.2`, or a tag such as
// `latest`) into one published version, or 404 version_not_found naming the most recent versions.
import semver from 'semver';
import { ToolDexError } from '../errors.ts';
import type { Releases } from './sources/types.ts';

/** Newest first, stable releases before prereleases (a canary train would otherwise hide every release). */
export function recentVersions(versions: string[], count = 10): string[] {
  const valid = versions.filter((v) => semver.valid(v, { loose: true }));
  if (!valid.length) return [...versions].reverse().slice(0, count);
  const sorted = [...valid].sort((a, b) => semver.rcompare(a, b, true));
  const stable = sorted.filter((v) => !semver.prerelease(v, { loose: true }));
  return [...stable, ...sorted.filter((v) => semver.prerelease(v, { loose: true }))].slice(0, count);
}

export function resolveVersion(releases: Releases, spec: string | undefined, toolName: string): string {
  if (!spec || spec === 'latest') return releases.latest;
  const tagged = releases.tags[spec];
  if (tagged) return tagged;
  const wanted = spec.replace(/^v(?=\d)/, '');
  const exact = releases.versions.find((v) => v === spec || v === wanted || v === `v${wanted}`);
  if (exact) return exact;
  const range = semver.validRange(wanted, { loose: true });
  if (range) {
    const candidates = releases.versions.filter((v) => semver.valid(v, { loose: true }));
    // Prereleases only when the client asked for one, as npm does.
    const best = semver.maxSatisfying(candidates, range, { loose: true, includePrerelease: /-/.test(wanted) });
    if (best) return best;
  }
  // Non-semver schemes (PyPI's 2024.1.post1): a prefix match on whole components.
  const prefixed = releases.versions.filter((v) => v.startsWith(`${wanted}.`));
  if (prefixed.length) return recentVersions(prefixed, 1)[0] ?? prefixed[prefixed.length - 1]!;
  const recent = recentVersions(releases.versions);
  throw new ToolDexError('version_not_found', 404,
    `${toolName} has no published version matching "${spec}". Recent versions: ${recent.join(', ')}.`, { versions: recent });
}
