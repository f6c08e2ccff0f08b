// Test calls in a project: a package named without a version is installed at the version the project uses, in the
// runtime's own spelling (zod@3.25.76, requests==2.32.3, tokio@1.40.0[macros], github.com/x/y@v1.2.3, rails@7.1.4).
import type { Ecosystem } from '../catalog/types.ts';
import { toSlug } from '../catalog/slug.ts';
import type { ResolvedDependency } from './resolve.ts';

const RUNTIME_ECOSYSTEM: Record<string, Ecosystem> = { node: 'npm', python: 'pypi', rust: 'crates', golang: 'go', ruby: 'rubygems' };

/** A package named without any version, per runtime: [name, what follows the name (extras, features)]. */
const BARE: Record<Ecosystem, RegExp> = {
  npm: /^((?:@[\w.~-]+\/)?[\w.~-]+)()$/,
  pypi: /^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[A-Za-z0-9._,-]+\])?$/,
  crates: /^([A-Za-z][\w-]*)(\[[\w+.,-]+\])?$/,
  go: /^([a-z0-9][\w.~/-]*)()$/,
  rubygems: /^([\w.-]+)()$/,
};

export function pinToProject(runtime: string, packages: string[], dependencies: ResolvedDependency[]): string[] {
  const ecosystem = RUNTIME_ECOSYSTEM[runtime];
  if (!ecosystem) return packages;
  const versions = new Map(dependencies.filter((d) => d.ecosystem === ecosystem && d.version).map((d) => [d.slug, d.version!]));
  return packages.map((spec) => {
    const bare = BARE[ecosystem].exec(spec.trim());
    if (!bare) return spec; // already pinned or ranged: the caller's choice stands
    const [, name = '', suffix = ''] = bare;
    const version = versions.get(toSlug(ecosystem, name));
    if (!version) return spec;
    if (ecosystem === 'pypi') return `${name}${suffix}==${version}`;
    // Rust features follow the version (tokio@1.40.0[macros]); Go versions keep their v.
    return `${name}@${version}${suffix}`;
  });
}
