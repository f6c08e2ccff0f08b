// API extractors: one passage per documented symbol, qualified, with signature and doc text.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromDeclarations, cleanJsDoc } from '../../../src/docs/extract/dts.ts';
import { apiFromGo } from '../../../src/docs/extract/golang.ts';
import { apiFromPython } from '../../../src/docs/extract/python.ts';
import { apiFromRust } from '../../../src/docs/extract/rust.ts';

const locate = ({ line, anchor }: { line?: number; anchor?: string }) => `u#${anchor ?? ''}:${line ?? 0}`;

describe('apiFromDeclarations', () => {
  const dts = `/** File header */\n/** Options of a command, with {braces} in a comment. */\nexport interface Options { a: string }\nexport declare class Command {\n  /**\n   * Define a required option.\n   * @example\n   * program.requiredOption('-c <x>')\n   */\n  requiredOption(flags: string, description?: string): this;\n  /** @internal */\n  secret(): void;\n  /** Hidden */\n  private hidden(): void;\n}\nexport declare function createCommand(name?: string): Command;\n`;
  const passages = apiFromDeclarations(dts, { source: 'index.d.ts', pageTitle: 'pkg API', locate });
  it('qualifies members by their class and keeps signature and JSDoc', () => {
    const p = passages.find((x) => x.title === 'Command.requiredOption');
    assert.ok(p, passages.map((x) => x.title).join(','));
    assert.match(p.content, /```ts\nrequiredOption\(flags: string, description\?: string\): this\n```/);
    assert.match(p.content, /Define a required option\./);
    assert.match(p.content, /```ts\nprogram\.requiredOption\('-c <x>'\)\n```/);
    assert.deepEqual(p.identifiers, ['command.requiredoption', 'requiredoption']);
    assert.equal(p.url, 'u#Command.requiredOption:10');
  });
  it('skips @internal and private members; indexes undocumented exported functions by signature', () => {
    assert.ok(!passages.some((x) => /secret|hidden/.test(x.title ?? '')));
    assert.ok(passages.some((x) => x.title === 'createCommand' && x.content.includes('createCommand(name?: string): Command')));
    assert.ok(passages.some((x) => x.title === 'Options'));
  });
  it('cleans JSDoc markers', () => assert.equal(cleanJsDoc('/**\n * Hello\n * world\n */'), 'Hello\nworld'));
});

describe('apiFromPython', () => {
  const py = `"""The widgets module: makes widgets from frobnicators of many kinds."""\n\ndef make(count, *, colour="red"):\n    """Make widgets.\n\n    Args:\n        count: how many.\n    """\n    return count\n\ndef _private():\n    """Not public."""\n\nclass Session:\n    """A session."""\n\n    def get(self, url,\n            params=None):\n        """Send a GET request."""\n`;
  const passages = apiFromPython(py, { source: 'widgets/__init__.py', module: 'widgets', locate });
  it('extracts module, function, class and method docstrings, skipping private names', () => {
    const titles = passages.map((p) => p.title);
    assert.deepEqual(titles, ['widgets', 'widgets.make', 'widgets.Session', 'widgets.Session.get']);
    const get = passages.find((p) => p.title === 'widgets.Session.get')!;
    assert.match(get.content, /def get\(self, url, params=None\)/);
    assert.match(get.content, /Send a GET request\./);
  });
});

describe('apiFromRust', () => {
  const rs = `//! # Widgets\n//!\n//! This crate makes widgets out of frobnicators, quickly and safely.\n\n/// A widget.\n#[derive(Debug)]\npub struct Widget { n: u32 }\n\nimpl Widget {\n    /// Builds a widget with\n    /// the given size.\n    pub fn new(n: u32) -> Self { Widget { n } }\n}\n\n/// Not public.\nfn hidden() {}\n`;
  const passages = apiFromRust(rs, { source: 'src/lib.rs', module: 'widgets', locate });
  it('extracts crate docs and item docs with impl-qualified names', () => {
    assert.ok(passages.some((p) => p.title === 'Widgets' && /frobnicators/.test(p.content)));
    const ctor = passages.find((p) => p.title === 'widgets::Widget::new');
    assert.ok(ctor, passages.map((p) => p.title).join(','));
    assert.match(ctor.content, /pub fn new\(n: u32\) -> Self/);
    assert.match(ctor.content, /Builds a widget with\nthe given size\./);
    assert.ok(passages.some((p) => p.title === 'widgets::Widget'));
    assert.ok(!passages.some((p) => /hidden/.test(p.title ?? '')));
  });
});

describe('apiFromGo', () => {
  const go = `// Package chi is a small router.\npackage chi\n\n// NewRouter returns a new Mux.\nfunc NewRouter() *Mux {\n\treturn nil\n}\n\n// Use appends middleware.\nfunc (mx *Mux) Use(middlewares ...func()) {\n}\n\n// helper is unexported.\nfunc helper() {}\n`;
  const passages = apiFromGo(go, { source: 'chi.go', importPath: 'github.com/go-chi/chi/v5', locate });
  it('extracts the package comment and exported identifiers, methods as Type.Name', () => {
    assert.deepEqual(passages.map((p) => p.title), ['github.com/go-chi/chi/v5', 'NewRouter', 'Mux.Use']);
    assert.equal(passages[2]!.url, 'u#Mux.Use:10');
  });
});
