// `#[cfg(…)]` predicates read for one build target (a quickstart builds on the sandbox's own target, the docs index
// reads a crate as docs.rs documents it): which items a crate compiles there, including the branch a
// `cfg_if! { if #[cfg(…)] { … } else { … } }` chain keeps. Text only.
import type { SyntaxNode } from './treesitter.ts';

export interface BuildTarget {
  /** Name-value options: target_os, target_family, target_arch, target_pointer_width, target_env, target_endian… */
  values: Record<string, string[]>;
  /** Options set by name alone: unix, windows, debug_assertions… */
  names: string[];
  /** Enabled features of the crate being read (`feature = "std"`). */
  features: string[];
  /** Every `feature = "…"` holds (`--all-features`), whatever `features` lists. */
  allFeatures?: boolean;
}

/**
 * The target docs.rs documents a crate for: x86_64-unknown-linux-gnu, built by rustdoc (`doc`) with `--cfg docsrs`
 * and the crate's own `[package.metadata.docs.rs]` cfgs (`rustdoc-args = ["--cfg", "tokio_unstable"]`). Every feature
 * counts as enabled: a feature-gated item stays in the index (a reader can turn the feature on, and crates that gate
 * API behind features mostly ask docs.rs to build them: `all-features = true`, `features = ["full"]`), while a
 * `not(feature = …)` fallback, which docs.rs hides whenever it builds that feature, does not duplicate it.
 */
export function docsRsTarget(extraNames: string[] = []): BuildTarget {
  return {
    values: {
      target_os: ['linux'], target_family: ['unix'], target_arch: ['x86_64'], target_endian: ['little'],
      target_pointer_width: ['64'], target_env: ['gnu'], target_vendor: ['unknown'],
      target_has_atomic: ['8', '16', '32', '64', 'ptr'], panic: ['unwind'],
    },
    names: ['unix', 'debug_assertions', 'doc', 'docsrs', ...extraNames],
    features: [],
    allFeatures: true,
  };
}

/** The `--cfg` names a crate's `[package.metadata.docs.rs]` passes to rustdoc and rustc (`["--cfg", "x"]`, `"--cfg=x"`). */
export function docsRsCfgNames(metadata: { 'rustdoc-args'?: unknown; 'rustc-args'?: unknown } | undefined): string[] {
  const names = new Set<string>();
  for (const args of [metadata?.['rustdoc-args'], metadata?.['rustc-args']]) {
    if (!Array.isArray(args)) continue;
    args.forEach((arg, i) => {
      const value = arg === '--cfg' ? args[i + 1] : typeof arg === 'string' && arg.startsWith('--cfg=') ? arg.slice(6) : undefined;
      // Name-only cfgs: a `key="value"` one would need the value kept too, and crates rarely pass those to docs.rs.
      if (typeof value === 'string' && /^[A-Za-z_]\w*$/.test(value)) names.add(value);
    });
  }
  return [...names];
}

/** The target of this machine (where the sandbox builds), with the crate's enabled features. */
export function hostTarget(features: string[] = []): BuildTarget {
  const arch = ({ x64: 'x86_64', arm64: 'aarch64', ia32: 'x86', arm: 'arm' } as Record<string, string>)[process.arch] ?? process.arch;
  const os = process.platform === 'darwin' ? 'macos' : process.platform === 'win32' ? 'windows' : process.platform;
  const unix = os !== 'windows';
  const glibc = Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime);
  return {
    values: {
      target_os: [os], target_family: [unix ? 'unix' : 'windows'], target_arch: [arch], target_endian: ['little'],
      target_pointer_width: [/64/.test(arch) ? '64' : '32'], target_env: [os === 'linux' ? (glibc ? 'gnu' : 'musl') : ''],
      target_vendor: [os === 'macos' ? 'apple' : os === 'windows' ? 'pc' : 'unknown'], target_has_atomic: ['8', '16', '32', '64', 'ptr'], panic: ['unwind'],
    },
    names: [unix ? 'unix' : 'windows', 'debug_assertions'],
    features,
  };
}

