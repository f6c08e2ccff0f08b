// `tooldex docs <slug> <question…>`: GET /tools/docs/:slug — ranked passages of the tool's official docs.
import type { Command } from 'commander';
import type { DocsResult, DocsSymbolResult } from '../../docs/schema.ts';
import { projectDocs } from '../../projection.ts';
import { addClientOptions, clientFrom, examples, outputFormat, type ClientFlags } from '../options.ts';
import { renderDocs, writeResult } from '../output.ts';
import { withSpinner } from '../spinner.ts';

export function registerDocs(program: Command): void {
  addClientOptions(program
    .command('docs')
    .description("Answer a question from a tool's official documentation")
    .argument('<slug>', 'tool slug from `tooldex search` (npm-zod, pypi-requests)')
    .argument('[question...]', 'the question, in plain words (or --symbol)')
    .option('-n, --limit <n>', 'passages to return whole (1-20, default 5)')
    .option('-s, --symbol <name>', 'look up one API item instead: tokio::time::timeout, lodash.debounce, requests.Session.mount')
    .option('--max-tokens <n>', 'token budget of the answer (200-32000): passages whole, then one-line pointers')
    .option('--project <id>', 'a project id from `tooldex resolve`: answer at the version that project uses'))
    .addHelpText('after', examples(
      'tooldex docs npm-zod how do I make a field optional',
      'tooldex docs pypi-requests "set a timeout on every request" -n 3 --json',
      'tooldex docs pypi-requests --symbol requests.Session.mount',
      'tooldex docs crates-tokio "cancel a future after a delay" --max-tokens 1500',
    ))
    .action(async (slug: string, words: string[], flags: ClientFlags & { limit?: string; symbol?: string; maxTokens?: string; project?: string }) => {
      const client = clientFrom(flags);
      // The server says what is missing or too much (q or symbol, one of them), as it does for every client.
      const result = await withSpinner('searching the docs (the first question about a package indexes it)',
        client.get<DocsResult | DocsSymbolResult>(`/tools/docs/${encodeURIComponent(slug)}`, {
          q: words.length ? words.join(' ') : undefined, symbol: flags.symbol, limit: flags.limit, maxTokens: flags.maxTokens, project: flags.project,
        }));
      writeResult(result, outputFormat(flags), renderDocs, (whole) => projectDocs(whole, flags.detail ?? 'compact'));
    });
}
