// rustc's own import suggestions as the repair of a name out of scope: which `use` lines are taken from its output
// (captured from rustc 1.x), which crate they need, and where they go in the program.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { suggestedUses, useRootKnown, withUses } from '../../../src/quickstart/programs/rustc-help.ts';
import { makeProgram, repairFor } from '../../../src/quickstart/programs/index.ts';
import type { PackageInfo } from '../../../src/quickstart/types.ts';

const TRAIT = `error[E0599]: no function or associated item named \`type_url\` found for struct \`prost_types::Any\` in the current scope
 --> src/main.rs:4:36
  |
4 |     println!("{}", prost_types::Any::type_url());
  |                                      ^^^^^^^^ function or associated item not found in \`prost_types::Any\`
  |
  = help: items from traits can only be used if the trait is in scope
help: trait \`Name\` which provides \`type_url\` is implemented but not in scope; perhaps you want to import it
  |
1 + use prost::Name;
  |

error[E0425]: cannot find type \`HashMap\` in this scope
 --> src/main.rs:3:12
  |
help: consider importing this struct
  |
1 + use std::collections::HashMap;
  |

error[E0412]: cannot find type \`Result\` in this scope
help: consider importing one of these items
  |
1 + use std::fmt::Result;
  |
1 + use std::io::Result;
  |

error[E0433]: failed to resolve: use of undeclared type \`Helper\`
help: consider importing this struct
  |
1 + use crate::helpers::Helper;
  |
`;

describe('rustc\'s import suggestions', () => {
  it('takes the one candidate of each help, never an ambiguous choice or a path into the program itself', () => {
    assert.deepEqual(suggestedUses(TRAIT, 'prost-types').map((u) => u.line), ['use prost::Name;', 'use std::collections::HashMap;']);
    // Among several candidates, the one from the crate under test.
    const several = 'help: consider importing one of these items\n  |\n1 + use other::Thing;\n  |\n1 + use my_crate::Thing;\n  |\n';
    assert.deepEqual(suggestedUses(several, 'my-crate').map((u) => u.line), ['use my_crate::Thing;']);
  });

  it('knows which crate a path needs: std, the crate itself, or a dependency it declares', () => {
    assert.equal(useRootKnown('std', 'prost-types', {}), '');
    assert.equal(useRootKnown('prost_types', 'prost-types', {}), '');
    assert.equal(useRootKnown('prost', 'prost-types', { prost: {} }), 'prost');
    assert.equal(useRootKnown('serde_json', 'x', { 'serde-json': {} }), 'serde-json');
    assert.equal(useRootKnown('unknown', 'x', {}), undefined);
  });

  it('puts the lines after the inner attributes', () => {
    assert.equal(withUses('#![allow(unused)]\nfn main() {}\n', ['use std::fmt::Write;']), '#![allow(unused)]\nuse std::fmt::Write;\nfn main() {}\n');
    assert.equal(withUses('use std::fmt::Write;\nfn main() {}', ['use std::fmt::Write;']), 'use std::fmt::Write;\nfn main() {}');
  });

  it('repairs the program: the use lines at the top and the crate they come from in the manifest and the packages', async () => {
    const info: PackageInfo = { ecosystem: 'crates', name: 'prost-types', slug: 'crates-prost-types', version: '0.14.1', importName: 'prost_types',
      rustDeps: { prost: { version: '^0.14.1', features: ['derive'] } } };
    const adjust = repairFor(info, TRAIT, {});
    assert.deepEqual(adjust?.rustUses, ['use prost::Name;', 'use std::collections::HashMap;']);
    assert.equal(repairFor(info, TRAIT, adjust!)?.rustUses, undefined, 'asked once');
    const host = { pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: {} };
    const program = await makeProgram({ code: 'println!("{}", prost_types::Any::type_url());', language: 'rust', origin: 'doctest', path: 'src/any.rs', source: 'u' }, info, host, adjust);
    const main = program.request.files.find((f) => f.path === 'src/main.rs')!.code;
    assert.match(main, /^use prost::Name;\nuse std::collections::HashMap;\n/m);
    assert.match(program.request.files.find((f) => f.path === 'Cargo.toml')!.code, /^prost = /m);
    assert.ok(program.request.packages.some((p) => p.startsWith('prost@')), program.request.packages.join(' '));
  });

  it('replaces a suggested path rustc then refuses as private with the crate root\'s re-export, once', () => {
    const info: PackageInfo = { ecosystem: 'crates', name: 'prost-types', slug: 'crates-prost-types', version: '0.14.1', importName: 'prost_types', rustDeps: { prost: { version: '^0.14.1', features: [] } } };
    const main = 'use prost::name::Name;\nfn main() {\n    println!("{:?}", prost_types::Any::type_url());\n}\n';
    // Captured from cargo build (prost 0.14.6): the private module, then the same suggestion once more.
    const stderr = 'error[E0603]: module `name` is private\n  --> src/main.rs:1:12\n   |\n 1 | use prost::name::Name;\n   |            ^^^^  ---- trait `Name` is not publicly re-exported\n';
    const adjust = repairFor(info, stderr, { rustUses: ['use prost::name::Name;'] }, undefined, main);
    assert.deepEqual(adjust?.rustUses, ['use prost::Name;']);
    assert.deepEqual(adjust?.rustUsesRefused, ['use prost::name::Name;']);
    // The refused line is never proposed again.
    assert.equal(repairFor(info, 'help: trait `Name` which provides `type_url` is implemented but not in scope; perhaps you want to import it\n  |\n1 + use prost::name::Name;\n  |\n', adjust!)?.rustUses, undefined);
  });
});
