// python: the session's pins installed together into a fresh virtual environment by the host interpreter's pip: wheels
// only in a fetch step (shared cache, hashes checked), or, for a package that ships only sources, a run step that may
// build them (no shared cache, the session's timeoutMs). The run sees the stdlib plus that environment, nothing else.
import crypto from 'node:crypto';
import { badPackage, refuseLocalFile } from './spec.ts';
import { BASE_PATH, BUILD, CACHE, DEPS, FETCH_BASE_ENV, shq, sourceNetwork, type ParsedPackage, type RuntimeAdapter, type RuntimeContext } from './types.ts';

const SPEC = /^([A-Za-z0-9][A-Za-z0-9._-]{0,127})(\[[A-Za-z0-9._,-]+\])?((===?|>=|<=|~=|!=|<|>)[0-9A-Za-z.*+!-]{1,40}(,(===?|>=|<=|~=|!=|<|>)[0-9A-Za-z.*+!-]{1,40})*)?$/;
const STAMP = '.tooldex-pins';

/** Names the exact set of pins an environment was built for; a run uses the environment whose stamp matches. */
export const pinsStamp = (pins: ParsedPackage[]) =>
  pins.length === 0 ? '' : crypto.createHash('sha256').update(JSON.stringify(pins.map((p) => p.spec))).digest('hex').slice(0, 24);

/** Builds `dir` anew beside the current one and swaps it in only when pip succeeded: a failed install keeps the old one. */
function installInto(ctx: RuntimeContext, dir: string, pins: ParsedPackage[], pipFlags: string): string {
  const python = shq(ctx.toolchain.paths.python ?? 'python3');
  // From the empty private /tmp: pip takes a requirement that names a file in its working folder as that file.
  return `cd /tmp && rm -rf ${dir}.next && ${python} -I -m venv --without-pip ${dir}.next && ` +
    `${python} -I -m pip install --disable-pip-version-check --no-input --no-warn-script-location --progress-bar off ` +
    `--prefix ${dir}.next --ignore-installed ${pipFlags} ${pins.map((p) => shq(p.spec)).join(' ')} && ` +
    `echo ${pinsStamp(pins)} > ${dir}.next/${STAMP} && rm -rf ${dir} && mv ${dir}.next ${dir}`;
}

/** pip's settings, all pinned: no config file, the operator's index (a plain-http one, e.g. a loopback mirror, trusted as such). */
function pipEnv(ctx: RuntimeContext): Record<string, string> {
  const url = new URL(ctx.source.url);
  return {
    PIP_CONFIG_FILE: '/dev/null', PIP_INDEX_URL: `${ctx.source.url}/simple`, PYTHONNOUSERSITE: '1',
    ...(url.protocol === 'http:' ? { PIP_TRUSTED_HOST: url.hostname } : {}),
  };
}

export const pythonRuntime: RuntimeAdapter = {
  runtime: 'python',
  parsePackage(raw) {
    refuseLocalFile(raw, /^[^[=<>~!]*/.exec(raw)?.[0] ?? raw, 'PyPI');
    const match = SPEC.exec(raw);
    if (!match) badPackage(raw, 'PyPI', 'requests==2.32.3');
    return { name: (match[1] ?? raw).toLowerCase().replace(/[-_.]+/g, '-'), spec: raw };
  },
  install(ctx, plan) {
    return {
      first: {
        kind: 'fetch', name: 'install',
        script: installInto(ctx, `${DEPS}/venv`, plan.all, `--only-binary=:all: --cache-dir ${CACHE}`),
        env: { ...FETCH_BASE_ENV, ...pipEnv(ctx) },
        network: sourceNetwork(ctx),
      },
      fallback: {
        kind: 'run', name: 'install',
        script: installInto(ctx, `${BUILD}/venv`, plan.all, '--no-cache-dir'),
        env: { PATH: BASE_PATH, HOME: '/tmp', ...pipEnv(ctx) },
        network: sourceNetwork(ctx), cache: 'none', hostPackages: 'visible',
      },
    };
  },
  run(ctx, entry, pins = []) {
    const python = ctx.toolchain.paths.python ?? 'python3';
    const stamp = pinsStamp(pins);
    return {
      kind: 'run',
      name: 'run',
      // The environment built for the session's current pins (wheels in /deps, or sources built in /build); with no
      // packages, the interpreter itself, its own site-packages hidden.
      script: `PY=${shq(python)}; H=${shq(stamp)}; if [ -n "$H" ]; then for v in ${DEPS}/venv ${BUILD}/venv; do ` +
        `if [ -f "$v/${STAMP}" ] && read -r s < "$v/${STAMP}" && [ "$s" = "$H" ]; then PY=$v/bin/python; export VIRTUAL_ENV=$v PATH=$v/bin:$PATH; break; fi; ` +
        `done; fi; exec "$PY" ${shq(`./${entry}`)}`,
      env: { PATH: BASE_PATH, HOME: '/tmp', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1', PYTHONNOUSERSITE: '1' },
      network: {}, cache: 'none',
    };
  },
};
