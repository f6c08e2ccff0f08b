// Background embedding yields to a first question's own work: while an ingestion or a package index is held as
// foreground (src/docs/foreground.ts), the encoder gets no background passages, and a question's own candidates are
// still embedded at once; once the foreground settles, the background embeds the rest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { Foreground } from '../../../src/docs/foreground.ts';
import { createDocsSemantic } from '../../../src/docs/semantic.ts';
import { syntheticPackageIndex } from '../../helpers/docs-index.ts';
import type { Embedder, EmbedKind, EmbedPriority } from '../../../src/semantic/index.ts';

/** A two-dimensional encoder that records what it is asked to embed, and at which priority. */
class RecordingEncoder implements Embedder {
  readonly id = 'recording';
  readonly dimensions = 2;
  readonly kind = 'transformer' as const;
  readonly calls: Array<{ kind: EmbedKind; priority: EmbedPriority | undefined; texts: number }> = [];
  async embed(texts: string[], kind: EmbedKind, priority?: EmbedPriority) {
    this.calls.push({ kind, priority, texts: texts.length });
    await new Promise((resolve) => setImmediate(resolve));
    return texts.map(() => Float32Array.from([0.6, 0.8]));
  }
  background() {
    return this.calls.filter((c) => c.priority === 'background').reduce((n, c) => n + c.texts, 0);
  }
}


const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background embedding and the foreground', () => {
  it('sends no background passage while a first question is being indexed, and all of them after', async () => {
    const encoder = new RecordingEncoder();
    const foreground = new Foreground();
    const semantic = createDocsSemantic(null, encoder, pino({ level: 'silent' }), undefined, { yieldTo: () => foreground.clear() });
    let finishIngestion!: () => void;
    void foreground.hold(new Promise<void>((resolve) => { finishIngestion = resolve; }));
    assert.equal(foreground.busy, true);

    const index = syntheticPackageIndex(100);
    const meaning = await semantic.meaning(index, 'open a stream', [0, 1, 2]);
    assert.equal(meaning.ranking, 'semantic', 'the question itself is compared by meaning while the foreground is held');
    assert.ok(encoder.calls.some((c) => c.priority === 'now' && c.texts === 3), 'its candidates are embedded at once');
    await settle(50);
    assert.equal(encoder.background(), 0, 'no background passage while the ingestion is held');

    finishIngestion();
    await semantic.idle();
    assert.equal(foreground.busy, false);
    assert.equal(encoder.background(), 97, 'the rest of the package once the foreground settles');
    await semantic.close();
  });

  it('counts overlapping work until the last settles, a failure included', async () => {
    const foreground = new Foreground();
    await foreground.clear(); // nothing held: at once
    let failFirst!: (error: Error) => void, endSecond!: () => void;
    const first = foreground.hold(new Promise<void>((_, reject) => { failFirst = reject; }));
    void foreground.hold(new Promise<void>((resolve) => { endSecond = resolve; }));
    let cleared = false;
    const waiting = foreground.clear().then(() => { cleared = true; });
    failFirst(new Error('registry away'));
    await assert.rejects(first, /registry away/);
    await settle(10);
    assert.equal(cleared, false, 'one piece of foreground work is still under way');
    endSecond();
    await waiting;
    assert.equal(cleared, true);
  });
});
