// The weak tier of the package-use check (package-use.ts): what a program that imports the package but prints nothing
// from a call into it may still show. Verification counts a weak use only when no candidate reaches a strong one
// (verify.ts).
import { descendants, type SyntaxNode } from './parse.ts';
import type { Flow } from './use-flow.ts';
import { argumentsOf, CALLS, calleeOf, refs } from './use-syntax.ts';

/**
 * The weak tier, for packages whose main export is a value (a boolean, a data table, a colour map) and APIs used for
 * their side effect (copy a directory, write a file, load settings into the environment), whose docs hold no program
 * that prints a call's result. Either a print holds one of the package's bindings (the binding itself or a member read
 * of it: `console.log(isCI)`, `signalsByName.SIGINT`), or a call into the package comes before a print of a computed
 * value (not only literals: `print('done')` after the call shows nothing of it).
 */
export function weakUse(root: SyntaxNode, flow: Flow, prints: (call: SyntaxNode) => boolean): string | undefined {
  const calls = descendants(root, CALLS);
  const printed = calls.filter(prints);
  for (const call of printed) {
    const read = argumentsOf(call).flatMap(refs).find((n) => flow.bindings.has(n));
    if (read) return `it prints a value read from the package (${read}) rather than a call's result`;
  }
  const first = calls.find((c) => !prints(c) && flow.intoPackage(c));
  if (!first) return undefined;
  const computed = printed.find((p) => p.startIndex > first.endIndex && argumentsOf(p).some(computedValue));
  return computed ? `it calls into the package (${calleeOf(first)?.text}) and then shows the effect (${calleeOf(computed)?.text})` : undefined;
}

/** Whether an argument list holds something computed: a name or a call, not only literals. */
function computedValue(args: SyntaxNode): boolean {
  return refs(args).length > 0 || descendants(args, CALLS).length > 0;
}
