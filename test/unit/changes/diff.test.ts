// The API difference and release-note selection of GET /tools/changes (issue 23), on items and notes made here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffApis, type ApiItem } from '../../../src/changes/api-diff.ts';
import { itemsFromPassages } from '../../../src/changes/api-items.ts';
import { foldedMembers } from '../../../src/changes/members.ts';
import { rankForQuestion, rankSections } from '../../../src/changes/rank.ts';
import { compareReleases, isReleaseNotesFile, noteSections, releaseOf, sectionsInRange } from '../../../src/changes/release-notes.ts';

const item = (symbol: string, signature: string | null, extra: Partial<ApiItem> = {}): ApiItem =>
  ({ symbol, signature, deprecated: false, source: 'index.d.ts', url: `u#${symbol}`, summary: null, ...extra });

test('an item that moved to another file, or was only re-formatted, is not a change', () => {
  const diff = diffApis(
    [item('z.string', 'function string(params?: Params): ZodString', { source: 'a.d.ts' }), item('z.object', 'function object<T>(shape: T):   ZodObject<T>')],
    [item('z.string', 'function string(params?: Params): ZodString', { source: 'b/c.d.ts' }), item('z.object', 'function object<T>(\n  shape: T,\n): ZodObject<T>')],
  );
  assert.deepEqual({ removed: diff.removed.length, added: diff.added.length, signature: diff.signature.length, unchanged: diff.unchanged }, { removed: 0, added: 0, signature: 0, unchanged: 2 });
});

test('removed, added, signature changed and newly deprecated, each with both sides where it has them', () => {
  const diff = diffApis(
    [item('s.nonempty', 'nonempty(): this'), item('s.min', 'min(n: number): this'), item('s.email', 'email(): this')],
    [item('s.min', 'min(n: number, message?: string): this'), item('s.email', 'email(): this', { deprecated: true }), item('s.check', 'check(...c: Check[]): this')],
  );
  assert.deepEqual(diff.removed.map((c) => c.symbol), ['s.nonempty']);
  assert.equal(diff.removed[0]!.to, undefined);
  assert.deepEqual(diff.added.map((c) => c.symbol), ['s.check']);
  assert.deepEqual(diff.signature.map((c) => [c.symbol, c.from!.signature, c.to!.signature]), [['s.min', 'min(n: number): this', 'min(n: number, message?: string): this']]);
  assert.deepEqual(diff.deprecated.map((c) => c.symbol), ['s.email']);
});

test('members folded into a class declaration are items of their own; private ones are not API', () => {
  const declaration = 'export class Axios {\n  defaults: AxiosDefaults;\n  get<T>(url: string): Promise<T>;\n  get<T>(url: URL): Promise<T>;\n  private secret: string;\n}';
  assert.deepEqual(foldedMembers('index.d.ts', declaration).map((m) => m.name), ['defaults', 'get']);
  assert.match(foldedMembers('index.d.ts', declaration)[1]!.signature, /url: string[\s\S]*url: URL/);
  assert.deepEqual(foldedMembers('lib.rs', declaration), [], 'only TypeScript is read this way');
  const items = itemsFromPassages([
    { symbol: 'axios.Axios', content: `\`\`\`ts\n${declaration}\n\`\`\`\n\nThe client.`, source: 'index.d.ts', url: 'u', deprecated: false, internal: false },
    { symbol: 'axios.Axios', content: 'More prose about it.', source: 'README.md', url: 'r', deprecated: false, internal: false },
    { symbol: 'axios._private', content: '```ts\nx\n```', source: 'index.d.ts', url: 'u', deprecated: false, internal: true },
  ]);
  assert.deepEqual(items.map((i) => i.symbol).sort(), ['axios.Axios', 'axios.Axios.defaults', 'axios.Axios.get']);
  assert.equal(items.find((i) => i.symbol === 'axios.Axios')!.summary, 'The client.');
});

