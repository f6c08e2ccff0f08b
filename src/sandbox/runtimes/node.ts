// node: packages with bun into the session's /deps (a fetch step: lifecycle scripts off, tarballs checked against the
// registry's integrity field); .js/.mjs/.cjs run on node, .ts/.tsx/.mts/.cts on node with the tsx loader.
import { badPackage, refuseLocalFile, VERSION } from './spec.ts';
import { BASE_PATH, CACHE, DEPS, FETCH_BASE_ENV, shq, sourceNetwork, type RuntimeAdapter } from './types.ts';

const NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i;

export const nodeRuntime: RuntimeAdapter = {
  runtime: 'node',
  parsePackage(raw) {
    const at = raw.indexOf('@', 1);
    const name = at === -1 ? raw : raw.slice(0, at);
    const version = at === -1 ? undefined : raw.slice(at + 1);
    refuseLocalFile(raw, name, 'npm');
    if (!NAME.test(name) || name.length > 214 || (version !== undefined && !VERSION.test(version))) badPackage(raw, 'npm', 'zod@3.23.8');
    return { name: name.toLowerCase(), spec: raw };
  },
  install(ctx, plan) {
    const bun = ctx.toolchain.paths.bun ?? 'bun';
    return {
      first: {
        kind: 'fetch',
        name: 'install',
        // /deps is written by fetch steps only, so its package.json, lockfile and any bunfig/.npmrc there are bun's own.
        script: `cd ${DEPS} && { [ -f package.json ] || printf '{"name":"sandbox-deps","private":true}\\n' > package.json; } && ` +
          `exec ${shq(bun)} add --ignore-scripts --no-progress --no-summary ${plan.changed.map((p) => shq(p.spec)).join(' ')}`,
        env: {
          ...FETCH_BASE_ENV, BUN_INSTALL_CACHE_DIR: CACHE, BUN_CONFIG_REGISTRY: `${ctx.source.url}/`, NPM_CONFIG_REGISTRY: `${ctx.source.url}/`,
          NPM_CONFIG_USERCONFIG: '/dev/null', DO_NOT_TRACK: '1', BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0',
        },
        network: sourceNetwork(ctx),
      },
    };
  },
  run(ctx, entry) {
    const node = ctx.toolchain.paths.node ?? 'node';
    const typescript = /\.(ts|tsx|mts|cts|jsx)$/.test(entry);
    const loader = typescript ? `--import ${shq(`file://${ctx.toolchain.paths.tsxLoader}`)} ` : '';
    return {
      kind: 'run',
      name: 'run',
      script: `exec ${shq(node)} --experimental-detect-module --disable-warning=ExperimentalWarning ${loader}${shq(`./${entry}`)}`,
      env: { PATH: BASE_PATH, HOME: '/tmp', NODE_ENV: 'development' },
      network: {}, cache: 'none', depsIntoWorkspace: 'node_modules',
    };
  },
};
