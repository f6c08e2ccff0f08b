// rust: a per-session cargo project (cargo init on first use). `cargo add` + `cargo vendor` run no package code, so they
// share the registry cache (CARGO_HOME) read-write; `cargo build --offline` (build scripts are package code) sees only the
// session's vendored sources and its own CARGO_HOME, then the binary runs.
import { badPackage } from './spec.ts';
import { BASE_PATH, CACHE, DEPS, shq, type RuntimeAdapter, type RuntimeContext } from './types.ts';

const CRATE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const CRATE_VERSION = /^[=^~<>]*[0-9][0-9A-Za-z.*+-]{0,40}$/;

const VENDOR = `${DEPS}/vendor`;

function cargoEnv(ctx: RuntimeContext, cargoHome: string): Record<string, string> {
  return {
    PATH: `${ctx.toolchain.paths.bin}:${BASE_PATH}`, HOME: '/tmp', CARGO_HOME: cargoHome, CARGO_TARGET_DIR: `${DEPS}/target`,
    CARGO_TERM_COLOR: 'never', CARGO_NET_GIT_FETCH_WITH_CLI: 'false', CARGO_INCREMENTAL: '0',
  };
}

const initProject = '{ [ -f Cargo.toml ] || cargo init --quiet --vcs none --name sandbox .; }';

export const rustRuntime: RuntimeAdapter = {
  runtime: 'rust',
  reservedPaths: /^\.cargo\//,
  parsePackage(raw) {
    const at = raw.indexOf('@');
    const name = at === -1 ? raw : raw.slice(0, at);
    const version = at === -1 ? undefined : raw.slice(at + 1);
    if (!CRATE.test(name) || (version !== undefined && !CRATE_VERSION.test(version))) badPackage(raw, 'crates.io', 'itoa@1');
    return { name: name.toLowerCase().replace(/_/g, '-'), spec: raw };
  },
  install(ctx, added) {
    return {
      trusted: {
        name: 'install',
        script: `${initProject} && cargo add --quiet ${added.map((p) => shq(p.spec)).join(' ')} && ` +
          `exec cargo vendor --quiet --versioned-dirs ${VENDOR} >/dev/null`,
        env: cargoEnv(ctx, `${CACHE}/home`), workspace: 'rw', deps: 'rw', cache: 'rw', network: {}, runsPackageCode: false,
      },
    };
  },
  build(ctx) {
    // JSON messages on stdout name the built executable; rendered diagnostics go to stderr for the caller.
    return {
      name: 'build',
      script: `${initProject} && mkdir -p ${DEPS}/bin && ` +
        `if [ -d ${VENDOR} ]; then set -- --config 'source.crates-io.replace-with="vendored"' --config 'source.vendored.directory="${VENDOR}"'; fi && ` +
        'cargo build "$@" --offline --quiet --message-format=json-render-diagnostics ' +
        `| sed -n 's/.*"executable":"\\([^"]*\\)".*/\\1/p' | tail -n 1 > ${DEPS}/bin/exe && [ -s ${DEPS}/bin/exe ]`,
      env: cargoEnv(ctx, `${DEPS}/cargo`), workspace: 'rw', deps: 'rw', cache: 'none', network: false, runsPackageCode: true,
    };
  },
  run() {
    return {
      name: 'run', script: `exec "$(cat ${DEPS}/bin/exe)"`, env: { PATH: BASE_PATH, HOME: '/tmp' },
      workspace: 'rw', deps: 'ro', cache: 'none', network: {}, runsPackageCode: true,
    };
  },
};
