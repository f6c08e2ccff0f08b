// Go programs written from the declared API perform the main operation on the constructed value (write, then read
// back) instead of printing the value; Go examples print the results their comments show. Made-up packages only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docsValues } from '../../../src/quickstart/docs-values.ts';
import { collectCandidates } from '../../../src/quickstart/collect.ts';
import { goMethodPrograms, readGoApi } from '../../../src/quickstart/programs/go-api.ts';
import { exampleDeclarations } from '../../../src/quickstart/programs/go-examples.ts';
import { rankCandidates } from '../../../src/quickstart/score.ts';
import { goProgram } from '../../../src/quickstart/programs/go.ts';

const file = (p: string, src: string) => ({ path: p, bytes: new TextEncoder().encode(src) });
const artifact = (files: ReturnType<typeof file>[]) => ({ files, importName: 'example.com/hashy', fileUrl: (p: string) => p });

const HASHER = `package hashy

// Hasher sums what is written to it.
type Hasher struct{ sum uint64 }

// New returns a Hasher.
func New() *Hasher { return &Hasher{} }

func (h *Hasher) Write(b []byte) (int, error) {
	for _, c := range b {
		h.sum = h.sum*31 + uint64(c)
	}
	return len(b), nil
}

func (h *Hasher) Sum64() uint64 { return h.sum }
func (h *Hasher) Reset()        { h.sum = 0 }
func (h *Hasher) Close() error  { return nil }
func (h *Hasher) EnableDebug(on bool) {}
`;

const CACHE = `package cache

type Cache[K comparable, V any] struct{ items map[K]*Item[K, V] }
type Item[K comparable, V any] struct{ key K; value V }

func New[K comparable, V any](opts ...Option[K, V]) *Cache[K, V] { return &Cache[K, V]{items: map[K]*Item[K, V]{}} }

type Option[K comparable, V any] func(*Cache[K, V])

func (c *Cache[K, V]) Get(key K) *Item[K, V] { return c.items[key] }
func (c *Cache[K, V]) Set(key K, value V) *Item[K, V] {
	it := &Item[K, V]{key, value}
	c.items[key] = it
	return it
}
func (c *Cache[K, V]) Start() { select {} }

func (i *Item[K, V]) Key() K       { return i.key }
func (i *Item[K, V]) Value() V     { return i.value }
func (i *Item[K, V]) Expired() bool { return false }
`;

