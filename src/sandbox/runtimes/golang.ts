// golang: modules fetched by `go get` into a service-owned module in /deps (a fetch step: module proxy only, checksums
// against go.sum and the public checksum database, no VCS, no cgo); the build is a run step on the session's files with
// the shared caches seen through an overlay; the binary then runs.
import fs from 'node:fs';
import path from 'node:path';
import { descendants, withSyntaxTree } from '../../quickstart/parse.ts';
import { layerKey } from '../layers.ts';
import { badPackage } from './spec.ts';
import { BASE_PATH, BUILD, CACHE, DEPS, FETCH_BASE_ENV, shq, sourceNetwork, type CompileStep, type LockedPin, type RuntimeAdapter, type RuntimeContext } from './types.ts';

const MODULE = /^[a-z0-9][a-z0-9.-]*\.[a-z]{2,}(\/[A-Za-z0-9._~-]+)*$/;
const GO_VERSION = /^(latest|upgrade|patch|none|v[0-9][0-9A-Za-z.+-]{0,60}|[0-9a-f]{7,40})$/;
const GOMOD = `${DEPS}/gomod`;
/** The build's flags: one compile at a time (the step has one core; a big generated package never shares the memory limit). */
const BUILD_GOFLAGS = '-mod=mod -buildvcs=false -p=1';
/** An import path as `go build` takes it: no flag, no pattern (`...`), no relative, absolute or `..` path. */
const IMPORT_PATH = /^[A-Za-z0-9][A-Za-z0-9._~+-]*(\/[A-Za-z0-9_~+-][A-Za-z0-9._~+-]*)*$/;
const MAX_SHARED_PACKAGES = 200;

