// python: a per-session virtual environment in the deps folder; packages installed by the host interpreter's pip
// (wheels only, shared cache) with an sdist fallback that may run build code (no shared cache then).
import { badPackage } from './spec.ts';
import { BASE_PATH, CACHE, DEPS, shq, type RuntimeAdapter, type RuntimeContext, type ParsedPackage } from './types.ts';

const SPEC = /^([A-Za-z0-9][A-Za-z0-9._-]{0,127})(\[[A-Za-z0-9._,-]+\])?((===?|>=|<=|~=|!=|<|>)[0-9A-Za-z.*+!-]{1,40}(,(===?|>=|<=|~=|!=|<|>)[0-9A-Za-z.*+!-]{1,40})*)?$/;
const VENV = `${DEPS}/venv`;

function pipStep(ctx: RuntimeContext, added: ParsedPackage[], trusted: boolean) {
  const python = ctx.toolchain.paths.python ?? 'python3';
  const flags = trusted ? `--only-binary=:all: --cache-dir ${CACHE}` : '--no-cache-dir';
  return {
    name: 'install' as const,
    script: `{ [ -f ${VENV}/pyvenv.cfg ] || ${shq(python)} -m venv --without-pip ${VENV}; } && ` +
      `exec ${shq(python)} -m pip install --disable-pip-version-check --no-input --no-warn-script-location ` +
      `--prefix ${VENV} --ignore-installed ${flags} ${added.map((p) => shq(p.spec)).join(' ')}`,
    env: { PATH: BASE_PATH, HOME: '/tmp', PYTHONNOUSERSITE: '1', PIP_INDEX_URL: `${ctx.pypiUrl}/simple` },
    workspace: 'none' as const, deps: 'rw' as const, cache: trusted ? 'rw' as const : 'none' as const,
    network: {}, runsPackageCode: !trusted,
  };
}

export const pythonRuntime: RuntimeAdapter = {
  runtime: 'python',
  parsePackage(raw) {
    const match = SPEC.exec(raw);
    if (!match) badPackage(raw, 'PyPI', 'requests==2.32.3');
    return { name: (match[1] ?? raw).toLowerCase().replace(/[-_.]+/g, '-'), spec: raw };
  },
  install(ctx, added) {
    return { trusted: pipStep(ctx, added, true), fallback: pipStep(ctx, added, false) };
  },
  run(ctx, entry) {
    const python = ctx.toolchain.paths.python ?? 'python3';
    return {
      name: 'run',
      // A session that never installed a package has no venv: the interpreter itself runs the file.
      script: `PY=${VENV}/bin/python; [ -x "$PY" ] || PY=${shq(python)}; exec "$PY" ${shq(`./${entry}`)}`,
      env: { PATH: `${VENV}/bin:${BASE_PATH}`, HOME: '/tmp', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1', VIRTUAL_ENV: VENV },
      workspace: 'rw', deps: 'ro', cache: 'none', network: {}, runsPackageCode: true,
    };
  },
};
