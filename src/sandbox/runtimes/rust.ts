// rust: crates resolved by `cargo add` in a service-owned project in /deps and copied by `cargo vendor` (a fetch step:
// no build scripts run, every .crate checked against the index's checksum); the build is a run step that adds the exact
// vendored versions to the session's own project and builds offline (build scripts and proc macros are package code).
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { layerKey } from '../layers.ts';
import { badPackage } from './spec.ts';
import { BASE_PATH, BUILD, CACHE, DEPS, FETCH_BASE_ENV, shq, sourceNetwork, type CompileStep, type LockedPin, type RuntimeAdapter, type RuntimeContext } from './types.ts';

const CRATE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const CRATE_VERSION = /^[=^~<>]*[0-9][0-9A-Za-z.*+-]{0,40}$/;
/** A feature name as cargo allows it (letters, digits, `_`, `-`, `+`, `.`), never `dep:` or `crate/feature`. */
const FEATURE = /^[A-Za-z0-9_][A-Za-z0-9_+.-]{0,63}$/;

/** In the brackets, turns the crate's default features off (`default-features = false`); no feature can start with `-`. */
export const NO_DEFAULT_FEATURES = '-default';

export interface CrateSpec { name: string; version?: string; features: string[]; defaultFeatures: boolean }

/**
 * `name`, `name@version`, either followed by `[feature,feature]` (like pip extras): `tokio@1[macros,rt-multi-thread,time]`;
 * `-default` among them turns the default features off (`hex@0.4[-default,alloc]`, Cargo's `default-features = false`).
 * Returns the crate spec cargo takes and the features, or undefined when it is not that shape.
 */
export function parseCrateSpec(raw: string): CrateSpec | undefined {
  const bracket = raw.indexOf('[');
  let features: string[] = [];
  let crate = raw;
  let defaultFeatures = true;
  if (bracket !== -1) {
    if (!raw.endsWith(']')) return undefined;
    features = raw.slice(bracket + 1, -1).split(',').map((feature) => feature.trim());
    crate = raw.slice(0, bracket);
    defaultFeatures = !features.includes(NO_DEFAULT_FEATURES);
    features = features.filter((feature) => feature !== NO_DEFAULT_FEATURES);
    if ((features.length === 0 && defaultFeatures) || features.length > 32 || !features.every((feature) => FEATURE.test(feature))) return undefined;
  }
  const at = crate.indexOf('@');
  const name = at === -1 ? crate : crate.slice(0, at);
  const version = at === -1 ? undefined : crate.slice(at + 1);
  if (!CRATE.test(name) || (version !== undefined && !CRATE_VERSION.test(version))) return undefined;
  return { name, version, features: [...new Set(features)], defaultFeatures };
}

/** `cargo add` flags for a crate's features: `--no-default-features` when they are off, `--features a,b` when any. */
const featureFlags = (crate: { features?: string[]; defaultFeatures?: boolean }) =>
  `${crate.defaultFeatures === false ? ' --no-default-features' : ''}${crate.features?.length ? ` --features ${shq(crate.features.join(','))}` : ''}`;
const PROJECT = `${DEPS}/cargo`;
const VENDOR = `${DEPS}/vendor`;
/**
 * Builds' target folder: in the cache overlay, so the compiled layer of the session's dependency graph (read-only)
 * lies beneath the session's own writes; the executable is copied to /build for the run step, which sees no overlay.
 */
const TARGET = `${CACHE}/target`;
/** Cargo reads crates only from the fetch step's vendor folder (the crates.io source replaced by it), never the network. */
const VENDORED = `set -- --config 'source.crates-io.replace-with="vendored"' --config 'source.vendored.directory="${VENDOR}"'`;

