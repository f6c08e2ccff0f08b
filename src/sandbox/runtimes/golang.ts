// golang: the workspace is a module (go mod init on first use); `go get` and `go build` run no package code,
// so they share the module and build caches read-write; the built binary then runs with the caches unmounted.
import path from 'node:path/posix';
import { badPackage } from './spec.ts';
import { BASE_PATH, CACHE, DEPS, shq, type RuntimeAdapter, type RuntimeContext } from './types.ts';

const MODULE = /^[a-z0-9][a-z0-9.-]*\.[a-z]{2,}(\/[A-Za-z0-9._~-]+)*$/;
const GO_VERSION = /^(latest|upgrade|patch|none|v[0-9][0-9A-Za-z.+-]{0,60}|[0-9a-f]{7,40})$/;

function goEnv(ctx: RuntimeContext): Record<string, string> {
  const goroot = ctx.toolchain.paths.goroot ?? '/usr/local/go';
  return {
    PATH: `${goroot}/bin:${BASE_PATH}`, HOME: '/tmp', GOROOT: goroot, GOPATH: `${DEPS}/gopath`, GOMODCACHE: `${CACHE}/mod`,
    GOCACHE: `${CACHE}/build`, GOPROXY: ctx.goproxy, GOTOOLCHAIN: 'local', GOTELEMETRY: 'off', GOFLAGS: '-mod=mod',
    // A go.work in the snippet could point the trusted steps elsewhere; modules come from the proxy, checked by its sumdb.
    GOWORK: 'off', GONOSUMDB: '', GOPRIVATE: '', GOINSECURE: '',
  };
}

const initModule = '{ [ -f go.mod ] || go mod init sandbox >/dev/null 2>&1; }';

export const golangRuntime: RuntimeAdapter = {
  runtime: 'golang',
  parsePackage(raw) {
    const at = raw.indexOf('@');
    const name = at === -1 ? raw : raw.slice(0, at);
    const version = at === -1 ? undefined : raw.slice(at + 1);
    if (!MODULE.test(name) || (version !== undefined && !GO_VERSION.test(version))) badPackage(raw, 'Go module', 'github.com/google/uuid@v1.6.0');
    return { name: name.toLowerCase(), spec: raw };
  },
  install(ctx, added) {
    return {
      trusted: {
        name: 'install',
        script: `${initModule} && exec go get ${added.map((p) => shq(p.spec)).join(' ')}`,
        env: goEnv(ctx), workspace: 'rw', deps: 'rw', cache: 'rw', network: {}, runsPackageCode: false,
      },
    };
  },
  build(ctx, entry) {
    const dir = path.dirname(entry);
    return {
      name: 'build',
      script: `${initModule} && mkdir -p ${DEPS}/bin && exec go build -o ${DEPS}/bin/main ${shq(dir === '.' ? '.' : `./${dir}`)}`,
      env: goEnv(ctx), workspace: 'rw', deps: 'rw', cache: 'rw', network: {}, runsPackageCode: false,
    };
  },
  run() {
    return {
      name: 'run', script: `exec ${DEPS}/bin/main`, env: { PATH: BASE_PATH, HOME: '/tmp' },
      workspace: 'rw', deps: 'ro', cache: 'none', network: {}, runsPackageCode: true,
    };
  },
};
