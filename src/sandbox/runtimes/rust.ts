// rust: a per-session cargo project (cargo init on first use) with its own CARGO_HOME and target folder;
// `cargo add` + `cargo fetch` install, `cargo build --offline` builds (build scripts are package code), the binary runs.
import { badPackage } from './spec.ts';
import { BASE_PATH, DEPS, shq, type RuntimeAdapter, type RuntimeContext } from './types.ts';

const CRATE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const CRATE_VERSION = /^[=^~<>]*[0-9][0-9A-Za-z.*+-]{0,40}$/;

function cargoEnv(ctx: RuntimeContext): Record<string, string> {
  return {
    PATH: `${ctx.toolchain.paths.bin}:${BASE_PATH}`, HOME: '/tmp', CARGO_HOME: `${DEPS}/cargo`, CARGO_TARGET_DIR: `${DEPS}/target`,
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
        script: `${initProject} && cargo add --quiet ${added.map((p) => shq(p.spec)).join(' ')} && exec cargo fetch --quiet`,
        env: cargoEnv(ctx), workspace: 'rw', deps: 'rw', cache: 'none', network: {}, runsPackageCode: false,
      },
    };
  },
  build(ctx) {
    // JSON messages on stdout name the built executable; rendered diagnostics go to stderr for the caller.
    return {
      name: 'build',
      script: `${initProject} && mkdir -p ${DEPS}/bin && cargo build --offline --quiet --message-format=json-render-diagnostics ` +
        `| sed -n 's/.*"executable":"\\([^"]*\\)".*/\\1/p' | tail -n 1 > ${DEPS}/bin/exe && [ -s ${DEPS}/bin/exe ]`,
      env: cargoEnv(ctx), workspace: 'rw', deps: 'rw', cache: 'none', network: false, runsPackageCode: true,
    };
  },
  run() {
    return {
      name: 'run', script: `exec "$(cat ${DEPS}/bin/exe)"`, env: { PATH: BASE_PATH, HOME: '/tmp' },
      workspace: 'rw', deps: 'ro', cache: 'none', network: {}, runsPackageCode: true,
    };
  },
};
