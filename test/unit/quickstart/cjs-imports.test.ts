// Import lines of CommonJS packages rewritten from the probe's report (cjs-imports.ts): the rewrite's text, and the
// rewritten programs run by Node against real CommonJS packages written to a temporary node_modules (no network).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commonJsImports } from '../../../src/quickstart/programs/cjs-imports.ts';
import { nodeProgram } from '../../../src/quickstart/programs/node.ts';
import type { NpmExports } from '../../../src/quickstart/imports.ts';

// `module.exports = fn` with a property (what Node's lexer cannot see as a named export).
const FN_PACKAGE = "function money(v) { return { add: (x) => Math.round((v + x) * 100) / 100 }; }\nmoney.version = '1';\nmodule.exports = money;\n";
const FN_EXPORTS: NpmExports = { require: true, esm: { default: true, named: [] }, defaultKeys: ['version'], commonjs: true };
// A bundler's output: an object of classes assigned at once (the lexer sees none of them).
const OBJ_PACKAGE = "class Rule { static fromText(t) { return new Rule(t); } constructor(t) { this.t = t; } toText() { return 'rule:' + this.t; } }\n"
  + "function stamp(y) { return 'y' + y; }\nmodule.exports = Object.assign({}, { Rule, stamp });\n";
const OBJ_EXPORTS: NpmExports = { require: true, esm: { default: true, named: [] }, defaultKeys: ['Rule', 'stamp'], commonjs: true };

describe('CommonJS import lines from the real exports', () => {
  it('moves a property of module.exports out of the braces and a default-bound property into them', async () => {
    assert.equal(await commonJsImports("import Rule, { stamp } from 'rules';\nconsole.log(Rule.fromText(stamp(1)));\n", 'javascript', 'rules', OBJ_EXPORTS),
      "import rules from 'rules';\nconst { Rule, stamp } = rules;\nconsole.log(Rule.fromText(stamp(1)));\n");
  });

  it('binds the one name the package exports neither by name nor as a property as module.exports itself', async () => {
    assert.equal(await commonJsImports("import { money } from 'money-lib';\nconsole.log(money(1).add(2));\n", 'javascript', 'money-lib', FN_EXPORTS),
      "import money from 'money-lib';\nconsole.log(money(1).add(2));\n");
  });

  it('leaves names the loader sees, ES packages, dual packages and unknown probes as written', async () => {
    const code = "import { parse } from 'p';\nconsole.log(parse('x'));\n";
    assert.equal(await commonJsImports(code, 'javascript', 'p', { require: true, esm: { default: true, named: ['parse'] }, defaultKeys: ['parse'], commonjs: true }), code);
    assert.equal(await commonJsImports(code, 'javascript', 'p', { require: false, esm: { default: false, named: ['other'] }, defaultKeys: [] }), code);
    assert.equal(await commonJsImports(code, 'javascript', 'p', { require: true, esm: { default: true, named: [] }, defaultKeys: ['parse'], commonjs: false }), code);
    assert.equal(await commonJsImports(code, 'javascript', 'p', undefined), code);
    // Two names nothing exports: helpers left to the reader, not the package (the stand-in repair handles them).
    const two = "import { a, b } from 'p';\nconsole.log(a(b));\n";
    assert.equal(await commonJsImports(two, 'javascript', 'p', { require: true, esm: { default: true, named: [] }, defaultKeys: [], commonjs: true }), two);
  });

  it("merges the package's import statements into one rewrite", async () => {
    assert.equal(await commonJsImports("import { Rule } from 'rules';\nimport { stamp } from 'rules';\nconsole.log(Rule.fromText(stamp(1)).toText());\n", 'javascript', 'rules', OBJ_EXPORTS),
      "import rules from 'rules';\nconst { Rule, stamp } = rules;\nconsole.log(Rule.fromText(stamp(1)).toText());\n");
    assert.equal(await commonJsImports("import r from 'rules';\nimport { stamp } from 'rules';\nimport s from 'rules';\nconsole.log(r.stamp(1), stamp(2), s.stamp(3));\n", 'javascript', 'rules', OBJ_EXPORTS),
      "import r from 'rules';\nconst { stamp } = r;\nconst s = r;\nconsole.log(r.stamp(1), stamp(2), s.stamp(3));\n");
  });

  it('names the whole module with a name the program does not declare anywhere', async () => {
    assert.equal(await commonJsImports("import { Rule } from 'rules';\nconst rules = Rule.fromText('a');\nfunction rulesModule() {}\nconsole.log(rules.toText());\n", 'javascript', 'rules', OBJ_EXPORTS),
      "import rulesModuleModule from 'rules';\nconst { Rule } = rulesModuleModule;\nconst rules = Rule.fromText('a');\nfunction rulesModule() {}\nconsole.log(rules.toText());\n");
  });

  describe('the programs run', () => {
    let dir = '';
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cjs-imports-'));
      for (const [name, code] of [['money-lib', FN_PACKAGE], ['rules', OBJ_PACKAGE]] as const) {
        fs.mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
        fs.writeFileSync(path.join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
        fs.writeFileSync(path.join(dir, 'node_modules', name, 'index.js'), code);
      }
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const run = (file: string, code: string) => {
      fs.writeFileSync(path.join(dir, file), code);
      return execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    };

    it('a README that calls the package by a name it never imports, as Node would fail it and as rewritten', async () => {
      const readme = 'console.log(money(2.51).add(.01));';
      const before = await nodeProgram(readme, 'js', 'money-lib', 'commonjs');
      assert.throws(() => run('before.mjs', before.code), /Named export 'money' not found/);
      const made = await nodeProgram(readme, 'js', 'money-lib', 'commonjs', { kind: 'named' }, {}, [], { exports: FN_EXPORTS });
      assert.equal(run(made.path, made.code).trim(), '2.52');
    });

    it('rewritten programs with two import lines and a local named like the package run', async () => {
      const two = await commonJsImports("import { Rule } from 'rules';\nimport { stamp } from 'rules';\nconsole.log(Rule.fromText(stamp(3)).toText());\n", 'javascript', 'rules', OBJ_EXPORTS);
      assert.equal(run('two.mjs', two).trim(), 'rule:y3');
      const local = await commonJsImports("import { Rule } from 'rules';\nconst rules = Rule.fromText('b');\nconsole.log(rules.toText());\n", 'javascript', 'rules', OBJ_EXPORTS);
      assert.equal(run('local.mjs', local).trim(), 'rule:b');
    });

    it("a README's named imports of a bundled CommonJS module, and its require lines turned into imports", async () => {
      const made = await nodeProgram("import { Rule, stamp } from 'rules';\nconsole.log(Rule.fromText(stamp(2000)).toText());", 'js', 'rules', 'commonjs', { kind: 'named' }, {}, [], { exports: OBJ_EXPORTS });
      assert.equal(run(made.path, made.code).trim(), 'rule:y2000');
      const generated = await nodeProgram('const r = Rule.fromText(stamp(1));\nconsole.log(r.toText());', 'js', 'rules', 'commonjs', { kind: 'named' }, {}, [], { exports: OBJ_EXPORTS });
      assert.equal(run(generated.path, generated.code).trim(), 'rule:y1');
    });
  });
});