describe('Go programs from the declared API', () => {
  it('reads types, methods (struct receivers, generic receivers, interface elements) and functions', async () => {
    const api = await readGoApi([{ path: 'cache.go', text: CACHE }, { path: 'glob.go', text: 'package cache\ntype Glob interface {\n\tMatch(s string) bool\n}\nfunc Compile(p string) (Glob, error) { return nil, nil }\n' }]);
    assert.ok(api);
    assert.equal(api.pkg, 'cache');
    assert.deepEqual(api.types.get('Cache'), ['K', 'V']);
    assert.deepEqual(api.methods.get('Cache')?.map((m) => m.name), ['Get', 'Set', 'Start']);
    assert.deepEqual(api.methods.get('Cache')?.[1]?.receiverParams, ['K', 'V']);
    assert.deepEqual(api.methods.get('Glob')?.map((m) => [m.name, m.results]), [['Match', ['bool']]]);
    assert.deepEqual(api.functions.map((f) => [f.name, f.results]), [['New', ['*Cache[K, V]']], ['Compile', ['Glob', 'error']]]);
  });

  it('a hasher: bytes written, then the sum read; no switch, no value-ending call, never the value dumped', async () => {
    const [program, ...more] = await goMethodPrograms(artifact([file('hashy.go', HASHER)]));
    assert.equal(more.length, 0);
    assert.equal(program!.origin, 'api');
    const lines = program!.code.split('\n');
    assert.equal(lines[0], 'v := hashy.New()');
    const write = lines.findIndex((l) => l.includes('v.Write([]byte("example"))'));
    const sum = lines.findIndex((l) => l.includes('v.Sum64()'));
    assert.ok(write > 0 && sum > write, program!.code);
    assert.doesNotMatch(program!.code, /Close|Reset|EnableDebug|fmt\.Println\(v\)/);
  });

  it('a generic cache: instantiated as string, a key set then got with the docs\' own text, the item shown by its accessors', async () => {
    const docs = await docsValues('go', [{ code: 'c := cache.New[string, string]()\nc.Set("first", "value1")\nitem := c.Get("first")\nfmt.Println(item.Value())', language: 'go', origin: 'readme', path: 'README.md', source: '' }]);
    const [program] = await goMethodPrograms(artifact([file('cache.go', CACHE)]), docs);
    const code = program!.code;
    assert.match(code, /^v := cache\.New\[string, string\]\(\)\n/);
    assert.ok(code.indexOf('v.Set("first", "example")') < code.indexOf('v.Get("first")'), code);
    // The docs read an item with Value(): that accessor first; Start (blocks) is never called.
    assert.match(code, /fmt\.Println\("Get\(first\):", r\d\.Value\(\), r\d\.Key\(\)\)/);
    assert.doesNotMatch(code, /Start\(\)/);
  });

  it('a store of any values: text stands in for the value, and what Get hands back is printed with its ok', async () => {
    const store = 'package store\n\ntype Cache struct{ m map[string]interface{} }\n\nfunc New(d int) *Cache { return &Cache{m: map[string]interface{}{}} }\n\nfunc (c *Cache) Set(k string, x interface{}, d int) { c.m[k] = x }\nfunc (c *Cache) Get(k string) (interface{}, bool) { v, ok := c.m[k]; return v, ok }\n';
    const [program] = await goMethodPrograms(artifact([file('store.go', store)]));
    assert.equal(program!.code, 'v := store.New(2)\nv.Set("example", "example", 2)\nfmt.Println("Get(example):", strings.TrimSpace(fmt.Sprintln(v.Get("example"))))');
  });

  it('methods promoted from an embedded unexported type are called on the exported one', async () => {
    const store = 'package store\n\ntype Cache struct {\n\t*cache\n}\n\ntype cache struct{ m map[string]string }\n\nfunc New() *Cache { return &Cache{&cache{m: map[string]string{}}} }\n\nfunc (c *cache) Set(k string, v string) { c.m[k] = v }\nfunc (c *cache) Get(k string) (string, bool) { v, ok := c.m[k]; return v, ok }\nfunc (c *cache) flush() {}\n';
    const [program] = await goMethodPrograms(artifact([file('store.go', store)]));
    assert.equal(program!.code, 'v := store.New()\nv.Set("example", "example")\nfmt.Println("Get(example):", strings.TrimSpace(fmt.Sprintln(v.Get("example"))))');
  });

  it('a write whose result has no plain face is still made (its result dropped), before the read that shows it', async () => {
    const queue = 'package queue\n\ntype Queue struct{ n int }\ntype Ticket struct{ id int }\n\nfunc New() *Queue { return &Queue{} }\n\nfunc (q *Queue) Push(job string) *Ticket { q.n++; return &Ticket{q.n} }\nfunc (q *Queue) Len() int { return q.n }\n';
    const [program] = await goMethodPrograms(artifact([file('queue.go', queue)]));
    assert.equal(program!.code, 'v := queue.New()\nv.Push("example")\nfmt.Println("Len():", v.Len())');
  });

  it('Go examples: a dropped call whose comment shows a literal result prints it; a call with a prose comment stays as written', async () => {
    const context = { modulePackages: { glob: 'example.com/glob' }, std: new Map([['fmt', 'fmt'], ['utf8', 'unicode/utf8']]) };
    const code = 'g := glob.MustCompile("*.github.com")\ng.Match("api.github.com") // true\ng.Separators() // []rune{\'.\'}\ng.Match("x") // true (false by default)\ng.Forget("k") // forget the key\n';
    const program = await goProgram(code, 'readme', undefined, context);
    assert.match(program, /\tprintValue\(g\.Match\("api\.github\.com"\)\) \/\/ true\n/);
    assert.match(program, /\tprintValue\(g\.Separators\(\)\)/);
    assert.match(program, /\tprintValue\(g\.Match\("x"\)\) \/\/ true \(false by default\)/);
    assert.match(program, /\tg\.Forget\("k"\) \/\/ forget the key\n/);
    // The fallback that prints the last bound value is not added: the program prints what the docs show.
    assert.doesNotMatch(program, /fmt\.Println\(g\)/);
    // After the build says a call returns nothing (keepDropped), comments are not read as results.
    const kept = await goProgram(code, 'readme', undefined, { ...context, keepDropped: true });
    assert.doesNotMatch(kept, /printValue\(g\.Match/);
  });

  // A real build where this machine has Go (the sandbox's toolchain is the same compiler); skipped where it has none.
  const goMissing = spawnSync('go', ['version']).status !== 0;
  it('the written hasher program builds and prints the sum of what it wrote', { skip: goMissing && 'no go toolchain here', timeout: 300_000 }, async () => {
    const [candidate] = await goMethodPrograms(artifact([file('hashy.go', HASHER)]));
    const program = await goProgram(candidate!.code, 'api', undefined, { modulePackages: { hashy: 'example.com/hashy' }, std: new Map([['fmt', 'fmt'], ['strings', 'strings'], ['utf8', 'unicode/utf8']]) });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'go-api-'));
    try {
      fs.mkdirSync(path.join(dir, 'hashy'));
      fs.writeFileSync(path.join(dir, 'hashy', 'hashy.go'), HASHER);
      fs.writeFileSync(path.join(dir, 'go.mod'), 'module example.com/hashy\n\ngo 1.21\n');
      fs.mkdirSync(path.join(dir, 'cmd'));
      fs.writeFileSync(path.join(dir, 'cmd', 'main.go'), program.replace('"example.com/hashy"', '"example.com/hashy/hashy"'));
      const run = spawnSync('go', ['run', './cmd'], { cwd: dir, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOPROXY: 'off' } });
      assert.equal(run.status, 0, run.stderr);
      // "example" summed by the made-up hash: 31-polynomial over its bytes.
      let sum = 0n;
      for (const c of Buffer.from('example')) sum = (sum * 31n + BigInt(c)) & 0xffffffffffffffffn;
      assert.match(run.stdout, /Write\(\[\]byte\(example\)\): 7 <nil>/);
      assert.match(run.stdout, new RegExp(`Sum64\\(\\): ${sum}`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const EXAMPLE_FILE = `package hashy_test

import (
	"fmt"
	"net/http"
	"testing"

	"example.com/hashy"
)

type sample struct{ text string }

func (s sample) bytes() []byte { return []byte(s.text) }

var greeting = sample{text: "hello"}

func sum(s sample) uint64 {
	h := hashy.New()
	h.Write(s.bytes())
	return h.Sum64()
}

func TestSum(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		http.ListenAndServe(":8080", nil)
	})
}

func ExampleNew() {
	fmt.Println(sum(greeting))
	// Output: 99162322
}
`;

describe('Go Example functions carry only what they use of their file', () => {
  it('helpers, types with their methods and variables used (transitively); not the file\'s tests', async () => {
    const kept = await exampleDeclarations(EXAMPLE_FILE, 'ExampleNew');
    assert.deepEqual(kept.map((d) => d.split('\n')[0]), ['type sample struct{ text string }', 'func (s sample) bytes() []byte { return []byte(s.text) }', 'var greeting = sample{text: "hello"}', 'func sum(s sample) uint64 {']);
  });

  it('a test\'s server in the same file no longer blocks the example', async () => {
    const found = await collectCandidates('go', artifact([file('hashy.go', HASHER), file('example_test.go', EXAMPLE_FILE)]));
    const example = found.find((c) => c.origin === 'go-example')!;
    assert.doesNotMatch(example.code, /TestSum|ListenAndServe/);
    const [ranked] = rankCandidates([example], 'go', 'example.com/hashy', 'example.com/hashy');
    assert.deepEqual(ranked!.blockers, []);
  });
});


const CURVE = `package curve

import "fmt"

// Point is a point of a made-up group.
type Point struct{ x, y int }

func NewIdentityPoint() *Point  { return &Point{} }
func NewGeneratorPoint() *Point { return &Point{x: 1, y: 2} }

// Add sets v = p + q and returns v.
func (v *Point) Add(p, q *Point) *Point {
	v.x, v.y = p.x+q.x, p.y+q.y
	return v
}

func (v *Point) Bytes() []byte { return []byte(fmt.Sprintf("(%d,%d)", v.x, v.y)) }
`;

describe('Go method programs pass values of the package\'s own types', () => {
  it('a method taking the package\'s types gets values from its argument-free functions, a second one the next', async () => {
    const programs = await goMethodPrograms({ files: [file('curve.go', CURVE)], importName: 'example.com/curve', fileUrl: (p: string) => p });
    const add = programs.find((p) => /\.Add\(/.test(p.code));
    assert.ok(add, programs.map((p) => p.code).join('\n---\n'));
    assert.match(add.code, /v\.Add\(curve\.NewIdentityPoint\(\), curve\.NewGeneratorPoint\(\)\)/, add.code);
    assert.match(add.code, /\.Bytes\(\)/, add.code);
  });

  const goMissing = spawnSync('go', ['version']).status !== 0;
  it('the program builds and prints the sum it computed', { skip: goMissing && 'no go toolchain here', timeout: 300_000 }, async () => {
    const programs = await goMethodPrograms({ files: [file('curve.go', CURVE)], importName: 'example.com/curve', fileUrl: (p: string) => p });
    const add = programs.find((p) => /\.Add\(/.test(p.code))!;
    const program = await goProgram(add.code, 'api', undefined, { modulePackages: { curve: 'example.com/curve' }, std: new Map([['fmt', 'fmt'], ['strings', 'strings'], ['utf8', 'unicode/utf8']]) });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'go-api-'));
    try {
      fs.mkdirSync(path.join(dir, 'curve'));
      fs.writeFileSync(path.join(dir, 'curve', 'curve.go'), CURVE);
      fs.writeFileSync(path.join(dir, 'go.mod'), 'module example.com/curve\n\ngo 1.21\n');
      fs.mkdirSync(path.join(dir, 'cmd'));
      fs.writeFileSync(path.join(dir, 'cmd', 'main.go'), program.replace('"example.com/curve"', '"example.com/curve/curve"'));
      const run = spawnSync('go', ['run', './cmd'], { cwd: dir, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOPROXY: 'off' } });
      assert.equal(run.status, 0, `${run.stderr}\n${program}`);
      // The identity plus the generator: "(1,2)", printed as Println prints bytes.
      assert.match(run.stdout, /: \[40 49 44 50 41\]\n/, `${run.stdout}\n${program}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
