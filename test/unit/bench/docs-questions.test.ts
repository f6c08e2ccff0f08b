// The docs bench's judge: a question's `file:` condition must match a passage's source however the question's
// writer named the file (as published, or as found in the unpacked npm tarball under `package/`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answers, parseExpectation } from '../../../bench/docs-questions.ts';

const readmePassage = { title: 'Usage', content: 'pc.red("text")', source: 'https://unpkg.com/picocolors@1.1.1/README.md' };

test('a file condition written against the unpacked tarball matches the published file', () => {
  assert.equal(answers(readmePassage, parseExpectation('file:package/README.md && text:pc.red')), true);
  assert.equal(answers(readmePassage, parseExpectation('file:README.md')), true);
});

test('a file condition still tells files apart', () => {
  assert.equal(answers(readmePassage, parseExpectation('file:package/CHANGELOG.md')), false);
  assert.equal(answers(readmePassage, parseExpectation('file:package/README.md && text:createColors')), false);
});

// Round 14's judging rule: a question may name the module that defines an item where the passage carries the path the
// package exports it by; the passage's source file says which module that is (Python and Rust only).
const exported = { title: 'Connection.copy_records_to_table', content: 'Copy a list of records.', symbol: 'asyncpg.Connection.copy_records_to_table', source: 'asyncpg/connection.py' };
const reexported = { title: 'HttpsConnectorBuilder', content: 'A builder.', symbol: 'hyper_rustls::HttpsConnectorBuilder', source: 'src/connector/builder.rs' };

test('a symbol named by its defining module matches the item exported at the package top', () => {
  assert.equal(answers(exported, parseExpectation('symbol:asyncpg.connection.Connection.copy_records_to_table')), true);
  assert.equal(answers(reexported, parseExpectation('symbol:hyper_rustls::connector::builder::HttpsConnectorBuilder')), true);
  assert.equal(answers(exported, parseExpectation('symbol:asyncpg.Connection.copy_records_to_table')), true);
});

test('the defining module does not widen a symbol to another module or another item', () => {
  assert.equal(answers(exported, parseExpectation('symbol:asyncpg.pool.Connection.copy_records_to_table')), false);
  assert.equal(answers(exported, parseExpectation('symbol:asyncpg.connection.Connection.copy_to_table')), false);
  // A Go or TypeScript item's file is not its module.
  assert.equal(answers({ ...exported, source: 'asyncpg/connection.go' }, parseExpectation('symbol:asyncpg.connection.Connection.copy_records_to_table')), false);
});

// Round 14: a Go example passage is also named by its Example function's name (the passage's own header says which).
const example = (content: string, symbol?: string) => ({ title: 't', content, symbol: symbol ?? null, source: 'example_test.go' });

test('a Go example passage answers a question naming its Example function', () => {
  const item = example('Example of `chromedp.PrintToPDF`:\n\n```go\nchromedp.Run(ctx, page.PrintToPDF())\n```', 'chromedp.PrintToPDF');
  assert.equal(answers(item, parseExpectation('symbol:ExamplePrintToPDF && text:page.PrintToPDF')), true);
  const method = example('Example (acceptAlert) of `chromedp.Events`:\n\n```go\nx\n```', 'chromedp.Events');
  assert.equal(answers(method, parseExpectation('symbol:ExampleEvents_acceptAlert')), true);
  const pkg = example('Example (publish) of `github.com/rabbitmq/amqp091-go`:\n\n```go\nx\n```');
  assert.equal(answers(pkg, parseExpectation('symbol:Example_publish')), true);
});

test('an Example name answers only from its own example passage', () => {
  const item = example('Example of `chromedp.PrintToPDF`:\n\n```go\nx\n```', 'chromedp.PrintToPDF');
  assert.equal(answers(item, parseExpectation('symbol:ExampleEvents_acceptAlert')), false);
  // The same header in a non-test file (documentation quoting it) is not an example function.
  assert.equal(answers({ ...item, source: 'doc.go' }, parseExpectation('symbol:ExamplePrintToPDF')), false);
  // The published judge (before round 14) does not read it.
  assert.equal(answers(item, parseExpectation('symbol:ExamplePrintToPDF'), 'published'), false);
});