function cargoEnv(ctx: RuntimeContext, cargoHome: string): Record<string, string> {
  return {
    PATH: `${ctx.toolchain.paths.bin}:${BASE_PATH}`, CARGO_HOME: cargoHome, CARGO_TERM_COLOR: 'never', CARGO_NET_GIT_FETCH_WITH_CLI: 'false',
    CARGO_INCREMENTAL: '0', CARGO_REGISTRIES_CRATES_IO_PROTOCOL: 'sparse',
    // No debug information (cargo's dev profile writes full DWARF for every crate, and then strips it from nothing):
    // it is most of a target folder's bytes and much of a build's time, and a sandbox never runs a debugger — panics
    // keep their file:line. Heavy graphs (tokenizers, burn, polars, sea-orm) ran out of the compile's 1024 MiB disk.
    CARGO_PROFILE_DEV_DEBUG: '0',
  };
}

/**
 * What the compiled dependencies depend on, read on the host from what the fetch step wrote: every package of its lock
 * (name, version, source, checksum) and the project's dependency entries (versions, features, default features).
 */
function graphOf(depsDir: string): { packages: string[]; dependencies: unknown } | undefined {
  const lockFile = path.join(depsDir, 'cargo', 'Cargo.lock');
  const manifest = path.join(depsDir, 'cargo', 'Cargo.toml');
  if (!fs.existsSync(lockFile) || !fs.existsSync(manifest)) return undefined;
  const lock = parseToml(fs.readFileSync(lockFile, 'utf8')) as { package?: Array<{ name: string; version: string; source?: string; checksum?: string }> };
  const packages = (lock.package ?? []).filter((p) => p.source).map((p) => `${p.name}@${p.version} ${p.source ?? ''} ${p.checksum ?? ''}`).sort();
  const dependencies = (parseToml(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, unknown> }).dependencies ?? {};
  const sorted = (value: unknown): unknown => (Array.isArray(value) ? value.map(sorted)
    : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sorted(v)]))
      : value);
  return packages.length ? { packages, dependencies: sorted(dependencies) } : undefined;
}

const initProject = '{ [ -f Cargo.toml ] || cargo init --quiet --vcs none --name sandbox .; }';

/** Marks a vendored crate emptied by `stubUnbuilt`; such a folder is removed before the next `cargo vendor`. */
const STUB_MARK = '.tooldex-stub';
/** Removes the stubs of an earlier fetch, so `cargo vendor` (which keeps a versioned folder it finds) copies them again. */
export const unstubVendored = (vendor: string) => `for d in ${vendor}/*/; do [ -e "$d${STUB_MARK}" ] && rm -rf "$d"; done; `;
/**
 * Empties the vendored crates that no build of the project compiles on this host (`cargo tree`: the host platform,
 * the project's features, normal and build edges): Windows and Apple crates, optional crates of features left off.
 * Cargo.lock lists them all, and `cargo vendor` copies them all — burn's graph is 768 crates and 915 MiB, of which
 * 124 crates build here — so the vendored sources alone filled the session's disk. A stub keeps the crate's
 * Cargo.toml (resolution reads it) and its package checksum (checked against Cargo.lock) with no file list, and an
 * empty `src/lib.rs`. When `cargo tree` fails or lists nothing, nothing is emptied. Runs in the fetch step (no package
 * code runs: `cargo tree` reads manifests); `"$@"` are cargo's options (none there; the source in tests).
 */
