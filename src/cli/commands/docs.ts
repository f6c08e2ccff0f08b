// `tooldex docs <slug> <question…>`: GET /tools/docs/:slug — ranked passages of the tool's official docs.
import type { Command } from 'commander';
import type { DocsResult } from '../../docs/schema.ts';
import { projectDocs } from '../../projection.ts';
import { addClientOptions, clientFrom, examples, outputFormat, type ClientFlags } from '../options.ts';
import { renderDocs, writeResult } from '../output.ts';
import { withSpinner } from '../spinner.ts';

export function registerDocs(program: Command): void {
  addClientOptions(program
    .command('docs')
    .description("Answer a question from a tool's official documentation")
    .argument('<slug>', 'tool slug from `tooldex search` (npm-zod, pypi-requests)')
    .argument('<question...>', 'the question, in plain words')
    .option('-n, --limit <n>', 'passages to return (1-20, default 5)'))
    .addHelpText('after', examples(
      'tooldex docs npm-zod how do I make a field optional',
      'tooldex docs pypi-requests "set a timeout on every request" -n 3 --json',
    ))
    .action(async (slug: string, words: string[], flags: ClientFlags & { limit?: string }) => {
      const client = clientFrom(flags);
      const result = await withSpinner('searching the docs (the first question about a package indexes it)',
        client.get<DocsResult>(`/tools/docs/${encodeURIComponent(slug)}`, { q: words.join(' '), limit: flags.limit }));
      writeResult(result, outputFormat(flags), renderDocs, (whole) => projectDocs(whole, flags.detail ?? 'compact'));
    });
}