/** The predicate of a `cfg(…)` attribute's text (`cfg(feature = "std")` → `feature = "std"`); undefined for any other. */
export function cfgPredicate(attributeText: string): string | undefined {
  return /^\s*cfg\s*\(([\s\S]*)\)\s*$/.exec(attributeText)?.[1];
}

/** A cfg predicate's tree: `all(…)`, `any(…)`, `not(…)`; `key = "value"` (value undefined when not a plain string); a name. */
export type CfgPredicate = { op: 'all' | 'any' | 'not'; parts: CfgPredicate[] } | { key: string; value: string | undefined } | { name: string };

/** Reads a cfg predicate (`all(unix, not(target_os = "aix"))`) into its tree. */
export function parseCfg(predicate: string): CfgPredicate {
  const tokens = predicate.match(/"(?:[^"\\]|\\.)*"|[A-Za-z_][\w]*|[(),=]/g) ?? [];
  let i = 0;
  const read = (): CfgPredicate => {
    const name = tokens[i++] ?? '';
    if (tokens[i] === '(' && /^(all|any|not)$/.test(name)) {
      i++;
      const parts: CfgPredicate[] = [];
      while (i < tokens.length && tokens[i] !== ')') {
        parts.push(read());
        if (tokens[i] === ',') i++;
      }
      i++;
      return { op: name as 'all' | 'any' | 'not', parts };
    }
    if (tokens[i] === '=') {
      i++;
      return { key: name, value: plainString(tokens[i++] ?? '""') };
    }
    return { name };
  };
  return read();
}

function plainString(token: string): string | undefined {
  if (!token.startsWith('"')) return undefined;
  try { return JSON.parse(token) as string; } catch { return undefined; }
}

/** Whether a cfg predicate (`all(unix, not(target_os = "aix"))`) holds for the target; unknown options do not. */
export function cfgHolds(predicate: string, target: BuildTarget): boolean {
  return cfgTreeHolds(parseCfg(predicate), target);
}

/** Whether a read predicate holds for the target; one with a value that is not a plain string anywhere does not. */
export function cfgTreeHolds(predicate: CfgPredicate, target: BuildTarget): boolean {
  const holds = (p: CfgPredicate): boolean => {
    if ('op' in p) {
      // Every part is evaluated (no short cut), so an unreadable value anywhere makes the whole predicate false.
      const parts = p.parts.map(holds);
      return p.op === 'all' ? parts.every(Boolean) : p.op === 'any' ? parts.some(Boolean) : !parts[0];
    }
    if ('key' in p) {
      if (p.value === undefined) throw new Error('unreadable cfg value');
      return p.key === 'feature' ? Boolean(target.allFeatures) || target.features.includes(p.value) : (target.values[p.key] ?? []).includes(p.value);
    }
    return target.names.includes(p.name);
  };
  try { return holds(predicate); } catch { return false; }
}

/**
 * The branch of a `cfg_if!`-shaped macro input (`if #[cfg(p)] { … } else if #[cfg(q)] { … } else { … }`) the target
 * keeps: its `{ … }` token tree; null when no branch holds; undefined when the input does not have that shape.
 */
export function cfgBranch(tokens: SyntaxNode, target: BuildTarget): SyntaxNode | null | undefined {
  const children = tokens.children.filter((c): c is SyntaxNode => c !== null).slice(1, -1);
  if (children[0]?.text !== 'if' || children[1]?.text !== '#') return undefined;
  let i = 0;
  while (i < children.length) {
    let holds = true;
    if (children[i]?.text === 'if') {
      const attribute = children[i + 2];
      const text = attribute?.text ?? '';
      const predicate = text.startsWith('[') && text.endsWith(']') ? cfgPredicate(text.slice(1, -1)) : undefined;
      if (children[i + 1]?.text !== '#' || predicate === undefined) return undefined;
      holds = cfgHolds(predicate, target);
      i += 3;
    }
    const body = children[i];
    if (!body || body.type !== 'token_tree' || !body.text.startsWith('{')) return undefined;
    if (holds) return body;
    i++;
    if (i >= children.length) return null;
    if (children[i]?.text !== 'else') return undefined;
    i++;
  }
  return null;
}
