// A Go struct too long for its 600-character signature lost the comments of the fields past the cut. Each documented
// exported field of such a struct is a member passage (`Writer.Async`); a struct that fits keeps them in its own passage.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const filler = Array.from({ length: 12 }, (_, i) => `\t// Setting${i} is one of many settings of the writer, documented at some length here.\n\tSetting${i} int`).join('\n');
const source = `package kafka

// Writer writes messages to a topic.
type Writer struct {
${filler}
	// Async, when true, makes WriteMessages never block: errors are reported to Completion instead.
	Async bool
	Balancer string // Balancer picks the partition of each message.
	Undocumented int
	hidden bool
}

// Small fits in its signature.
type Small struct {
	// Size of the buffer.
	Size int
}
`;

describe('Go fields of a long struct', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['go']); });
  const extract = () => apiFromGoModule(parsers, {
    module: 'example.com/kafka', files: new Map([['writer.go', source]]), locate: (file, where) => `${file}#${where.anchor ?? ''}`,
  });

  it('makes each documented exported field a member passage, its comment above or on its line', async () => {
    const drafts = await extract();
    const writer = drafts.find((d) => d.symbol === 'kafka.Writer');
    assert.ok(writer);
    assert.doesNotMatch(writer.content, /makes WriteMessages never block/, 'the cut signature lost it');
    const async = drafts.find((d) => d.symbol === 'kafka.Writer.Async');
    assert.ok(async, 'Writer.Async is a passage');
    assert.match(async.content, /Async bool/);
    assert.match(async.content, /makes WriteMessages never block/);
    assert.equal(async.url, 'writer.go#Writer.Async');
    assert.equal(async.member, true, 'a member passage: it yields to whole items where the cap binds');
    assert.equal(writer.member, undefined);
    assert.match(drafts.find((d) => d.symbol === 'kafka.Writer.Balancer')?.content ?? '', /picks the partition/);
  });

  it('leaves undocumented and unexported fields, and the fields of a struct that fits, in the struct', async () => {
    const symbols = (await extract()).map((d) => d.symbol);
    for (const absent of ['kafka.Writer.Undocumented', 'kafka.Writer.hidden', 'kafka.Small.Size']) assert.ok(!symbols.includes(absent), absent);
  });
});
