// Families of packages: sub-packages and companions (`clap_builder`, `@vitest/runner`, `tracing-log`, rails'
// `active*` gems, `boto3-stubs`) grouped with the package a person would install (the head). Pure; built once per index.
import type { Ecosystem } from './types.ts';

export interface FamilyInput {
  ecosystem: Ecosystem;
  name: string;
  repository: string | null;
  /** Popularity within the ecosystem (0..1); the most popular member heads its family. */
  popularity: number;
}

/** A repository URL as a family key: host/owner/repo, lower case, without .git, paths or fragments. */
export function repositoryKey(url: string | null): string | undefined {
  if (!url) return undefined;
  const match = url.toLowerCase().match(/^https?:\/\/(?:www\.)?([^/]+)\/([^/#?]+)\/([^/#?]+)/);
  if (!match) return undefined;
  return `${match[1]}/${match[2]}/${match[3]!.replace(/\.git$/, '')}`;
}

/** Families no name or repository in the shipped data reveals (gems from the seed list carry no repository). */
const KNOWN_FAMILIES: Array<{ ecosystem: Ecosystem; head: string; members: string[] }> = [
  { ecosystem: 'rubygems', head: 'rails', members: ['activesupport', 'activerecord', 'actionpack', 'actionview', 'activemodel',
    'actionmailer', 'activejob', 'actioncable', 'activestorage', 'railties', 'actiontext', 'actionmailbox'] },
];

/** Repositories that hold unrelated packages: their members are not one family. */
const NOT_A_FAMILY = new Set(['github.com/definitelytyped/definitelytyped', 'github.com/sindresorhus/modules']);

/**
 * The head of each tool's family, as an index into `tools` (a tool that heads its own family or has none maps to
 * itself). Members share an ecosystem and either a repository, an npm scope (with the unscoped package of the scope's
 * name, `@vitest/*` → `vitest`), or a name prefix (`clap_derive` → `clap`) when one of the two has no repository.
 */
export function familyHeads(tools: FamilyInput[]): Int32Array {
  const parent = Int32Array.from(tools, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[ra] = rb;
  };
  const byName = new Map<string, number>();
  const byRepo = new Map<string, number>();
  tools.forEach((tool, i) => {
    byName.set(`${tool.ecosystem}:${normal(tool.name)}`, i);
    const repo = repositoryKey(tool.repository);
    if (repo && !NOT_A_FAMILY.has(repo)) {
      const key = `${tool.ecosystem}:${repo}`;
      const other = byRepo.get(key);
      if (other === undefined) byRepo.set(key, i);
      else union(i, other);
    }
  });
  for (const family of KNOWN_FAMILIES) {
    const head = byName.get(`${family.ecosystem}:${family.head}`);
    for (const member of family.members) {
      const i = byName.get(`${family.ecosystem}:${member}`);
      if (head !== undefined && i !== undefined) union(i, head);
    }
  }
  tools.forEach((tool, i) => {
    const name = normal(tool.name);
    const scope = tool.ecosystem === 'npm' ? name.match(/^@([^/]+)\//)?.[1] : undefined;
    if (scope && scope !== 'types') {
      const head = byName.get(`npm:${scope}`);
      if (head !== undefined) union(i, head);
      return;
    }
    if (tool.ecosystem === 'go') return; // module paths already group by their repository
    // Not a dot: `discord.js`, `chart.js` and `zope.interface` are projects of their own, not companions of a prefix.
    const match = name.match(/^([a-z0-9]+)[-_](.+)$/);
    const prefix = match?.[1];
    if (!prefix || prefix.length < 3) return;
    const head = byName.get(`${tool.ecosystem}:${prefix}`);
    if (head === undefined || head === i) return;
    const repositories = [repositoryKey(tool.repository), repositoryKey(tools[head]!.repository)] as const;
    if (prefixCompanion(tool.ecosystem, prefix, match[2]!, ...repositories)) union(i, head);
  });
  // The package a person installs heads each group: the one the family is named after (`eslint` for `@eslint/js` and
  // `eslint-scope`, not `espree` of the same repository), then an unscoped name (vitest, not @vitest/runner), the shortest
  // (eslint, not eslint-visitor-keys, however many more downloads the helper has), then the most popular; for Go the
  // most popular (github.com/golang-jwt/jwt/v5, not the older v3 path).
  const members = new Map<number, number[]>();
  tools.forEach((_, i) => {
    const root = find(i);
    const list = members.get(root);
    if (list) list.push(i);
    else members.set(root, [i]);
  });
  const named = new Int32Array(tools.length);
  for (const list of members.values()) {
    if (list.length < 2) continue;
    const stems = new Map<string, number>();
    for (const i of list) {
      const name = normal(tools[i]!.name);
      const stem = name.match(/^@([^/]+)\//)?.[1] ?? name.match(/^([a-z0-9]+)[-_]/)?.[1];
      if (stem) stems.set(stem, (stems.get(stem) ?? 0) + 1);
    }
    for (const i of list) named[i] = stems.get(normal(tools[i]!.name)) ?? 0;
  }
  const best = new Map<number, number>();
  const better = (i: number, j: number) => {
    const [a, b] = [tools[i]!, tools[j]!];
    // Go modules of one repository are its major versions and submodules: the most used one heads them.
    if (a.ecosystem === 'go') return a.popularity > b.popularity;
    if ((named[i]! > 0) !== (named[j]! > 0)) return named[i]! > 0;
    const scopedA = a.name.startsWith('@');
    const scopedB = b.name.startsWith('@');
    if (scopedA !== scopedB) return scopedB;
    if (!scopedA && a.name.length !== b.name.length) return a.name.length < b.name.length;
    return a.popularity > b.popularity;
  };
  tools.forEach((_, i) => {
    const root = find(i);
    const current = best.get(root);
    if (current === undefined || better(i, current)) best.set(root, i);
  });
  return Int32Array.from(tools, (_, i) => best.get(find(i))!);
}

const normal = (name: string) => name.toLowerCase().replace(/_/g, '-');

/** Name endings of sub-packages that exist for their head (derive macros, internals, native bindings, type stubs). */
const COMPANION_SUFFIX = /^(derive|macros?|proc-macros?|core|sys|impl|internals?|shared|common|codegen|build|builder|lex|types|stubs|typings|runtime|attributes)$/;

/**
 * Whether a name prefix (`tracing` of `tracing-log`) is evidence of one family. Joining on any shared prefix chained
 * whole npm monorepos into one 1,689-package "family" (`babel-jest` → `babel`, `pretty-format` → `pretty`,
 * `eslint-config-react-app` → `eslint`) that hid eslint behind jest. So:
 * - both repositories known: the repository rule has decided (the same one is already a family);
 * - only the member's known: it must be the head's repository by name or owner (`tokio-rs/tracing` for `tracing-log`,
 *   `PyO3/pyo3-async-runtimes` for `pyo3-…`), not another project's (`jestjs/jest` for `babel-jest`);
 * - the member's unknown (a seed-list record): on crates.io, PyPI and RubyGems a prefix names the host a package
 *   extends (`pyo3-…`, `django-…`, `rspec-…`); on npm it is as often a plain word (`use-…`, `node-…`, `react-…`), so
 *   there only a companion's name counts (`…-types`, `…-core`).
 */
export function prefixCompanion(
  ecosystem: Ecosystem, prefix: string, rest: string, member: string | undefined, head: string | undefined,
): boolean {
  if (member && head) return false;
  if (member) {
    const [, owner = '', repo = ''] = member.split('/');
    // The owner may carry the language (`tokio-rs`, `serde-rs`, `pyo3`).
    return normal(repo) === prefix || normal(owner).replace(/-?(rs|rb|py|js)$/, '') === prefix || normal(owner) === prefix;
  }
  return ecosystem !== 'npm' || COMPANION_SUFFIX.test(normal(rest));
}
