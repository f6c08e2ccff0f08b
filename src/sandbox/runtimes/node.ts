// node: packages with bun (trusted, lifecycle scripts off) into the session's deps; .js/.mjs/.cjs run on node,
// .ts/.tsx/.mts/.cts on node with the tsx loader (no build step).
import { badPackage, VERSION } from './spec.ts';
import { BASE_PATH, CACHE, DEPS, shq, type RuntimeAdapter } from './types.ts';

const NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i;

export const nodeRuntime: RuntimeAdapter = {
  runtime: 'node',
  parsePackage(raw) {
    const at = raw.indexOf('@', 1);
    const name = at === -1 ? raw : raw.slice(0, at);
    const version = at === -1 ? undefined : raw.slice(at + 1);
    if (!NAME.test(name) || name.length > 214 || (version !== undefined && !VERSION.test(version))) badPackage(raw, 'npm', 'zod@3.23.8');
    return { name: name.toLowerCase(), spec: raw };
  },
  install(ctx, added) {
    const bun = ctx.toolchain.paths.bun ?? 'bun';
    return {
      trusted: {
        name: 'install',
        script: `cd ${DEPS} && { [ -f package.json ] || printf '{"name":"sandbox-deps","private":true}\\n' > package.json; } && ` +
          `exec ${shq(bun)} add --ignore-scripts --no-progress ${added.map((p) => shq(p.spec)).join(' ')}`,
        env: {
          PATH: BASE_PATH, HOME: '/tmp', BUN_INSTALL_CACHE_DIR: CACHE, NPM_CONFIG_REGISTRY: ctx.npmRegistry,
          DO_NOT_TRACK: '1', BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0',
        },
        workspace: 'none', deps: 'rw', cache: 'rw', network: {}, runsPackageCode: false,
      },
    };
  },
  run(ctx, entry) {
    const node = ctx.toolchain.paths.node ?? 'node';
    const typescript = /\.(ts|tsx|mts|cts)$/.test(entry);
    const loader = typescript ? `--import ${shq(`file://${ctx.toolchain.paths.tsxLoader}`)} ` : '';
    return {
      name: 'run',
      script: `exec ${shq(node)} --experimental-detect-module --disable-warning=ExperimentalWarning ${loader}${shq(`./${entry}`)}`,
      env: { PATH: BASE_PATH, HOME: '/tmp', NODE_ENV: 'development' },
      workspace: 'rw', deps: 'ro', cache: 'none', network: {}, depsIntoWorkspace: 'node_modules', runsPackageCode: true,
    };
  },
};
