// Compiled layers: made only by a successful compile (atomically, nothing half-written is ever found), once per key in a
// process (the callers that waited share its outcome), written first in a scratch space of its own, never kept when larger
// than the whole budget, immutable afterwards, and the least recently used idle ones removed while all layers together
// pass a byte budget.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { allocatedBytes, BuildLayers, folderScratch, layerKey, REMEMBERED_ENDS, stepHash, volumeScratch } from '../../../src/sandbox/layers.ts';
import { SessionVolumes } from '../../../src/sandbox/volume.ts';

const root = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-layers-'));
const key = (n: number) => n.toString(16).padStart(32, '0');
const OWNER = { uid: 61000, gid: 61000 };
/** Layers in `dir` whose compiles write in a scratch folder beside it (not the layers' own folder). */
const layersIn = (dir: string, busyMs: number, maxBytes: number) => new BuildLayers(dir, folderScratch(`${dir}-scratch`, OWNER), busyMs, maxBytes);
const clean = (dir: string) => {
  for (const folder of [dir, `${dir}-scratch`]) fs.rmSync(folder, { recursive: true, force: true });
};
const asRoot = { skip: process.getuid?.() !== 0 ? 'layers are chowned: needs root, as the sandbox does' : false };

describe('sandbox build layers', () => {
  it('a successful compile becomes the layer; a failed one leaves nothing', asRoot, async () => {
    const dir = root();
    const layers = layersIn(dir, 60_000, 1 << 30);
    await layers.make('golang', key(1), async (folders) => {
      assert.equal(fs.statSync(folders.upper).uid, 61000, 'the sandbox uid writes the upper');
      fs.writeFileSync(path.join(folders.upper, 'compiled'), 'x');
      return { ok: true };
    });
    const found = layers.find('golang', key(1));
    assert.ok(found);
    assert.equal(fs.readFileSync(path.join(found, 'compiled'), 'utf8'), 'x');
    assert.equal(fs.statSync(found).uid, 0, 'no one writes to a finished layer');
    await layers.make('golang', key(2), async (folders) => {
      fs.writeFileSync(path.join(folders.upper, 'half'), 'x');
      return { ok: false };
    });
    assert.equal(layers.find('golang', key(2)), undefined);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'golang')), [key(1)], 'no unfinished folder is left');
    assert.equal(layers.find('golang', '../../etc'), undefined);
    clean(dir);
  });

  it('compiles a key once per process, however many builds ask at once', asRoot, async () => {
    const dir = root();
    const layers = layersIn(dir, 60_000, 1 << 30);
    let compiles = 0;
    const compile = async () => {
      compiles++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { ok: true };
    };
    await Promise.all([layers.make('golang', key(3), compile), layers.make('golang', key(3), compile), layers.make('golang', key(3), compile)]);
    await layers.make('golang', key(3), compile);
    assert.equal(compiles, 1);
    clean(dir);
  });

  it('a compile writes in its scratch space, not the layers\' folder; the scratch is released whatever the outcome', asRoot, async () => {
    const dir = root();
    const layers = layersIn(dir, 60_000, 1 << 30);
    await layers.make('rust', key(4), async (folders) => {
      assert.ok(folders.upper.startsWith(`${dir}-scratch${path.sep}`), folders.upper);
      fs.writeFileSync(path.join(folders.upper, 'object'), 'x');
      assert.deepEqual(fs.existsSync(path.join(dir, 'rust')) ? fs.readdirSync(path.join(dir, 'rust')) : [], [], 'nothing on the layers\' filesystem while it runs');
      return { ok: true };
    });
    assert.equal(fs.readFileSync(path.join(layers.find('rust', key(4)) ?? '', 'object'), 'utf8'), 'x');
    await layers.make('rust', key(5), async () => ({ ok: false }));
    assert.deepEqual(fs.readdirSync(`${dir}-scratch`), [], 'no scratch space is left behind');
    clean(dir);
  });

  it('callers waiting for a compile that fails share its outcome: one compile, not one per caller', asRoot, async () => {
    const dir = root();
    const layers = layersIn(dir, 60_000, 1 << 30);
    let compiles = 0;
    const compile = async () => {
      compiles++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { ok: false, failed: { limit: 'timeout', by: compiles } };
    };
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => layers.make('rust', key(6), compile)));
    assert.equal(compiles, 1);
    for (const outcome of outcomes) assert.deepEqual(outcome, { made: false, failed: { limit: 'timeout', by: 1 } });
    assert.deepEqual(await layers.make('rust', key(7), async () => ({ ok: true })), { made: true });
    clean(dir);
  });

  it('a limit-ended compile is shared only with callers of the identical step: another step of the same key compiles on its own', asRoot, async () => {
    // Go's key leaves out the packages (they come from each caller's files): a stranger's compile of heavy packages that
    // hit a limit must not end the calls of everyone else on the same module graph.
    const dir = root();
    const layers = layersIn(dir, 60_000, 1 << 30);
    const heavy = stepHash({ script: 'go build example.com/graph/heavy/...', env: {} });
    const light = stepHash({ script: 'go build example.com/graph/light', env: {} });
    assert.notEqual(heavy, light);
    const ran: string[] = [];
    const failing = async () => {
      ran.push('heavy');
      await new Promise((resolve) => setTimeout(resolve, 80));
      return { ok: false, failed: { limit: 'memory' } };
    };
    const succeeding = async (folders: { upper: string }) => {
      ran.push('light');
      fs.writeFileSync(path.join(folders.upper, 'light.a'), 'x');
      return { ok: true };
    };
    const first = layers.make('golang', key(20), failing, heavy);
    await new Promise((resolve) => setTimeout(resolve, 10)); // the heavy compile is running when the others ask
    const [sameStep, otherStep] = await Promise.all([layers.make('golang', key(20), failing, heavy), layers.make('golang', key(20), succeeding, light)]);
    assert.deepEqual(await first, { made: false, failed: { limit: 'memory' } });
    assert.deepEqual(sameStep, { made: false, failed: { limit: 'memory' } }, 'the identical step shares the outcome');
    assert.deepEqual(otherStep, { made: true }, 'another step of the key is not ended by the stranger\'s limit');
    assert.deepEqual(ran.sort(), ['heavy', 'light'], 'one compile per step, not per caller');
    assert.ok(layers.find('golang', key(20)));
    clean(dir);
  });

  it('a limit-ended compile is remembered for its owner and step: the owner\'s next identical call ends at once; other owners, other steps and a later call compile', asRoot, async () => {
    // A quickstart verification tries example after example on one graph; each used to compile the same dependencies
    // into the same 300 s limit again (crates whose graph builds aws-lc-sys never finished verifying).
    const dir = root();
    let clock = 1_000_000;
    const layers = new BuildLayers(dir, folderScratch(`${dir}-scratch`, OWNER), 60_000, 1 << 30, 600_000, () => clock);
    const step = stepHash({ script: 'cargo build --offline', env: {} });
    let compiles = 0;
    const timingOut = async () => {
      compiles++;
      return { ok: false, failed: { limit: 'timeout' } };
    };
    assert.deepEqual(await layers.make('rust', key(30), timingOut, step, 'owner-a'), { made: false, failed: { limit: 'timeout' } });
    clock += 120_000;
    assert.deepEqual(await layers.make('rust', key(30), timingOut, step, 'owner-a'), { made: false, failed: { limit: 'timeout' }, rememberedMs: 120_000 });
    assert.equal(compiles, 1, 'the same owner\'s identical compile is not run again');
    // Another tenant is never ended by this owner's limit: it compiles (and ends on its own account).
    assert.deepEqual(await layers.make('rust', key(30), timingOut, step, 'owner-b'), { made: false, failed: { limit: 'timeout' } });
    assert.equal(compiles, 2);
    // Another step of the same key compiles.
    const other = stepHash({ script: 'cargo build --offline --features x', env: {} });
    await layers.make('rust', key(30), timingOut, other, 'owner-a');
    assert.equal(compiles, 3);
    // Past the memory (600 s after the end), the owner's call compiles again: a timeout under load may pass later.
    clock += 600_000;
    assert.deepEqual(await layers.make('rust', key(30), async () => ({ ok: true }), step, 'owner-a'), { made: true });
    assert.ok(layers.find('rust', key(30)));
    clean(dir);
  });

  it('a limit-ended compile is remembered only for the owner whose call ran it: an owner that waited on it compiles again on its next call', asRoot, async () => {
    // Else a tenant who slows the machine until a popular graph's shared compile times out locks out everyone waiting.
    const dir = root();
    let clock = 1_000_000;
    const layers = new BuildLayers(dir, folderScratch(`${dir}-scratch`, OWNER), 60_000, 1 << 30, 600_000, () => clock);
    const step = stepHash({ script: 'cargo build --offline', env: {} });
    let compiles = 0;
    const timingOut = async () => {
      compiles++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { ok: false, failed: { limit: 'timeout' } };
    };
    const [attacker, victim] = await Promise.all([
      layers.make('rust', key(34), timingOut, step, 'ip:attacker'),
      layers.make('rust', key(34), timingOut, step, 'ip:victim'),
    ]);
    assert.equal(compiles, 1, 'one shared compile');
    assert.deepEqual(attacker, { made: false, failed: { limit: 'timeout' } });
    assert.deepEqual(victim, { made: false, failed: { limit: 'timeout' } }, 'the waiting owner shares the outcome now');
    clock += 10_000;
    assert.deepEqual(await layers.make('rust', key(34), timingOut, step, 'ip:victim'), { made: false, failed: { limit: 'timeout' } },
      'no remembered outcome for the owner that only waited');
    assert.equal(compiles, 2, 'the waiting owner compiles again on its next call');
    // The owner whose call ran the first compile is remembered (and now the victim too, for its own compile).
    assert.deepEqual(await layers.make('rust', key(34), timingOut, step, 'ip:attacker'), { made: false, failed: { limit: 'timeout' }, rememberedMs: 10_000 });
    assert.equal(compiles, 2);
    clean(dir);
  });

  it('a compile that failed on its own (no limit) is not remembered; with no memory configured nothing is', asRoot, async () => {
    const dir = root();
    const remembering = new BuildLayers(dir, folderScratch(`${dir}-scratch`, OWNER), 60_000, 1 << 30, 600_000);
    let compiles = 0;
    const failing = async () => { compiles++; return { ok: false }; };
    await remembering.make('rust', key(31), failing, 's', 'owner-a');
    await remembering.make('rust', key(31), failing, 's', 'owner-a');
    assert.equal(compiles, 2, 'a failure of its own leaves the build to compile, as before');
    const forgetting = layersIn(`${dir}-2`, 60_000, 1 << 30);
    const limited = async () => { compiles++; return { ok: false, failed: { limit: 'memory' } }; };
    await forgetting.make('rust', key(32), limited, 's', 'owner-a');
    await forgetting.make('rust', key(32), limited, 's', 'owner-a');
    assert.equal(compiles, 4);
    clean(dir);
    clean(`${dir}-2`);
  });

  it('remembers at most REMEMBERED_ENDS limit-ended compiles, forgetting the oldest', asRoot, async () => {
    const dir = root();
    const layers = new BuildLayers(dir, folderScratch(`${dir}-scratch`, OWNER), 60_000, 1 << 30, 600_000);
    let compiles = 0;
    const limited = async () => { compiles++; return { ok: false, failed: { limit: 'memory' } }; };
    for (let owner = 0; owner <= REMEMBERED_ENDS; owner++) await layers.make('rust', key(33), limited, 's', `owner-${owner}`);
    assert.equal(compiles, REMEMBERED_ENDS + 1);
    await layers.make('rust', key(33), limited, 's', `owner-${REMEMBERED_ENDS}`);
    assert.equal(compiles, REMEMBERED_ENDS + 1, 'the newest is remembered');
    await layers.make('rust', key(33), limited, 's', 'owner-0');
    assert.equal(compiles, REMEMBERED_ENDS + 2, 'the oldest was forgotten');
    clean(dir);
  });

  it('a key that is no key makes nothing and says so', async () => {
    const dir = root();
    const layers = layersIn(dir, 60_000, 1 << 30);
    let compiles = 0;
    const outcome = await layers.make('golang', '../../etc', async () => {
      compiles++;
      return { ok: true };
    });
    assert.deepEqual(outcome, { made: false });
    assert.equal(compiles, 0);
    clean(dir);
  });

  it('a compiled layer that cannot be measured is not kept: the callers are told (they build on their own), nothing is left', asRoot, async () => {
    const dir = root();
    const layers = layersIn(dir, 60_000, 1 << 30);
    // The upper gone when the compile ends: measuring it throws, as an unreadable upper would.
    const outcome = await layers.make('golang', key(21), async (folders) => {
      fs.rmSync(folders.upper, { recursive: true, force: true });
      return { ok: true };
    });
    assert.equal(outcome.made, false);
    assert.match(outcome.unavailable ?? '', /could not be kept: ENOENT/);
    assert.equal(layers.find('golang', key(21)), undefined);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'golang')), [], 'no unfinished folder is left');
    assert.deepEqual(fs.readdirSync(`${dir}-scratch`), [], 'the scratch space is released');
    clean(dir);
  });

  it('a full layers filesystem: the copy fails, the callers are told (they build on their own), nothing is left', asRoot, async (t) => {
    const dir = root();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tooldex-layers-test', dir], { stdio: 'pipe' });
    } catch (error) {
      t.skip(`no tmpfs mount here: ${(error as Error).message.split('\n')[0]}`);
      clean(dir);
      return;
    }
    try {
      const layers = layersIn(dir, 60_000, 1 << 30);
      const compile = async (folders: { upper: string }) => {
        fs.writeFileSync(path.join(folders.upper, 'object'), Buffer.alloc(3 * 1024 * 1024, 1));
        return { ok: true };
      };
      const outcomes = await Promise.all([layers.make('rust', key(22), compile), layers.make('rust', key(22), compile)]);
      for (const outcome of outcomes) {
        assert.equal(outcome.made, false);
        assert.match(outcome.unavailable ?? '', /could not be kept: cp: .*No space left on device/);
      }
      assert.equal(layers.find('rust', key(22)), undefined);
      assert.deepEqual(fs.readdirSync(path.join(dir, 'rust')), [], 'the half-copied folder is removed');
    } finally {
      execFileSync('umount', [dir]);
      clean(dir);
    }
  });

  it('a compile volume that cannot be made leaves no image or mount folder behind', async (t) => {
    const dir = root();
    try {
      execFileSync('mkfs.ext4', ['-V'], { stdio: 'pipe' });
    } catch {
      t.skip('no mkfs.ext4 here');
      clean(dir);
      return;
    }
    // The mount root is a file: mkfs succeeds, then the mount folder cannot be made (as a failed mount after mkfs).
    const notAFolder = path.join(dir, 'mounts');
    fs.writeFileSync(notAFolder, '');
    const volumes = new SessionVolumes(path.join(dir, 'images'), notAFolder, OWNER, { bytes: 4 * 1024 * 1024, inodes: 1024 });
    const scratch = volumeScratch(volumes, OWNER);
    for (let attempt = 0; attempt < 2; attempt++) await assert.rejects(scratch(), /ENOTDIR|not a directory/);
    assert.deepEqual(volumes.list(), [], 'no image per failed attempt');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'images')), []);
    clean(dir);
  });

  it('no scratch space for a compile: it does not run, no layer, and the callers are told (they build on their own)', async () => {
    const dir = root();
    const layers = new BuildLayers(dir, async () => {
      throw new Error('mount: no free loop device');
    }, 60_000, 1 << 30);
    let compiles = 0;
    const outcome = await layers.make('golang', key(8), async () => {
      compiles++;
      return { ok: true };
    });
    assert.deepEqual(outcome, { made: false, unavailable: 'mount: no free loop device' });
    assert.equal(compiles, 0);
    assert.equal(layers.find('golang', key(8)), undefined);
    clean(dir);
  });

  it('a layer larger than the whole budget is not kept, and evicts nothing', asRoot, async () => {
    const dir = root();
    const MIB = 1024 * 1024;
    const layers = layersIn(dir, 0, 3 * MIB);
    const fill = (n: number, mib: number) => layers.make('rust', key(n), async (folders) => {
      fs.writeFileSync(path.join(folders.upper, 'object'), Buffer.alloc(mib * MIB, 1));
      return { ok: true };
    });
    await fill(1, 1);
    await fill(2, 1);
    const past = new Date(Date.now() - 60_000);
    for (const n of [1, 2]) fs.utimesSync(path.join(dir, 'rust', key(n)), past, past);
    const outcome = await fill(3, 4);
    assert.equal(outcome.made, false);
    assert.ok((outcome.tooLargeBytes ?? 0) >= 4 * MIB, String(outcome.tooLargeBytes));
    assert.deepEqual(fs.readdirSync(path.join(dir, 'rust')).sort(), [key(1), key(2)], 'the layers that fit stay; the oversized one is not kept');
    clean(dir);
  });

  it('the key is a hash of the graph and of the compile step itself: a changed script, environment or toolchain is a new key', () => {
    const step = { script: 'cargo build --offline', env: { A: '1', B: '2' } };
    const base = layerKey(['itoa@1.0.11'], step, 'rustc 1.80.0');
    assert.match(base, /^[0-9a-f]{32}$/);
    assert.equal(layerKey(['itoa@1.0.11'], { script: step.script, env: { B: '2', A: '1' } }, 'rustc 1.80.0'), base, 'the order of variables is no change');
    for (const changed of [
      layerKey(['itoa@1.0.12'], step, 'rustc 1.80.0'),
      layerKey(['itoa@1.0.11'], { ...step, script: `${step.script} --release` }, 'rustc 1.80.0'),
      layerKey(['itoa@1.0.11'], { ...step, env: { ...step.env, RUSTFLAGS: '-Copt-level=1' } }, 'rustc 1.80.0'),
      layerKey(['itoa@1.0.11'], step, 'rustc 1.81.0'),
    ]) assert.notEqual(changed, base);
  });

  it('removes the least recently used idle layers, of every runtime, while all of them together pass the byte budget', asRoot, async () => {
    const dir = root();
    const MIB = 1024 * 1024;
    // Room for four 1 MiB layers (plus their folders' blocks); a fifth makes it pass the budget.
    const layers = layersIn(dir, 1000, 4 * MIB + 256 * 1024);
    const fill = async (runtime: string, n: number, minutesAgo: number) => {
      await layers.make(runtime, key(n), async (folders) => {
        fs.writeFileSync(path.join(folders.upper, 'object'), Buffer.alloc(MIB, 1));
        return { ok: true };
      });
      const when = new Date(Date.now() - minutesAgo * 60_000);
      fs.utimesSync(path.join(dir, runtime, key(n)), when, when);
    };
    await fill('golang', 1, 50); // the oldest, but used again below
    await fill('rust', 2, 40);
    await fill('golang', 3, 30);
    await fill('rust', 4, 20);
    assert.ok(Number(fs.readFileSync(path.join(dir, 'rust', key(2), 'bytes'), 'utf8')) >= MIB, 'a layer records the bytes it allocates');
    assert.equal(fs.readdirSync(path.join(dir, 'golang')).length + fs.readdirSync(path.join(dir, 'rust')).length, 4, 'within the budget nothing goes');
    layers.find('golang', key(1));
    await fill('rust', 5, 0);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'golang')).sort(), [key(1), key(3)]);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'rust')).sort(), [key(4), key(5)], 'the least recently used idle layer (another runtime\'s) went');
    // Layers in use stay even past the budget: all used just now.
    const busy = layersIn(dir, 60 * 60_000, MIB);
    for (const [runtime, n] of [['golang', 1], ['golang', 3], ['rust', 4], ['rust', 5]] as const) busy.find(runtime, key(n));
    busy.prune();
    assert.equal(fs.readdirSync(path.join(dir, 'golang')).length + fs.readdirSync(path.join(dir, 'rust')).length, 4);
    clean(dir);
  });

  it('prunes past an entry another process removed meanwhile (its upper gone) instead of failing', () => {
    const dir = root();
    // A layer folder whose upper was taken away between the listing and the measure, as a concurrent prune does.
    fs.mkdirSync(path.join(dir, 'golang', key(7)), { recursive: true });
    const layers = layersIn(dir, 0, 0);
    assert.doesNotThrow(() => layers.prune());
    assert.ok(fs.existsSync(path.join(dir, 'golang', key(7))), 'an entry it could not measure is left alone');
    clean(dir);
  });

  it('counts allocated blocks, not lengths', () => {
    const dir = root();
    fs.writeFileSync(path.join(dir, 'small'), 'x');
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'big'), Buffer.alloc(300_000, 1));
    const bytes = allocatedBytes(dir);
    assert.ok(bytes >= 300_000 + 4096 && bytes < 400_000, String(bytes));
    clean(dir);
  });
});
