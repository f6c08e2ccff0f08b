// ruby: `gem install` fetches and builds native extensions in one command, so it is a run step (no shared cache, the
// session's timeoutMs): the session's pins are installed together into a fresh gem home, swapped in on success.
import { badPackage, refuseLocalFile } from './spec.ts';
import { BASE_PATH, BUILD, shq, sourceNetwork, type RuntimeAdapter } from './types.ts';

const GEM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const GEM_VERSION = /^[=~<>! ]*[0-9][0-9A-Za-z.]{0,40}$/;
const GEM_HOME = `${BUILD}/gems`;

export const rubyRuntime: RuntimeAdapter = {
  runtime: 'ruby',
  parsePackage(raw) {
    const [name = '', version, extra] = raw.split(/[@:]/);
    refuseLocalFile(raw, name, 'RubyGems');
    if (extra !== undefined || !GEM.test(name) || (version !== undefined && !GEM_VERSION.test(version))) badPackage(raw, 'RubyGems', 'rack@3.1.8');
    return { name: name.toLowerCase(), spec: version === undefined ? name : `${name}:${version}` };
  },
  install(ctx, plan) {
    const gem = ctx.toolchain.paths.gem ?? 'gem';
    return {
      first: {
        kind: 'run', name: 'install',
        // From the empty private /tmp: `gem install` also takes *.gem files from its working folder.
        script: `cd /tmp && rm -rf ${GEM_HOME}.next && ${shq(gem)} install --no-document --install-dir ${GEM_HOME}.next --clear-sources ` +
          `--source ${shq(`${ctx.source.url}/`)} ${plan.all.map((p) => shq(p.spec)).join(' ')} && rm -rf ${GEM_HOME} && mv ${GEM_HOME}.next ${GEM_HOME}`,
        env: { PATH: BASE_PATH, HOME: '/tmp', GEM_HOME: `${GEM_HOME}.next`, GEM_PATH: `${GEM_HOME}.next` },
        network: sourceNetwork(ctx), cache: 'none',
      },
    };
  },
  run(ctx, entry) {
    return {
      kind: 'run', name: 'run', script: `exec ${shq(ctx.toolchain.paths.ruby ?? 'ruby')} ${shq(`./${entry}`)}`,
      env: { PATH: `${GEM_HOME}/bin:${BASE_PATH}`, HOME: '/tmp', GEM_HOME, GEM_PATH: GEM_HOME },
      network: {}, cache: 'none',
    };
  },
};
