// A namespaced Go config struct (sarama's `Config { Producer struct { … } }`) documents each setting on a field of an
// anonymous nested struct. Once the outer struct is too long for its signature, each documented field is a member
// passage; the nested ones were not, so their comments ("exactly one copy of each message") were in no passage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { loadParsers } from '../../../src/docs/extract/treesitter.ts';

const filler = Array.from({ length: 40 }, (_, i) => `\t\t// Setting${i} is setting number ${i} of the producer, described at some length.\n\t\tSetting${i} int`).join('\n');
const source = `package kafka

// Config is the configuration of a client.
type Config struct {
\t// Producer is the namespace for configuration related to producing messages.
\tProducer struct {
${filler}
\t\t// If enabled, the producer will ensure that exactly one copy of each message is written.
\t\tIdempotent bool
\t\tinternal bool
\t\t// Retry is how the producer retries.
\t\tRetry struct {
\t\t\t// Max is the total number of times to retry sending a message.
\t\t\tMax int
\t\t}
\t}
}
`;

test('documented fields of nested anonymous structs are member passages under their path', async () => {
  const parsers = await loadParsers(['go']);
  const drafts = await apiFromGoModule(parsers, { module: 'example.com/kafka', files: new Map([['config.go', source]]), locate: (file, where) => `${file}#${where.anchor ?? where.line ?? ''}` });
  const symbols = drafts.map((d) => d.symbol);
  const idempotent = drafts.find((d) => d.symbol === 'kafka.Config.Producer.Idempotent');
  assert.ok(idempotent, symbols.join(', '));
  assert.match(idempotent.content, /exactly one copy of each message/);
  assert.ok(symbols.includes('kafka.Config.Producer'), 'the namespace field itself stays');
  assert.ok(symbols.includes('kafka.Config.Producer.Retry.Max'), 'nested two deep');
  assert.ok(!symbols.some((s) => s?.endsWith('.internal')), 'unexported fields stay out');
});
