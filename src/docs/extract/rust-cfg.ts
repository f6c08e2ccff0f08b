// `#[cfg(…)]` predicates read for one build target (a quickstart builds on the sandbox's own target): which items a
// crate compiles there, including the branch a `cfg_if! { if #[cfg(…)] { … } else { … } }` chain keeps. Text only.
import type { SyntaxNode } from './treesitter.ts';

export interface BuildTarget {
  /** Name-value options: target_os, target_family, target_arch, target_pointer_width, target_env, target_endian… */
  values: Record<string, string[]>;
  /** Options set by name alone: unix, windows, debug_assertions… */
  names: string[];
  /** Enabled features of the crate being read (`feature = "std"`). */
  features: string[];
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

/** Whether a cfg predicate (`all(unix, not(target_os = "aix"))`) holds for the target; unknown options do not. */
export function cfgHolds(predicate: string, target: BuildTarget): boolean {
  const tokens = predicate.match(/"(?:[^"\\]|\\.)*"|[A-Za-z_][\w]*|[(),=]/g) ?? [];
  let i = 0;
  const expr = (): boolean => {
    const name = tokens[i++] ?? '';
    if (tokens[i] === '(' && /^(all|any|not)$/.test(name)) {
      i++;
      const parts: boolean[] = [];
      while (i < tokens.length && tokens[i] !== ')') {
        parts.push(expr());
        if (tokens[i] === ',') i++;
      }
      i++;
      return name === 'all' ? parts.every(Boolean) : name === 'any' ? parts.some(Boolean) : !parts[0];
    }
    if (tokens[i] === '=') {
      i++;
      const value = JSON.parse(tokens[i++] ?? '""') as string;
      return name === 'feature' ? target.features.includes(value) : (target.values[name] ?? []).includes(value);
    }
    return target.names.includes(name);
  };
  try { return expr(); } catch { return false; }
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
      const cfg = /^\[\s*cfg\s*\(([\s\S]*)\)\s*\]$/.exec(attribute?.text ?? '');
      if (children[i + 1]?.text !== '#' || !cfg) return undefined;
      holds = cfgHolds(cfg[1]!, target);
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
