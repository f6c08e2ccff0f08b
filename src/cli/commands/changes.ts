// `tooldex changes <slug> <from> <to> [question...]`: GET /tools/changes/:slug — what changed between two versions.
import type { Command } from 'commander';
import type { ChangesResult } from '../../changes/index.ts';
import { projectChanges } from '../../projection.ts';
import { addClientOptions, clientFrom, examples, outputFormat, type ClientFlags } from '../options.ts';
import { renderChanges, writeResult } from '../output.ts';
import { withSpinner } from '../spinner.ts';

export function registerChanges(program: Command): void {
  addClientOptions(program
    .command('changes')
    .description('Show what changed between two versions of a tool: API removed, changed, deprecated, added, and the release notes')
    .argument('<slug>', 'tool slug or name (npm-zod, zod, pypi:sqlalchemy)')
    .argument('<from>', 'older version (3.23.8, 3, or tool@version for a Go major at another path)')
    .argument('<to>', 'newer version')
    .argument('[question...]', 'what you want to know ("what replaced nonempty")')
    .option('--max-tokens <n>', 'token budget of the answer (200–32000; default 2000)'))
    .addHelpText('after', examples(
      'tooldex changes zod 3.23.8 4',
      'tooldex changes pypi:sqlalchemy 1.4 2.0 "how do I run a query"',
    ))
    .action(async (slug: string, from: string, to: string, question: string[], flags: ClientFlags & { maxTokens?: string }) => {
      const client = clientFrom(flags);
      const q = question.join(' ').trim() || undefined;
      const result = await withSpinner(`comparing ${from} and ${to}`, client.get<ChangesResult>(
        `/tools/changes/${encodeURIComponent(slug)}`, { from, to, q, maxTokens: flags.maxTokens }, 600_000));
      writeResult(result, outputFormat(flags), renderChanges, (whole) => projectChanges(whole, flags.detail ?? 'compact'));
    });
}
