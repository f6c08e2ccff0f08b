// Which files of a Go package its documentation is made of, the way pkg.go.dev decides: the files that build for one
// platform, by Go's own rules (file-name suffixes `_GOOS`, `_GOARCH`, `_GOOS_GOARCH`, and `//go:build` constraints,
// https://pkg.go.dev/cmd/go#hdr-Build_constraints). A package shows linux/amd64 when it builds there, else the first of
// windows/amd64, darwin/amd64, js/wasm that it builds for. Without this, golang.org/x/sys documents every constant of
// 40 platforms (hundreds of generated files) and takes minutes to index.

const GOOS = new Set(['aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'js', 'linux', 'nacl',
  'netbsd', 'openbsd', 'plan9', 'solaris', 'wasip1', 'windows', 'zos']);
const GOARCH = new Set(['386', 'amd64', 'amd64p32', 'arm', 'armbe', 'arm64', 'arm64be', 'loong64', 'mips', 'mipsle', 'mips64',
  'mips64le', 'mips64p32', 'mips64p32le', 'ppc', 'ppc64', 'ppc64le', 'riscv', 'riscv64', 's390', 's390x', 'sparc', 'sparc64', 'wasm']);
const UNIX = new Set(['aix', 'android', 'darwin', 'dragonfly', 'freebsd', 'hurd', 'illumos', 'ios', 'linux', 'netbsd', 'openbsd', 'solaris']);

export interface Platform { goos: string; goarch: string }

/** pkg.go.dev's order: the first platform a package builds for is the one its documentation shows. */
export const DOC_PLATFORMS: Platform[] = [
  { goos: 'linux', goarch: 'amd64' }, { goos: 'windows', goarch: 'amd64' }, { goos: 'darwin', goarch: 'amd64' }, { goos: 'js', goarch: 'wasm' },
];

/** Whether a build tag holds on a platform (release tags `go1.N` hold; cgo and custom tags such as `ignore` do not). */
function tagHolds(tag: string, { goos, goarch }: Platform): boolean {
  if (tag === goos || tag === goarch) return true;
  if (tag === 'unix') return UNIX.has(goos);
  if (tag === 'linux') return goos === 'android';
  if (tag === 'darwin') return goos === 'ios';
  if (tag === 'solaris') return goos === 'illumos';
  return tag === 'gc' || /^go1(\.\d+)?$/.test(tag);
}

/** Evaluates a `//go:build` expression: tags, `!`, `&&`, `||`, parentheses. An expression it cannot read holds. */
export function constraintHolds(expression: string, platform: Platform): boolean {
  const tokens = expression.match(/&&|\|\||!|\(|\)|[\w.]+/g) ?? [];
  let at = 0;
  const or = (): boolean => {
    let value = and();
    while (tokens[at] === '||') { at++; value = and() || value; }
    return value;
  };
  const and = (): boolean => {
    let value = unary();
    while (tokens[at] === '&&') { at++; value = unary() && value; }
    return value;
  };
  const unary = (): boolean => {
    const token = tokens[at++];
    if (token === '!') return !unary();
    if (token === '(') {
      const value = or();
      if (tokens[at] === ')') at++;
      return value;
    }
    return token !== undefined && tagHolds(token, platform);
  };
  const value = or();
  return at === tokens.length ? value : true;
}

/** The `//go:build` line of a file, if it has one before its package clause. */
function buildLine(text: string): string | undefined {
  for (const line of text.slice(0, 4000).split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('//go:build ')) return trimmed.slice('//go:build '.length);
    if (trimmed.startsWith('package ')) return undefined;
  }
  return undefined;
}

/** Whether a .go file (its path and text) is part of the package on a platform, by name and by constraint. */
export function buildsFor(file: string, text: string, platform: Platform): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1).replace(/\.go$/, '').replace(/_test$/, '');
  if (/^[._]/.test(base)) return false;
  const parts = base.split('_');
  const last = parts.at(-1)!, before = parts.at(-2);
  if (parts.length > 2 && before && GOOS.has(before) && GOARCH.has(last)) {
    if (!tagHolds(before, platform) || !tagHolds(last, platform)) return false;
  } else if (parts.length > 1 && (GOOS.has(last) || GOARCH.has(last))) {
    if (!tagHolds(last, platform)) return false;
  }
  const constraint = buildLine(text);
  return constraint === undefined || constraintHolds(constraint, platform);
}

/**
 * The files of each package directory that its documentation is made of: those building for the first platform of
 * DOC_PLATFORMS that any of them builds for (all of them when none does, so nothing documented disappears).
 */
export function documentedFiles(files: Array<[string, string]>): Array<[string, string]> {
  const byDir = new Map<string, Array<[string, string]>>();
  for (const entry of files) {
    const dir = entry[0].includes('/') ? entry[0].slice(0, entry[0].lastIndexOf('/')) : '';
    byDir.set(dir, [...(byDir.get(dir) ?? []), entry]);
  }
  const kept: Array<[string, string]> = [];
  for (const entries of byDir.values()) {
    const platform = DOC_PLATFORMS.find((p) => entries.some(([file, text]) => buildsFor(file, text, p)));
    kept.push(...(platform ? entries.filter(([file, text]) => buildsFor(file, text, platform)) : entries));
  }
  return kept;
}
