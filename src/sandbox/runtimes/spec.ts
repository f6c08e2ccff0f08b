// Package spec checks shared by the runtime adapters: a registry name and an optional version, nothing else
// (no URLs, paths, git refs or installer flags, which could redirect an install away from the registry).
import { invalidInput } from '../../errors.ts';

export function badPackage(raw: string, runtime: string, example: string): never {
  throw invalidInput('invalid_package',
    `Package "${raw.slice(0, 100)}" is not a plain ${runtime} registry package (name with an optional version, e.g. ${example}).`,
    { field: 'packages' });
}

/** Version text: digits, letters, dots, ranges and operators; never a path, URL or flag. */
export const VERSION = /^[0-9A-Za-z.*^~<>=!|+_, -]{1,64}$/;

/**
 * Endings of package files an installer would take from its working folder instead of the registry (pip's archive
 * extensions, gem files, npm tarballs, eggs, crates, jars). A spec whose name ends so is a local file, refused like
 * the other path forms — whether or not such a file exists where the installer runs.
 */
export const LOCAL_FILE_ENDINGS = ['.whl', '.gem', '.tgz', '.tar', '.tar.gz', '.tar.bz2', '.tbz', '.tar.xz', '.txz', '.tlz',
  '.tar.lz', '.tar.lzma', '.zip', '.egg', '.crate', '.jar'] as const;

/** Throws 422 invalid_package when the spec, or its name part, names a local package file. */
export function refuseLocalFile(raw: string, name: string, runtime: string): void {
  const local = [raw, name].map((text) => text.toLowerCase()).find((text) => LOCAL_FILE_ENDINGS.some((ending) => text.endsWith(ending)));
  if (local === undefined) return;
  throw invalidInput('invalid_package',
    `Package "${raw.slice(0, 100)}" names a local file (${LOCAL_FILE_ENDINGS.find((ending) => local.endsWith(ending))}); only ${runtime} registry packages are installed (a name with an optional version).`,
    { field: 'packages' });
}
