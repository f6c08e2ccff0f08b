// Whether a program that ran shows the package at work: it imports the package, and what it prints depends on a call
// into it. A program can run and print without that (a README line that prints a URI literal, a Go block that prints
// zero-value local structs, a local copy of the package's settings type): such a run proves nothing about the package,
// so verification does not count it (verify.ts). Decided on the program's syntax tree (tree-sitter, parse.ts), per
// language, by a small flow analysis:
//   - bindings: the names the program's imports of the package bind (`import x`, `from p import A`, `use p::A`,
//     `const {A} = require('p')`, a Go import's package name or alias);
//   - derived: names whose value comes from a call into the package (`x = p.parse(s)`), transitively (`y = x.year`),
//     and the loop, match and callback parameters fed by them; local functions whose body calls into the package and
//     local types built by the package (a Python class with a package base, a Rust type with a package derive);
//   - a print (console.log, print, println!, fmt.Println, a local helper that prints its parameters) whose arguments
//     hold a derived name or a call into the package, or a call into the package that writes output itself
//     (`table.Render()`, `logger.info(…)`).
// Imports that bind nothing (a side-effect import, a Go blank import registering a driver) and wildcard imports
// (`from p import *`, `use p::prelude::*`, a Go dot import) cannot be followed by name: they are accepted. Scopes are
// not modelled (a name derived anywhere counts everywhere): the analysis errs toward accepting, so that only programs
// that plainly never reach the package are turned away.
// The check's parts, one job each: use-imports.ts (the package's imports per language), use-flow.ts (the flow from
// them to a print), use-tiers.ts (the weak tier); use-syntax.ts holds the syntax-tree helpers they share. This module
// decides the verdict.
import { descendants, withSyntaxTree, type SyntaxNode } from './parse.ts';
import { Flow, OUTPUT_VERBS, PRINTS, printingHelpers } from './use-flow.ts';
import { importsOf, type PackageRef } from './use-imports.ts';
import { weakUse } from './use-tiers.ts';
import { argumentsOf, CALLS, calleeOf, grammarFor, refs } from './use-syntax.ts';

export type { PackageRef } from './use-imports.ts';

/** Why a program was turned away, as a code callers compare (the `why` text is for people and may change). */
export type PackageUseRefusal = 'never_imports' | 'no_output_from_package';
/**
 * `uses`: the strong verdict (what it prints depends on a call into the package). `weak`, only when `uses` is false:
 * why the program still shows the package at work in a lesser way (it prints a value read from one of the package's
 * bindings, or it calls into the package and then prints a computed value: a side effect shown through the standard
 * library). Verification counts a weak use only when no candidate reaches a strong one (verify.ts).
 */
export interface PackageUse { uses: boolean; why: string; refusal?: PackageUseRefusal; weak?: string }
export const NEVER_IMPORTS = 'it never imports the package';

/** Whether `program` imports the package and prints something that depends on a call into it. */
export async function programUsesPackage(program: string, ref: PackageRef, path?: string): Promise<PackageUse> {
  const grammar = grammarFor(ref.ecosystem, path);
  if (!grammar) return { uses: true, why: 'no parser for this ecosystem' };
  return withSyntaxTree(grammar, program, (root) => {
    const { bindings, imported, opaque } = importsOf(root, ref);
    if (!imported && !(ref.ecosystem === 'crates' && refs(root).includes(ref.importName))) return { uses: false, why: NEVER_IMPORTS, refusal: 'never_imports' };
    if (opaque) return { uses: true, why: `imports the package through ${opaque}` };
    // Rust: a name brought in by `use` and never named again is a trait imported for its methods (`use p::Reference;`
    // then `d.duration_since(…)`): which calls are the trait's cannot be told without the crate's API.
    if (ref.ecosystem === 'crates') {
      const named = refs(root);
      const trait = [...bindings].find((b) => b !== ref.importName && named.filter((n) => n === b).length === 1);
      if (trait) return { uses: true, why: `imports ${trait}, named nowhere else (a trait's methods)` };
    }
    const flow = new Flow(bindings, ref.ecosystem);
    flow.run(root);
    const printsBuiltin = (call: SyntaxNode) => PRINTS[ref.ecosystem]!.test(calleeOf(call)?.text ?? '');
    const helpers = printingHelpers(root, ref.ecosystem, printsBuiltin);
    for (const call of descendants(root, CALLS)) {
      const callee = calleeOf(call)?.text ?? '';
      if (printsBuiltin(call) || helpers.has(callee)) {
        if (argumentsOf(call).some((a) => flow.fromPackage(a))) return { uses: true, why: `prints a value from the package (${callee})` };
        // Printed from a callback the package runs (a worker, a handler): the package decides that it prints. A
        // computed value, not only a literal (as the weak tier asks of an effect shown afterwards).
        if (flow.inCallback(call) && argumentsOf(call).some((a) => refs(a).length > 0 || descendants(a, CALLS).length > 0)) return { uses: true, why: `prints from a callback the package runs (${callee})` };
        continue;
      }
      const last = callee.split(/\.|::/).pop() ?? '';
      if (OUTPUT_VERBS.test(last) && flow.intoPackage(call)) return { uses: true, why: `the package writes the output (${callee})` };
    }
    const weak = weakUse(root, flow, (call) => printsBuiltin(call) || helpers.has(calleeOf(call)?.text ?? ''));
    return { uses: false, why: 'nothing it prints comes from a call into the package', refusal: 'no_output_from_package', ...(weak ? { weak } : {}) };
  });
}
