// Per-ecosystem facts derived from a tool's name: default install command, registry page, icon.
import type { Ecosystem, ToolRecord } from './types.ts';

export function installCommand(ecosystem: Ecosystem, name: string): string {
  switch (ecosystem) {
    case 'npm': return `npm install ${name}`;
    case 'pypi': return `pip install ${name}`;
    case 'crates': return `cargo add ${name}`;
    case 'go': return `go get ${name}`;
    case 'rubygems': return `gem install ${name}`;
  }
}

export function registryPage(ecosystem: Ecosystem, name: string): string {
  switch (ecosystem) {
    case 'npm': return `https://www.npmjs.com/package/${name}`;
    case 'pypi': return `https://pypi.org/project/${name}/`;
    case 'crates': return `https://crates.io/crates/${name}`;
    case 'go': return `https://pkg.go.dev/${name}`;
    case 'rubygems': return `https://rubygems.org/gems/${name}`;
  }
}

/** Icon served by tooldex itself (GET /icons/:ecosystem.svg), so results never point at third-party images. */
export const ecosystemIcon = (ecosystem: Ecosystem) => `/icons/${ecosystem}.svg`;

export function docsUrlOf(tool: Pick<ToolRecord, 'docsUrl' | 'homepage' | 'repository'>): string | null {
  return tool.docsUrl ?? tool.homepage ?? tool.repository ?? null;
}
