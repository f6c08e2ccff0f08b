// A gem with a README usage example, built by `gem build`, served on 127.0.0.1 both as a RubyGems API (versions, .gem
// file: what the docs and quickstart capabilities read) and as a gem source indexed by `gem generate_index` (installs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sendFileUnder } from '../../helpers/static-files.ts';

export const GEM = { name: 'tooldex_qs', version: '0.3.0' };

export async function startGemRegistry(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-qs-gems-'));
  const src = path.join(dir, 'src');
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(path.join(src, 'lib'), { recursive: true });
  fs.mkdirSync(path.join(repo, 'gems'), { recursive: true });
  fs.writeFileSync(path.join(src, `${GEM.name}.gemspec`), `Gem::Specification.new do |s|
  s.name = '${GEM.name}'
  s.version = '${GEM.version}'
  s.summary = 'tooldex quickstart test gem'
  s.authors = ['tooldex']
  s.files = ['lib/${GEM.name}.rb', 'README.md']
  s.license = 'MIT'
end
`);
  fs.writeFileSync(path.join(src, 'lib', `${GEM.name}.rb`), 'module ToolDexQs\n  def self.greet(name) = "hello #{name} from a verified gem"\nend\n');
  fs.writeFileSync(path.join(src, 'README.md'), `# ${GEM.name}\n\n## Install\n\n\`\`\`sh\ngem install ${GEM.name}\n\`\`\`\n\n## Usage\n\n\`\`\`ruby\nrequire '${GEM.name}'\n\nputs ToolDexQs.greet('world')\n\`\`\`\n`);
  execFileSync('gem', ['build', `${GEM.name}.gemspec`], { cwd: src, stdio: 'ignore' });
  const gemFile = `${GEM.name}-${GEM.version}.gem`;
  fs.copyFileSync(path.join(src, gemFile), path.join(repo, 'gems', gemFile));
  execFileSync('gem', ['generate_index', '--directory', repo], { stdio: 'ignore' });
  const server = http.createServer((request, response) => {
    const url = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
    if (url === `/api/v1/versions/${GEM.name}.json`) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ number: GEM.version, prerelease: false, licenses: ['MIT'], summary: 'tooldex quickstart test gem' }]));
      return;
    }
    sendFileUnder(repo, url, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