test('release-note files and the release a section is about', () => {
  for (const path of ['CHANGELOG.md', 'HISTORY.rst', 'docs/migration-v4.md', 'doc/build/changelog/migration_20.rst', 'UPGRADE_GUIDE.md', 'RELEASES.md', 'CHANGES']) {
    assert.ok(isReleaseNotesFile(path), path);
  }
  for (const path of ['README.md', 'src/changes.ts', 'tests/CHANGELOG.md', 'docs/guide.md']) assert.ok(!isReleaseNotesFile(path), path);
  assert.equal(releaseOf(['Changelog', 'v4.0.0 (2025-05-19)']), '4.0.0');
  assert.equal(releaseOf(['History', 'Version 2.0b1']), '2.0b1');
  assert.equal(releaseOf(['Changelog', '[1.0.0] - 2022-10-04', 'Fixed']), '1.0.0');
  assert.equal(releaseOf(['Changelog', 'Unreleased']), null);
  assert.ok(compareReleases('1.10.0', '1.9.3') > 0);
  assert.ok(compareReleases('v5.1.0', '1.5.5') > 0);
  assert.ok(compareReleases('2.0.0-beta.1', '2.0.0') < 0);
});

test('sections of releases after from up to to, and migration guides, those naming changed symbols first', () => {
  const markdown = '# Changelog\n\n## 4.1.0\n\nAdded `check`.\n\n## 4.0.0\n\n`nonempty` was removed: use `min(1)`.\n\n## 3.24.0\n\nFaster `parse`.\n\n## 3.23.8\n\nOld.\n';
  const sections = noteSections([{ path: 'CHANGELOG.md', bytes: new TextEncoder().encode(markdown) }], (path, line) => `${path}#L${line}`);
  const inRange = sectionsInRange(sections, '3.23.8', '4.0.0');
  assert.deepEqual(inRange.map((s) => s.release), ['4.0.0', '3.24.0']);
  const diff = diffApis([item('z.ZodString.nonempty', 'nonempty(): this')], []);
  const ranked = rankSections(inRange, diff);
  assert.equal(ranked[0]!.release, '4.0.0');
  assert.deepEqual(ranked[0]!.mentions, ['nonempty']);
  const answers = rankForQuestion('what replaced nonempty', diff.removed, ranked, 5);
  assert.ok(answers.length >= 2);
  assert.ok(answers.some((a) => a.kind === 'change' && a.change.symbol === 'z.ZodString.nonempty'));
  assert.ok(answers.some((a) => a.kind === 'note' && a.note.release === '4.0.0'));
});

test('an item at a new path with the same name and declaration is a move; a rename is a removal and an addition', () => {
  const diff = diffApis(
    [item('zod.ZodString.nonempty', 'nonempty(message?: string): ZodString'), item('pkg.old_name', 'def old_name(x)')],
    [item('zod/v3.ZodString.nonempty', 'nonempty(message?: string): ZodString'), item('pkg.new_name', 'def new_name(x)')],
  );
  assert.deepEqual(diff.moved.map((c) => [c.movedFrom, c.symbol]), [['zod.ZodString.nonempty', 'zod/v3.ZodString.nonempty']]);
  assert.deepEqual(diff.removed.map((c) => c.symbol), ['pkg.old_name']);
  assert.deepEqual(diff.added.map((c) => c.symbol), ['pkg.new_name']);
});

test('a context at an older major says that a newer one exists and how to ask what changed', async () => {
  const { newerMajorNote } = await import('../../../src/docs/context.ts');
  assert.match(newerMajorNote('npm-zod', 'zod', '3.23.8', '4.6.7')!, /zod 4\.6\.7 is a newer major release than 3\.23\.8: GET \/tools\/changes\/npm-zod\?from=3\.23\.8&to=4\.6\.7/);
  assert.match(newerMajorNote('npm-axios', 'axios', '0.27.2', '1.7.9')!, /newer major/);
  assert.match(newerMajorNote('crates-rand', 'rand', '0.8.5', '0.9.1')!, /newer major/, '0.x: the minor is the major');
  assert.equal(newerMajorNote('npm-zod', 'zod', '4.0.0', '4.6.7'), undefined);
  assert.equal(newerMajorNote('pypi-x', 'x', '2024.1', '2024.3'), undefined);
});