export const stubUnbuilt = (vendor: string) =>
  `t=$(mktemp -d) && if cargo tree "$@" --offline --quiet --prefix none -e normal,build -f '{p}' > "$t/needed" 2>/dev/null && [ -s "$t/needed" ]; then ` +
  `sed 's/^\\([^ ]*\\) v\\([^ ]*\\).*/\\1-\\2/' "$t/needed" | sort -u > "$t/dirs" && ` +
  `ls ${vendor} 2>/dev/null | awk -v v=${vendor} 'NR == FNR { need[$0] = 1; next } !($0 in need) { print v "/" $0 }' "$t/dirs" - > "$t/stubs" && ` +
  // A few processes for all the stubs, not a few per crate: a graph may have hundreds, and this runs in the fetch's time.
  `if [ -s "$t/stubs" ]; then X='xargs -d \\n' && ` +
  `$X sh -c 'exec find "$@" -mindepth 1 -maxdepth 1 ! -name Cargo.toml ! -name .cargo-checksum.json -print0' sh < "$t/stubs" | xargs -0 rm -rf && ` +
  `sed 's|$|/src|' "$t/stubs" | $X mkdir -p && { sed 's|$|/src/lib.rs|' "$t/stubs"; sed 's|$|/${STUB_MARK}|' "$t/stubs"; } | $X touch && ` +
  `sed 's|$|/.cargo-checksum.json|' "$t/stubs" | $X sed -i 's/^.*"package":"\\([0-9a-f]*\\)".*$/{"files":{},"package":"\\1"}/'; fi; fi; rm -rf "$t"`;

/**
 * The fetch step's script: the project's pins removed and added, the vendored crates copied, those no build compiles
 * here emptied. One `&&` chain from the first command to `cargo vendor`, so a failed `cargo add` (a crate or feature
 * that does not exist) fails the fetch; round 19's version put the stub loop there with a bare `;`, which ended the
 * chain, so `cargo vendor` ran on the project as it was and the build failed later on a resolution error (native_db,
 * sanakirja). The loop and the emptying are grouped, each ending in `true`: neither fails the fetch itself.
 */
