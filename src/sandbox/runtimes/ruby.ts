// ruby: gem install into a per-session gem home from the operator's gem source (native extensions are package
// code, so no shared cache); a loopback source is reached through the slirp gateway on that one port only.
import { badPackage } from './spec.ts';
import { BASE_PATH, DEPS, shq, type RuntimeAdapter } from './types.ts';

const GEM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const GEM_VERSION = /^[=~<>! ]*[0-9][0-9A-Za-z.]{0,40}$/;
const GEM_HOME = `${DEPS}/gems`;

export const rubyRuntime: RuntimeAdapter = {
  runtime: 'ruby',
  parsePackage(raw) {
    const [name = '', version, extra] = raw.split(/[@:]/);
    if (extra !== undefined || !GEM.test(name) || (version !== undefined && !GEM_VERSION.test(version))) badPackage(raw, 'RubyGems', 'rack@3.1.8');
    return { name: name.toLowerCase(), spec: version === undefined ? name : `${name}:${version}` };
  },
  install(ctx, added) {
    const gem = ctx.toolchain.paths.gem ?? 'gem';
    return {
      trusted: {
        name: 'install',
        script: `exec ${shq(gem)} install --no-document --install-dir ${GEM_HOME} --clear-sources --source ${shq(ctx.gemSource.url)} ` +
          added.map((p) => shq(p.spec)).join(' '),
        env: { PATH: BASE_PATH, HOME: '/tmp', GEM_HOME, GEM_PATH: GEM_HOME },
        workspace: 'none', deps: 'rw', cache: 'none',
        network: { hostPorts: ctx.gemSource.hostPort ? [ctx.gemSource.hostPort] : [] }, runsPackageCode: true,
      },
    };
  },
  run(ctx, entry) {
    return {
      name: 'run', script: `exec ${shq(ctx.toolchain.paths.ruby ?? 'ruby')} ${shq(`./${entry}`)}`,
      env: { PATH: `${GEM_HOME}/bin:${BASE_PATH}`, HOME: '/tmp', GEM_HOME, GEM_PATH: GEM_HOME },
      workspace: 'rw', deps: 'ro', cache: 'none', network: {}, runsPackageCode: true,
    };
  },
};