// Round 16: a Go item named by its package's import path (`<import path>::Item::Member`, as pkg.go.dev shows it) is the
// passage whose root is the package's name and whose file lies in that package's directory.
const goItem = (symbol: string, source: string) => ({ title: symbol, content: 'Refresh extends the lock with a new TTL.', symbol, source });

test('a Go item named by its import path answers from the package it is in', () => {
  assert.equal(answers(goItem('redislock.Lock.Refresh', 'redislock.go'), parseExpectation('symbol:github.com/bsm/redislock::Lock::Refresh && text:extends the lock')), true);
  assert.equal(answers(goItem('puddle.Pool.TryAcquire', 'pool.go'), parseExpectation('symbol:github.com/jackc/puddle/v2::Pool::TryAcquire')), true);
  assert.equal(answers(goItem('arg.Parser.Subcommand', 'parse.go'), parseExpectation('symbol:github.com/alexflint/go-arg::Parser::Subcommand')), true);
  assert.equal(answers(goItem('yaml.Unmarshal', 'yaml.go'), parseExpectation('symbol:gopkg.in/yaml.v3::Unmarshal')), true);
  assert.equal(answers(goItem('statsd.WithTags', 'statsd/options.go'), parseExpectation('symbol:github.com/DataDog/datadog-go/v5/statsd::WithTags')), true);
  assert.equal(answers(goItem('limiter.Limiter.SetMessage', 'limiter/limiter.go'), parseExpectation('symbol:github.com/didip/tollbooth/v7/limiter::Limiter::SetMessage')), true);
});

test('an import path does not widen a Go symbol to another package, another item or another language', () => {
  // The module's root package, asked for a subpackage's item of the same name.
  assert.equal(answers(goItem('tollbooth.LimitFuncHandler', 'tollbooth.go'), parseExpectation('symbol:github.com/didip/tollbooth/v7/limiter::LimitFuncHandler')), false);
  // A subpackage's item, asked for the root package's.
  assert.equal(answers(goItem('limiter.New', 'limiter/limiter.go'), parseExpectation('symbol:github.com/didip/tollbooth/v7::New')), false);
  assert.equal(answers(goItem('redislock.Lock.Release', 'redislock.go'), parseExpectation('symbol:github.com/bsm/redislock::Lock::Refresh')), false);
  assert.equal(answers(goItem('redislock.Lock.Refresh', 'redislock.go'), parseExpectation('symbol:github.com/bsm/otherlock::Lock::Refresh')), false);
  assert.equal(answers(goItem('redislock.Lock.Refresh', 'redislock.py'), parseExpectation('symbol:github.com/bsm/redislock::Lock::Refresh')), false);
  // The published judge (before round 14) does not read it.
  assert.equal(answers(goItem('redislock.Lock.Refresh', 'redislock.go'), parseExpectation('symbol:github.com/bsm/redislock::Lock::Refresh'), 'published'), false);
});

// Round 16: a text condition written without the passage's inline-code marks (copied from rendered docs) is met.
const converters = { title: 'Creating Custom Converters', content: 'you can\nalways inherit from `MarkdownConverter` and override the method you want to\nchange.', source: 'README.rst' };

test('a text condition is met whether or not it carries the inline-code marks the passage has', () => {
  assert.equal(answers(converters, parseExpectation('title:Creating Custom Converters && text:inherit from MarkdownConverter and override the method')), true);
  assert.equal(answers(converters, parseExpectation('text:inherit from `MarkdownConverter` and override')), true);
  assert.equal(answers({ ...converters, content: 'inherit from MarkdownConverter and override it' }, parseExpectation('text:inherit from `MarkdownConverter` and override')), true);
  assert.equal(answers(converters, parseExpectation('text:inherit from MarkdownParser')), false);
  assert.equal(answers(converters, parseExpectation('text:inherit from MarkdownConverter and override the method'), 'published'), false);
});
