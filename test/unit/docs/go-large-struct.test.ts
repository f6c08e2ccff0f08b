// A large config struct (cobra's Command has ~50 exported fields) names every field as an identifier of its passage.
// Those names went through a 40-identifier cap in the store with two names per field, so past ~18 fields the later
// fields (`Command.RunE`) and the text's own identifiers were cut off, and a symbol lookup of such a field missed.
// Here: extraction → a real store (PGlite; PostgreSQL too when TEST_DATABASE_URL is set) → the package index as
// served → symbol lookup.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { loadParsers } from '../../../src/docs/extract/treesitter.ts';
import { createPackageIndexes } from '../../../src/docs/package-index.ts';
import { insertPassages } from '../../../src/docs/repository.ts';
import { lookupSymbol } from '../../../src/docs/symbol.ts';
import type { Store } from '../../../src/store/index.ts';
import { freshStore, storeKinds } from '../../helpers/stores.ts';

const FIELDS = 30;
const fieldName = (i: number) => `F${i}Field`;
const source = `package cli

// Command is a command of the program; see \`ExecuteContext\` and \`SetHelpTemplate\` for running it.
type Command struct {
${Array.from({ length: FIELDS }, (_, i) => `\t${fieldName(i)} string`).join('\n')}
\tRunE func(cmd *Command, args []string) error
}
`;

for (const kind of storeKinds()) describe(`a Go struct with more fields than the old identifier cap (${kind})`, () => {
  let store: Store;
  let close: (() => Promise<void>) | undefined;
  before(async () => { ({ store, close } = await freshStore(kind)); });
  after(async () => { await close?.(); });

  it('keeps every Type.field name and the text\'s identifiers through the store, and a lookup of the last fields finds the struct', async () => {
    const parsers = await loadParsers(['go']);
    const drafts = await apiFromGoModule(parsers, {
      module: 'example.com/cli', files: new Map([['command.go', source]]), locate: (file, where) => `${file}#${where.anchor ?? ''}`,
    });
    const command = drafts.find((d) => d.symbol === 'cli.Command');
    assert.ok(command, drafts.map((d) => d.symbol).join(', '));
    // Every qualified name comes before any bare one.
    const ids = command.identifiers ?? [];
    const lastQualified = ids.lastIndexOf('command.rune');
    assert.ok(lastQualified >= 0);
    assert.ok(ids.slice(lastQualified + 1).every((id) => !id.startsWith('command.')), ids.join(', '));

    await insertPassages(store, 'go-example.com/cli', '1.0.0', drafts);
    const index = await createPackageIndexes(store).get('go-example.com/cli', '1.0.0', 'test');
    const stored = index.passages.find((p) => p.symbol === 'cli.Command')!;
    for (let i = 0; i < FIELDS; i++) assert.ok(stored.identifiers.includes(`command.${fieldName(i).toLowerCase()}`), fieldName(i));
    assert.ok(stored.identifiers.includes('command.rune'));
    assert.ok(stored.identifiers.includes(fieldName(FIELDS - 1).toLowerCase()), 'bare names kept too');
    // The text's own identifiers are not pushed out by the fields.
    for (const id of ['executecontext', 'sethelptemplate']) assert.ok(stored.identifiers.includes(id), `${id} in ${stored.identifiers.join(', ')}`);

    for (const asked of ['Command.RunE', 'cli.Command.RunE', `Command.${fieldName(FIELDS - 1)}`]) {
      const found = lookupSymbol(index.passages, asked, ['example.com/cli', 'cli']);
      assert.equal(found.found, true, asked);
      assert.equal(found.exact, false, asked);
      assert.equal(found.item?.symbol, 'cli.Command', asked);
      assert.match(found.item!.documentation, /has no documentation of its own: it is a member of `cli\.Command`/);
    }
    // A field the struct does not have is still a miss answered with names.
    const miss = lookupSymbol(index.passages, 'Command.NoSuchField', ['example.com/cli', 'cli']);
    assert.equal(miss.found, false);
  });
});