export function fetchScript(project: string, vendor: string, removes: string, adds: string): string {
  return `mkdir -p ${project} && cd ${project} && ${initProject} && ${removes}${adds} && { ${unstubVendored(vendor)}true; } && ` +
    `cargo vendor --quiet --versioned-dirs ${vendor} >/dev/null && { ${stubUnbuilt(vendor)}; true; }`;
}

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
    // Crates without features in one `cargo add`, each crate with features (or default features off) in its own (cargo's
    // `crate/feature` form does not match a crate given with a version).
    const plain = crates.filter((crate) => crate.features.length === 0 && crate.defaultFeatures);
    const adds = [
      ...(plain.length ? [`cargo add --quiet ${plain.map(spec).join(' ')}`] : []),
      ...crates.filter((crate) => !plain.includes(crate)).map((crate) => `cargo add --quiet ${spec(crate)}${featureFlags(crate)}`),
    ].join(' && ');
    return {
      first: {
        kind: 'fetch', name: 'install',
        // The shared registry cache is CARGO_HOME; cargo reads config only from /deps (fetch-written) and CARGO_HOME.
        // Features are enabled here, in the service-owned project, so `cargo vendor` copies the optional crates they need.
        script: fetchScript(PROJECT, VENDOR, removes, adds),
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
      ? ((parseToml(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string | { features?: string[]; 'default-features'?: boolean }> }).dependencies ?? {})
      : {};
    const featuresOf = (name: string) => {
      const entry = dependencies[name];
      return typeof entry === 'object' && Array.isArray(entry.features) ? entry.features.filter((feature) => FEATURE.test(feature)) : [];
    };
    const defaultsOff = (name: string) => {
      const entry = dependencies[name];
      return typeof entry === 'object' && entry['default-features'] === false;
    };
    // A root dependency is "name" (one version in the lock) or "name version" (several).
    return (root?.dependencies ?? []).flatMap((dep) => {
      const [name = '', version] = dep.split(' ');
      const found = version ?? packages.find((p) => p.name === name && p.source)?.version;
      const features = featuresOf(name);
      return found ? [{ name, version: found, ...(features.length ? { features } : {}), ...(defaultsOff(name) ? { defaultFeatures: false as const } : {}) }] : [];
    });
  },
  build(ctx, _entry, locked: LockedPin[], keep = new Set<string>()) {
    const plain = locked.filter((pin) => !pin.features?.length && pin.defaultFeatures !== false);
    const adds = [
      ...(plain.length ? [`cargo add --offline --quiet "$@" ${plain.map((pin) => shq(`${pin.name}@=${pin.version}`)).join(' ')}`] : []),
      ...locked.filter((pin) => !plain.includes(pin)).map((pin) => `cargo add --offline --quiet "$@" ${shq(`${pin.name}@=${pin.version}`)}${featureFlags(pin)}`),
    ].join(' && ');
    // A pin changed through `packages` is removed and added again: cargo add only ever adds features to an existing
    // entry, so a pin whose features shrank would keep asking for optional crates the fetch step no longer vendors. The
    // others (`keep`) are only updated, so the keys a caller's Cargo.toml gave them (optional, default-features, …) stay.
    const removes = `{ ${locked.filter((pin) => !keep.has(pin.name)).map((pin) => `cargo remove --offline --quiet "$@" ${shq(pin.name)} >/dev/null 2>&1; `).join('')}true; } && `;
    return {
      kind: 'run', name: 'build',
      // JSON messages on stdout name the built executable; rendered diagnostics go to stderr for the caller. The target
      // folder is the cache overlay (the graph's compiled layer beneath, read-only; writes stay in the session's volume).
      script: `${initProject} && mkdir -p ${BUILD}/bin && ` +
        (locked.length ? `${VENDORED} && ${removes}${adds} && ` : '') +
        'cargo build "$@" --offline --quiet --message-format=json-render-diagnostics ' +
        `| sed -n 's/.*"executable":"\\([^"]*\\)".*/\\1/p' | tail -n 1 > /tmp/exe && [ -s /tmp/exe ] && cp -f "$(cat /tmp/exe)" ${BUILD}/bin/main`,
      env: { ...cargoEnv(ctx, `${BUILD}/cargo`), CARGO_TARGET_DIR: TARGET, HOME: '/tmp' },
      network: false, cache: 'layers',
    };
  },
  keepsSessionLayer: true,
  async sharedLayer(ctx, locked, _files, depsDir) {
    if (locked.length === 0) return undefined;
    const graph = graphOf(depsDir);
    if (!graph) return undefined;
    const step: CompileStep = {
      kind: 'compile', name: 'compile',
      // A copy of the fetch-written project (its main.rs is cargo's generated hello world, nothing of a session) built
      // offline from the vendored crates: the dependencies' build scripts and proc macros run here, as in every build of
      // this graph. The project's own outputs are removed; the layer keeps the dependencies' compiled artifacts.
      script: `cp -r ${PROJECT} /tmp/graph && cd /tmp/graph && ${VENDORED} && cargo build "$@" --offline --quiet && ` +
        `rm -rf ${TARGET}/debug/sandbox ${TARGET}/debug/sandbox.d ${TARGET}/debug/deps/sandbox-* ${TARGET}/debug/.fingerprint/sandbox-* ${TARGET}/debug/incremental`,
      // The build step's environment but for CARGO_HOME (private here): build scripts that watch variables see the same.
      env: { ...cargoEnv(ctx, '/tmp/cargo'), CARGO_TARGET_DIR: TARGET, HOME: '/tmp' },
    };
    // The exact graph (every crate's version and checksum), the dependency entries (features, default features), the
    // toolchain and the compile step itself (its script and environment: a change to it is a new key, no format to bump).
    // Cargo's own fingerprints decide, per crate, what a build reuses.
    const key = layerKey(graph, step, ctx.toolchain.version ?? '');
    return { key, step };
  },
  run(ctx) {
    // The compiler it was built with stays on PATH (read-only, like the build step's): build-script helpers such as
    // autocfg probe rustc when their examples run, as they would inside build.rs.
    return { kind: 'run', name: 'run', script: `exec ${BUILD}/bin/main`, env: { PATH: `${ctx.toolchain.paths.bin}:${BASE_PATH}`, HOME: '/tmp' }, network: {}, cache: 'none' };
  },
};
