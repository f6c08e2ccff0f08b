// Package use (src/quickstart/package-use.ts) through Go generic calls and through callbacks the package runs: classes
// the round-11 review found read as "nothing it prints comes from a call into the package" or as a weak use, so a
// README or Example program that teaches lost to a program that dumps a value.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { programUsesPackage, type PackageRef } from '../../../src/quickstart/package-use.ts';

const go = (path: string): PackageRef => ({ ecosystem: 'go', name: path, importName: path });
const main = (imports: string[], body: string, extra = '') => `package main

import (
${imports.map((i) => `\t"${i}"`).join('\n')}
)
${extra}
func main() {
${body}
}
`;

describe('package use: Go generic calls and callbacks', () => {
  it('a generic constructor with explicit type arguments is a call into the package (the grammar reads a conversion)', async () => {
    const program = main(['fmt', 'time', 'example.com/kv/v3'], `\tstore := kv.New[string, string](
\t\tkv.WithTTL[string, string](30 * time.Minute),
\t)
\tstore.Set("first", "value1", kv.DefaultTTL)
\titem := store.Get("first")
\tfmt.Println(item.Value(), item.ExpiresAt())`);
    const use = await programUsesPackage(program, go('example.com/kv/v3'));
    assert.equal(use.uses, true, use.why);
  });

  it('a conversion to a standard type is not a call into the package', async () => {
    const program = main(['fmt', 'example.com/kv/v3'], `\t_ = kv.DefaultTTL
\tb := []byte("text")
\tfmt.Println(len(b))`);
    const use = await programUsesPackage(program, go('example.com/kv/v3'));
    assert.equal(use.uses, false);
  });

  it('a worker handed by name fills a variable through a reference; printing it afterwards is the package at work', async () => {
    const extra = `
var (
\tsum int32
\twg  sync.WaitGroup
)

func add(i int32) {
\tatomic.AddInt32(&sum, i)
\twg.Done()
}
`;
    const program = main(['fmt', 'sync', 'sync/atomic', 'example.com/workers/v2'], `\twg.Add(100)
\tpool, _ := workers.NewPoolWithFunc(10, add)
\tdefer pool.Release()
\tfor i := 0; i < 100; i++ {
\t\t_ = pool.Invoke(int32(i))
\t}
\twg.Wait()
\tfmt.Printf("running goroutines: %d\\n", pool.Running())
\tfmt.Printf("finish all tasks, result is %d\\n", sum)`, extra);
    // pool.Running() is a call into the package too: drop it to see the reference flow alone.
    const alone = program.replace(/\tfmt\.Printf\("running goroutines.*\n/, '');
    const use = await programUsesPackage(alone, go('example.com/workers/v2'));
    assert.equal(use.uses, true, use.why);
  });

  it('a closure the package runs prints a computed value: strong; the same print in a standard library callback is not', async () => {
    const submitted = main(['fmt', 'example.com/pool'], `\tp := pool.New(100, 1000)
\tfor i := 0; i < 10; i++ {
\t\tn := i
\t\tp.Submit(func() {
\t\t\tfmt.Printf("Running task #%d\\n", n)
\t\t})
\t}
\tp.StopAndWait()`);
    const use = await programUsesPackage(submitted, go('example.com/pool'));
    assert.equal(use.uses, true, use.why);
    assert.match(use.why, /callback the package runs/);

    const stdlib = main(['fmt', 'sort', 'example.com/pool'], `\t_ = pool.New(1, 1)
\txs := []int{3, 1, 2}
\tsort.Slice(xs, func(i, j int) bool {
\t\tfmt.Println(i, j)
\t\treturn xs[i] < xs[j]
\t})`);
    assert.equal((await programUsesPackage(stdlib, go('example.com/pool'))).uses, false);
  });

  it('a callback the package runs that prints only a literal stays as before (not counted strong)', async () => {
    const program = main(['fmt', 'example.com/pool'], `\tp := pool.New(1, 1)
\tp.Submit(func() {
\t\tfmt.Println("done")
\t})
\tp.StopAndWait()`);
    assert.equal((await programUsesPackage(program, go('example.com/pool'))).uses, false);
  });
});
