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
/** A feature name as cargo allows it (letters, digits, `_`, `-`, `+`, `.`), never `dep:` or `crate/feature`. */
const FEATURE = /^[A-Za-z0-9_][A-Za-z0-9_+.-]{0,63}$/;

/**
 * `name`, `name@version`, either followed by `[feature,feature]` (like pip extras): `tokio@1[macros,rt-multi-thread,time]`.
 * Returns the crate spec cargo takes and the features, or undefined when it is not that shape.
 */
export function parseCrateSpec(raw: string): { name: string; version?: string; features: string[] } | undefined {
  const bracket = raw.indexOf('[');
  let features: string[] = [];
  let crate = raw;
  if (bracket !== -1) {
    if (!raw.endsWith(']')) return undefined;
    features = raw.slice(bracket + 1, -1).split(',').map((feature) => feature.trim());
    crate = raw.slice(0, bracket);
    if (features.length === 0 || features.length > 32 || !features.every((feature) => FEATURE.test(feature))) return undefined;
  }
  const at = crate.indexOf('@');
  const name = at === -1 ? crate : crate.slice(0, at);
  const version = at === -1 ? undefined : crate.slice(at + 1);
  if (!CRATE.test(name) || (version !== undefined && !CRATE_VERSION.test(version))) return undefined;
  return { name, version, features: [...new Set(features)] };
}
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
    const parsed = parseCrateSpec(raw);
    if (!parsed) badPackage(raw, 'crates.io', 'itoa@1 or tokio@1[macros,rt-multi-thread,time]');
    return { name: parsed.name.toLowerCase().replace(/_/g, '-'), spec: raw };
  },
  install(ctx, plan) {
    // A changed pin is removed first, so its features are exactly the new spec's (cargo add only ever adds features).
    const crates = plan.changed.map((pin) => parseCrateSpec(pin.spec)).filter((crate) => crate !== undefined);
    const removes = `{ ${crates.map((crate) => `cargo remove --quiet ${shq(crate.name)} >/dev/null 2>&1; `).join('')}true; } && `;
    const spec = (crate: { name: string; version?: string }) => shq(crate.version === undefined ? crate.name : `${crate.name}@${crate.version}`);
    // Crates without features in one `cargo add`, each crate with features in its own (cargo's `crate/feature` form does
    // not match a crate given with a version).
    const plain = crates.filter((crate) => crate.features.length === 0);
    const adds = [
      ...(plain.length ? [`cargo add --quiet ${plain.map(spec).join(' ')}`] : []),
      ...crates.filter((crate) => crate.features.length > 0).map((crate) => `cargo add --quiet ${spec(crate)} --features ${shq(crate.features.join(','))}`),
    ].join(' && ');
    return {
      first: {
        kind: 'fetch', name: 'install',
        // The shared registry cache is CARGO_HOME; cargo reads config only from /deps (fetch-written) and CARGO_HOME.
        // Features are enabled here, in the service-owned project, so `cargo vendor` copies the optional crates they need.
        script: `mkdir -p ${PROJECT} && cd ${PROJECT} && ${initProject} && ${removes}${adds} && ` +
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
    // The features each dependency was added with, as the fetch step wrote them into the project's manifest.
    const manifest = path.join(depsDir, 'cargo', 'Cargo.toml');
    const dependencies = fs.existsSync(manifest)
      ? ((parseToml(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string | { features?: string[] }> }).dependencies ?? {})
      : {};
    const featuresOf = (name: string) => {
      const entry = dependencies[name];
      return typeof entry === 'object' && Array.isArray(entry.features) ? entry.features.filter((feature) => FEATURE.test(feature)) : [];
    };
    // A root dependency is "name" (one version in the lock) or "name version" (several).
    return (root?.dependencies ?? []).flatMap((dep) => {
      const [name = '', version] = dep.split(' ');
      const found = version ?? packages.find((p) => p.name === name && p.source)?.version;
      const features = featuresOf(name);
      return found ? [{ name, version: found, ...(features.length ? { features } : {}) }] : [];
    });
  },
  build(ctx, _entry, locked: LockedPin[]) {
    const vendored = `set -- --config 'source.crates-io.replace-with="vendored"' --config 'source.vendored.directory="${VENDOR}"'`;
    const plain = locked.filter((pin) => !pin.features?.length);
    const adds = [
      ...(plain.length ? [`cargo add --offline --quiet "$@" ${plain.map((pin) => shq(`${pin.name}@=${pin.version}`)).join(' ')}`] : []),
      ...locked.filter((pin) => pin.features?.length).map((pin) =>
        `cargo add --offline --quiet "$@" ${shq(`${pin.name}@=${pin.version}`)} --features ${shq((pin.features ?? []).join(','))}`),
    ].join(' && ');
    // Every pin is removed and added again: cargo add only ever adds features to an existing entry, so a pin whose
    // features shrank would keep asking for optional crates the fetch step no longer vendors.
    const removes = `{ ${locked.map((pin) => `cargo remove --offline --quiet "$@" ${shq(pin.name)} >/dev/null 2>&1; `).join('')}true; } && `;
    return {
      kind: 'run', name: 'build',
      // JSON messages on stdout name the built executable; rendered diagnostics go to stderr for the caller.
      script: `${initProject} && mkdir -p ${BUILD}/bin && ` +
        (locked.length ? `${vendored} && ${removes}${adds} && ` : '') +
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
