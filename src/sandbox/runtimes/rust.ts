// rust: crates resolved by `cargo add` in a service-owned project in /deps and copied by `cargo vendor` (a fetch step:
// no build scripts run, every .crate checked against the index's checksum); the build is a run step that adds the exact
// vendored versions to the session's own project and builds offline (build scripts and proc macros are package code).
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { badPackage } from './spec.ts';
import { BASE_PATH, BUILD, CACHE, DEPS, FETCH_BASE_ENV, shq, sourceNetwork, type LockedPin, type RuntimeAdapter, type RuntimeContext } from './types.ts';

const CRATE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const CRATE_VERSION = /^[=^~<>]*[0-9][0-9A-Za-z.*+-]{0,40}$/;
const PROJECT = `${DEPS}/cargo`;
const VENDOR = `${DEPS}/vendor`;

function cargoEnv(ctx: RuntimeContext, cargoHome: string): Record<string, string> {
  return {
    PATH: `${ctx.toolchain.paths.bin}:${BASE_PATH}`, CARGO_HOME: cargoHome, CARGO_TERM_COLOR: 'never', CARGO_NET_GIT_FETCH_WITH_CLI: 'false',
    CARGO_INCREMENTAL: '0', CARGO_REGISTRIES_CRATES_IO_PROTOCOL: 'sparse',
  };
}

const initProject = '{ [ -f Cargo.toml ] || cargo init --quiet --vcs none --name sandbox .; }';

export const rustRuntime: RuntimeAdapter = {
  runtime: 'rust',
  parsePackage(raw) {
    const at = raw.indexOf('@');
    const name = at === -1 ? raw : raw.slice(0, at);
    const version = at === -1 ? undefined : raw.slice(at + 1);
    if (!CRATE.test(name) || (version !== undefined && !CRATE_VERSION.test(version))) badPackage(raw, 'crates.io', 'itoa@1');
    return { name: name.toLowerCase().replace(/_/g, '-'), spec: raw };
  },
  install(ctx, plan) {
    return {
      first: {
        kind: 'fetch', name: 'install',
        // The shared registry cache is CARGO_HOME; cargo reads config only from /deps (fetch-written) and CARGO_HOME.
        script: `mkdir -p ${PROJECT} && cd ${PROJECT} && ${initProject} && cargo add --quiet ${plan.changed.map((p) => shq(p.spec)).join(' ')} && ` +
          `exec cargo vendor --quiet --versioned-dirs ${VENDOR} >/dev/null`,
        env: { ...FETCH_BASE_ENV, ...cargoEnv(ctx, `${CACHE}/home`), CARGO_TARGET_DIR: '/tmp/target' },
        network: sourceNetwork(ctx),
      },
    };
  },
  locked(depsDir) {
    const lockFile = path.join(depsDir, 'cargo', 'Cargo.lock');
    if (!fs.existsSync(lockFile)) return [];
    const lock = parseToml(fs.readFileSync(lockFile, 'utf8')) as { package?: Array<{ name: string; version: string; source?: string; dependencies?: string[] }> };
    const packages = lock.package ?? [];
    const root = packages.find((p) => p.name === 'sandbox' && !p.source);
    // A root dependency is "name" (one version in the lock) or "name version" (several).
    return (root?.dependencies ?? []).flatMap((dep) => {
      const [name = '', version] = dep.split(' ');
      const found = version ?? packages.find((p) => p.name === name && p.source)?.version;
      return found ? [{ name, version: found }] : [];
    });
  },
  build(ctx, _entry, locked: LockedPin[]) {
    const vendored = `set -- --config 'source.crates-io.replace-with="vendored"' --config 'source.vendored.directory="${VENDOR}"'`;
    const adds = locked.map((pin) => shq(`${pin.name}@=${pin.version}`)).join(' ');
    return {
      kind: 'run', name: 'build',
      // JSON messages on stdout name the built executable; rendered diagnostics go to stderr for the caller.
      script: `${initProject} && mkdir -p ${BUILD}/bin && ` +
        (locked.length ? `${vendored} && cargo add --offline --quiet "$@" ${adds} && ` : '') +
        'cargo build "$@" --offline --quiet --message-format=json-render-diagnostics ' +
        `| sed -n 's/.*"executable":"\\([^"]*\\)".*/\\1/p' | tail -n 1 > ${BUILD}/bin/exe && [ -s ${BUILD}/bin/exe ]`,
      env: { ...cargoEnv(ctx, `${BUILD}/cargo`), CARGO_TARGET_DIR: `${BUILD}/target`, HOME: '/tmp' },
      network: false, cache: 'none',
    };
  },
  run(ctx) {
    // The compiler it was built with stays on PATH (read-only, like the build step's): build-script helpers such as
    // autocfg probe rustc when their examples run, as they would inside build.rs.
    return { kind: 'run', name: 'run', script: `exec "$(cat ${BUILD}/bin/exe)"`, env: { PATH: `${ctx.toolchain.paths.bin}:${BASE_PATH}`, HOME: '/tmp' }, network: {}, cache: 'none' };
  },
};
