// Comment-less members folded into their owner's passage (an interface's or class's members, an `export =` value's
// properties) are still found by their own names: the owner's passage carries `Owner.member` and `member` as
// identifiers (the exact-identifier feature of ranking reads them), and a symbol lookup of the member answers the
// owner's item, saying it is folded there, instead of the closest names of a miss.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromNpmPackage } from '../../../src/docs/extract/dts.ts';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';
import type { IndexedPassage } from '../../../src/docs/rank.ts';
import { lookupSymbol } from '../../../src/docs/symbol.ts';

const locate = (file: string, where: { line?: number; anchor?: string }) => `https://example.test/${file}#${where.line ?? where.anchor ?? ''}`;

async function extract(name: string, declarations: string): Promise<PassageDraft[]> {
  const manifest = { name, types: 'index.d.ts' };
  return apiFromNpmPackage({ name, manifest, files: new Map([['package.json', JSON.stringify(manifest)], ['index.d.ts', declarations]]), locate });
}

// As the store hands passages to the index: identifiers lower case (the store also adds those found in the text).
const indexed = (drafts: PassageDraft[]): IndexedPassage[] => drafts.map((d, id) => ({
  id, url: d.url, title: d.title ?? null, headings: d.headings, content: d.content, source: d.source,
  identifiers: d.identifiers ?? [], symbol: d.symbol ?? null, importance: d.importance ?? 0.5, internal: Boolean(d.internal),
}));

const CLIENT = `/** Options of a client. */
export interface ClientOptions {
  /** Milliseconds before a request is abandoned. */
  timeout?: number;
  retryDelay?: number;
  baseUrl: string;
}
/** A client. */
export declare class Client {
  constructor(options: ClientOptions);
  /** Sends a request. */
  send(path: string): Promise<string>;
  close(): void;
}
`;

describe('folded members by name', () => {
  it('the owner passage names each folded member, qualified and bare; a documented member keeps its own passage', async () => {
    const drafts = await extract('fold-pkg', CLIENT);
    const options = drafts.find((d) => d.symbol === 'fold-pkg.ClientOptions')!;
    assert.ok(options, drafts.map((d) => d.symbol).join(', '));
    assert.match(options.content, /retryDelay\?: number;/);
    for (const id of ['clientoptions.retrydelay', 'retrydelay', 'clientoptions.baseurl', 'baseurl']) assert.ok(options.identifiers?.includes(id), `${id} in ${options.identifiers?.join(', ')}`);
    // Documented: its own passage, not an identifier of the owner's.
    assert.ok(!options.identifiers?.includes('clientoptions.timeout'));
    assert.ok(drafts.some((d) => d.symbol === 'fold-pkg.ClientOptions.timeout'));
    const client = drafts.find((d) => d.symbol === 'fold-pkg.Client')!;
    assert.ok(client.identifiers?.includes('client.close'));
  });

  it('an `export =` value\'s comment-less properties are identifiers of the value\'s passage', async () => {
    const drafts = await extract('colors-like', `interface Colors {\n  green(text: string): string;\n  red(text: string): string;\n}\ndeclare const colors: Colors & { createColors(enabled?: boolean): Colors };\nexport = colors;\n`);
    const value = drafts.find((d) => d.symbol === 'colors-like.colors')!;
    assert.ok(value, drafts.map((d) => d.symbol).join(', '));
    for (const id of ['colors.green', 'green', 'colors.createcolors', 'createcolors']) assert.ok(value.identifiers?.includes(id), `${id} in ${value.identifiers?.join(', ')}`);
  });

  it('a symbol lookup of a folded member answers its owner, saying it is folded there with its declaration line', async () => {
    const passages = indexed(await extract('fold-pkg', CLIENT));
    for (const asked of ['ClientOptions.retryDelay', 'fold-pkg.ClientOptions.retryDelay', 'clientoptions.retrydelay']) {
      const found = lookupSymbol(passages, asked, ['fold-pkg']);
      assert.equal(found.found, true, asked);
      assert.equal(found.exact, false);
      assert.equal(found.item!.symbol, 'fold-pkg.ClientOptions');
      assert.match(found.item!.documentation, /has no documentation of its own: it is a member of `fold-pkg\.ClientOptions`, folded into its passage \(`retryDelay\?: number`\)/);
      assert.match(found.item!.signature!, /interface ClientOptions/);
    }
    // The bare name, and a method of a class.
    assert.equal(lookupSymbol(passages, 'baseUrl', ['fold-pkg']).item?.symbol, 'fold-pkg.ClientOptions');
    const close = lookupSymbol(passages, 'Client.close', ['fold-pkg']);
    assert.equal(close.item?.symbol, 'fold-pkg.Client');
    assert.match(close.item!.documentation, /\(`close\(\): void`\)/);
    // A documented member is still its own item, exactly; an owner without such a member is still a miss with names.
    const timeout = lookupSymbol(passages, 'ClientOptions.timeout', ['fold-pkg']);
    assert.equal(timeout.item?.symbol, 'fold-pkg.ClientOptions.timeout');
    assert.equal(timeout.exact, true);
    const miss = lookupSymbol(passages, 'Client.retryDelay', ['fold-pkg']);
    assert.equal(miss.found, false);
    assert.ok(miss.suggestions.length > 0);
  });
});