/** Import paths of the .go files sent (tree-sitter's Go grammar: every import spec, aliased, blank or dotted). */
async function importPaths(files: Array<{ path: string; code: string }>): Promise<string[]> {
  const paths = new Set<string>();
  for (const file of files.filter((candidate) => candidate.path.endsWith('.go'))) {
    // Freed at once: this runs on every Go call a stranger sends.
    await withSyntaxTree('go', file.code, (root) => {
      for (const spec of descendants(root, 'import_spec')) {
        const literal = spec.childForFieldName('path')?.text;
        if (literal) paths.add(literal.replace(/^["`]|["`]$/g, ''));
      }
    });
  }
  return [...paths];
}

/** Standard-library packages compiled into the shared build cache once (what most snippets import, and their deps). */
const STD_WARM = ['fmt', 'os', 'strings', 'strconv', 'time', 'sort', 'errors', 'bytes', 'bufio', 'io', 'math', 'math/rand',
  'encoding/json', 'encoding/base64', 'encoding/hex', 'net/url', 'context', 'sync', 'regexp', 'path/filepath', 'flag', 'log',
  'crypto/sha256', 'crypto/rand', 'slices', 'maps', 'unicode/utf8'];

/**
 * The module policy of every go step: the proxy only (never `direct`, so no VCS runs), every module checked against the
 * public checksum database (nothing exempt), the operator's toolchain only, no go.work, no go env file, no cgo.
 */
function goEnv(ctx: RuntimeContext): Record<string, string> {
  const goroot = ctx.toolchain.paths.goroot ?? '/usr/local/go';
  return {
    PATH: `${goroot}/bin:${BASE_PATH}`, GOROOT: goroot, GOMODCACHE: `${CACHE}/mod`, GOCACHE: `${CACHE}/build`,
    GOPROXY: ctx.source.url, GOSUMDB: 'sum.golang.org', GONOSUMDB: '', GONOPROXY: '', GOPRIVATE: '', GOINSECURE: '',
    GOVCS: '*:off', GOTOOLCHAIN: 'local', GOTELEMETRY: 'off', GOENV: 'off', GOWORK: 'off', CGO_ENABLED: '0',
    GOFLAGS: '-mod=mod -buildvcs=false',
  };
}

/**
 * The compile step of a layer: a copy of the fetch-written module in the private /tmp (go may tidy go.mod/go.sum), built
 * with the proxy off: everything comes from the module cache the fetch step filled; the binaries are discarded, the
 * cache keeps the packages. With no packages, it is the step's recipe (what the layer key hashes).
 */
export function compileStep(ctx: RuntimeContext, packages: string[]): CompileStep {
  return {
    kind: 'compile', name: 'compile',
    script: `cp -r ${GOMOD} /tmp/graph && cd /tmp/graph && exec go build ${packages.map(shq).join(' ')}`,
    env: { ...goEnv(ctx), GOPROXY: 'off', GOFLAGS: BUILD_GOFLAGS, GOPATH: '/tmp/gopath', HOME: '/tmp' },
  };
}

export const golangRuntime: RuntimeAdapter = {
  runtime: 'golang',
  parsePackage(raw) {
    const at = raw.indexOf('@');
    const name = at === -1 ? raw : raw.slice(0, at);
    const version = at === -1 ? undefined : raw.slice(at + 1);
    if (!MODULE.test(name) || (version !== undefined && !GO_VERSION.test(version))) badPackage(raw, 'Go module', 'github.com/google/uuid@v1.6.0');
    return { name: name.toLowerCase(), spec: raw };
  },
  prepare(ctx) {
    const version = (ctx.toolchain.version ?? 'go').replace(/[^A-Za-z0-9.]/g, '_');
    return {
      marker: `.tooldex-std-${version}`,
      step: {
        kind: 'fetch', name: 'prepare',
        // Compiles only the operator's own standard library: no session or package source is involved.
        script: `exec go build ${STD_WARM.join(' ')}`,
        env: { ...FETCH_BASE_ENV, ...goEnv(ctx), GOPATH: '/tmp/gopath' }, network: sourceNetwork(ctx),
      },
    };
  },
  install(ctx, plan) {
    return {
      first: {
        kind: 'fetch', name: 'install',
        script: `mkdir -p ${GOMOD} && cd ${GOMOD} && { [ -f go.mod ] || go mod init sandbox >/dev/null 2>&1; } && ` +
          `go get ${plan.changed.map((p) => shq(p.spec)).join(' ')} && go mod edit -json > requires.json`,
        env: { ...FETCH_BASE_ENV, ...goEnv(ctx), GOPATH: '/tmp/gopath' }, network: sourceNetwork(ctx),
      },
    };
  },
  refetch(ctx) {
    return {
      kind: 'fetch', name: 'install',
      // The graph the session's go.mod already records (nothing resolved anew): the modules back into the emptied cache.
      script: `cd ${GOMOD} && exec go mod download`,
      env: { ...FETCH_BASE_ENV, ...goEnv(ctx), GOPATH: '/tmp/gopath' }, network: sourceNetwork(ctx),
    };
  },
  locked(depsDir) {
    const file = path.join(depsDir, 'gomod', 'requires.json');
    if (!fs.existsSync(file)) return [];
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { Require?: Array<{ Path: string; Version: string; Indirect?: boolean }> | null };
    // Every module of the graph `go get` resolved, not only those it marks direct: in a module with no source yet, `go
    // get x@v1.2.0` records x itself as `// indirect`, so a direct-only list dropped the pin and the build resolved x
    // to its latest version instead (consul/api pinned to v1.34.5 built v1.35.0, which needs a newer Go).
    return (parsed.Require ?? []).map((r) => ({ name: r.Path, version: r.Version }));
  },
  build(ctx, entry, locked: LockedPin[]) {
    const dir = path.posix.dirname(entry);
    const requires = locked.map((pin) => shq(`-require=${pin.name}@${pin.version}`)).join(' ');
    return {
      kind: 'run', name: 'build',
      // The session's exact pins go into its own go.mod (a go.mod it sent is kept); go.sum gains the fetch's checksums.
      script: `{ [ -f go.mod ] || go mod init sandbox >/dev/null 2>&1; } && ` +
        (locked.length ? `go mod edit ${requires} && sort -u -o go.sum ${GOMOD}/go.sum $( [ -f go.sum ] && echo go.sum ) && ` : '') +
        `mkdir -p ${BUILD}/bin && exec go build -o ${BUILD}/bin/main ${shq(dir === '.' ? '.' : `./${dir}`)}`,
      env: { ...goEnv(ctx), GOFLAGS: BUILD_GOFLAGS, GOPATH: `${BUILD}/gopath`, HOME: '/tmp' },
      network: sourceNetwork(ctx), cache: 'overlay',
    };
  },
  async sharedLayer(ctx, locked, files) {
    if (locked.length === 0) return undefined;
    // The exact graph, the toolchain and the compile step as written (its script with the packages left out, and its
    // environment, flags included): a change to the step is a new key by itself. Go's own cache keys cover the rest
    // (sources, deps, compiler options). A layer made by another compile step matches no build's action ids: it would be
    // found, and then help nothing.
    const graph = locked.map((pin) => `${pin.name}@${pin.version}`).sort();
    const key = layerKey(graph, compileStep(ctx, []), ctx.toolchain.version ?? '');
    const modules = locked.map((pin) => pin.name);
    // Only packages of the graph's modules (never the session's own or the standard library's), named as import paths.
    const packages = (await importPaths(files)).filter((importPath) => IMPORT_PATH.test(importPath) && !importPath.includes('..') &&
      modules.some((module) => importPath === module || importPath.startsWith(`${module}/`))).slice(0, MAX_SHARED_PACKAGES);
    if (packages.length === 0) return { key };
    return { key, step: compileStep(ctx, packages) };
  },
  run() {
    return { kind: 'run', name: 'run', script: `exec ${BUILD}/bin/main`, env: { PATH: BASE_PATH, HOME: '/tmp' }, network: {}, cache: 'none' };
  },
};
