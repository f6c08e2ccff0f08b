// Which version of a PyPI package the sandbox's Python can install: the asked version when its Requires-Python and
// wheels allow it, else the newest release that does (said in a note). PEP 440 specifiers, evaluated for real.
import type { Config } from '../config.ts';
import { fetchJson } from '../docs/fetch.ts';

interface ReleaseFile { packagetype: string; filename: string; requires_python?: string | null; yanked?: boolean }
interface PypiProject { releases?: Record<string, ReleaseFile[]> }

type Version = number[];

function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+(?:\.\d+)*)/.exec(text.trim());
  return match ? match[1]!.split('.').map(Number) : undefined;
}

const isPrerelease = (text: string) => /(a|b|rc|dev|alpha|beta|pre)\d*/i.test(text.replace(/^v?\d+(\.\d+)*/, '').replace(/^\.post\d+$/, ''));

function compare(a: Version, b: Version): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/** Whether `version` (e.g. 3.11.7) satisfies a PEP 440 specifier set such as ">=3.8, !=3.0.*, <4". */
export function satisfies(version: string, specifiers: string | null | undefined): boolean {
  if (!specifiers?.trim()) return true;
  const have = parseVersion(version);
  if (!have) return true;
  return specifiers.split(',').map((s) => s.trim()).filter(Boolean).every((clause) => {
    const match = /^(~=|===|==|!=|<=|>=|<|>)\s*([0-9][0-9A-Za-z.*+!-]*)$/.exec(clause);
    if (!match) return true; // an unreadable clause is left to pip
    const [, op, raw = ''] = match;
    const wildcard = raw.endsWith('.*');
    const want = parseVersion(raw.replace(/\.\*$/, ''));
    if (!want) return true;
    const prefix = have.slice(0, want.length);
    switch (op) {
      case '==': case '===': return wildcard ? compare(prefix, want) === 0 : compare(have, want) === 0;
      case '!=': return wildcard ? compare(prefix, want) !== 0 : compare(have, want) !== 0;
      case '>=': return compare(have, want) >= 0;
      case '<=': return compare(have, want) <= 0;
      case '>': return compare(have, want) > 0;
      case '<': return compare(have, want) < 0;
      case '~=': return compare(have, want) >= 0 && compare(have.slice(0, want.length - 1), want.slice(0, -1)) === 0;
      default: return true;
    }
  });
}

/** Whether a wheel's tags (PEP 427 file name) install on CPython `major.minor` on x86-64 Linux (glibc). */
export function wheelFits(filename: string, python: string): boolean {
  const parts = filename.replace(/\.whl$/, '').split('-');
  if (parts.length < 5) return false;
  const [pyTags = '', abiTags = '', platTags = ''] = parts.slice(-3);
  const [major = '3', minor = '0'] = python.split('.');
  const cp = `cp${major}${minor}`;
  const py = pyTags.split('.').some((t) => t === cp || t === `py${major}` || t === `py${major}${minor}` || (t.startsWith(`cp${major}`) && abiTags.includes('abi3') && Number(t.slice(3)) <= Number(`${minor}`)));
  const abi = abiTags.split('.').some((t) => t === 'none' || t === 'abi3' || t === cp);
  const plat = platTags.split('.').some((t) => t === 'any' || (/^(manylinux|linux)/.test(t) && t.endsWith('x86_64')));
  return py && abi && plat;
}

function installable(files: ReleaseFile[], python: string): boolean {
  const live = files.filter((f) => !f.yanked);
  if (!live.length || !live.every((f) => satisfies(python, f.requires_python))) return false;
  const wheels = live.filter((f) => f.packagetype === 'bdist_wheel');
  return wheels.length === 0 || wheels.some((f) => wheelFits(f.filename, python));
}

/** The version to pin for `python` (the sandbox's version, e.g. 3.11.7), with a note when it is not `asked`. */
export async function pythonPin(config: Config, name: string, asked: string, python: string | undefined): Promise<{ version: string; note?: string }> {
  if (!python) return { version: asked };
  const base = config.TOOLDEX_PYPI_URL.replace(/\/$/, '');
  const project = await fetchJson<PypiProject>(`${base}/pypi/${encodeURIComponent(name)}/json`, { timeoutMs: config.TOOLDEX_FETCH_TIMEOUT_MS, maxBytes: 64 * 1024 * 1024 })
    .catch(() => undefined);
  const releases = project?.releases;
  if (!releases?.[asked] || installable(releases[asked]!, python)) return { version: asked };
  const askedVersion = parseVersion(asked) ?? [];
  const fits = Object.entries(releases)
    .filter(([v, files]) => !isPrerelease(v) && parseVersion(v) && compare(parseVersion(v)!, askedVersion) <= 0 && installable(files, python))
    .sort(([a], [b]) => compare(parseVersion(b)!, parseVersion(a)!));
  const chosen = fits[0]?.[0];
  if (!chosen) return { version: asked };
  const needs = releases[asked]!.find((f) => f.requires_python && !satisfies(python, f.requires_python))?.requires_python;
  return {
    version: chosen,
    note: `${name} ${asked} ${needs ? `needs Python ${needs}` : `has no wheel for Python ${python}`}; the sandbox has Python ${python}, so the quickstart was verified on ${chosen}, the newest release it can install.`,
  };
}
