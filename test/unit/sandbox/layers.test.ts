// Compiled layers: made only by a successful compile (atomically, nothing half-written is ever found), once per key in a
// process, immutable afterwards, and the least recently used idle ones removed past MAX_LAYERS.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildLayers, MAX_LAYERS } from '../../../src/sandbox/layers.ts';

const root = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-layers-'));
const key = (n: number) => n.toString(16).padStart(32, '0');
const asRoot = { skip: process.getuid?.() !== 0 ? 'layers are chowned: needs root, as the sandbox does' : false };

describe('sandbox build layers', () => {
  it('a successful compile becomes the layer; a failed one leaves nothing', asRoot, async () => {
    const dir = root();
    const layers = new BuildLayers(dir, { uid: 61000, gid: 61000 }, 60_000);
    await layers.make('golang', key(1), async (folders) => {
      assert.equal(fs.statSync(folders.upper).uid, 61000, 'the sandbox uid writes the upper');
      fs.writeFileSync(path.join(folders.upper, 'compiled'), 'x');
      return true;
    });
    const found = layers.find('golang', key(1));
    assert.ok(found);
    assert.equal(fs.readFileSync(path.join(found, 'compiled'), 'utf8'), 'x');
    assert.equal(fs.statSync(found).uid, 0, 'no one writes to a finished layer');
    await layers.make('golang', key(2), async (folders) => {
      fs.writeFileSync(path.join(folders.upper, 'half'), 'x');
      return false;
    });
    assert.equal(layers.find('golang', key(2)), undefined);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'golang')), [key(1)], 'no unfinished folder is left');
    assert.equal(layers.find('golang', '../../etc'), undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('compiles a key once per process, however many builds ask at once', asRoot, async () => {
    const dir = root();
    const layers = new BuildLayers(dir, { uid: 61000, gid: 61000 }, 60_000);
    let compiles = 0;
    const compile = async () => {
      compiles++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return true;
    };
    await Promise.all([layers.make('golang', key(3), compile), layers.make('golang', key(3), compile), layers.make('golang', key(3), compile)]);
    await layers.make('golang', key(3), compile);
    assert.equal(compiles, 1);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('removes the least recently used idle layers past MAX_LAYERS', asRoot, async () => {
    const dir = root();
    const layers = new BuildLayers(dir, { uid: 61000, gid: 61000 }, 1000);
    const base = path.join(dir, 'golang');
    for (let n = 0; n < MAX_LAYERS; n++) {
      await layers.make('golang', key(100 + n), async () => true);
      const old = new Date(Date.now() - (MAX_LAYERS - n) * 60_000); // older the lower n
      fs.utimesSync(path.join(base, key(100 + n)), old, old);
    }
    layers.find('golang', key(100)); // the oldest, used just now: stays
    await layers.make('golang', key(999), async () => true);
    const kept = fs.readdirSync(base).sort();
    assert.equal(kept.length, MAX_LAYERS);
    assert.ok(kept.includes(key(100)) && kept.includes(key(999)));
    assert.ok(!kept.includes(key(101)), 'the least recently used idle layer went');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
