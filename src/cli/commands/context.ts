// `tooldex context <slug>`: GET /tools/context/:slug — install commands, imports and a quickstart.
import type { Command } from 'commander';
import type { ToolContext } from '../../docs/schema.ts';
import { projectContext } from '../../projection.ts';
import { addClientOptions, clientFrom, examples, outputFormat, type ClientFlags } from '../options.ts';
import { renderContext, writeResult } from '../output.ts';
import { withSpinner } from '../spinner.ts';

export function registerContext(program: Command): void {
  addClientOptions(program
    .command('context')
    .description('Show how to install and start with a tool: version, install, imports, quickstart')
    .argument('<slug>', 'tool slug from `tooldex search` (npm-zod, pypi-requests); npm:zod or a bare name also resolves')
    .option('--max-tokens <n>', 'token budget of the answer (200-32000): what does not fit is left out with a pointer')
    .option('--project <id>', 'a project id from `tooldex resolve`: the context of the version that project uses'))
    .addHelpText('after', examples(
      'tooldex context npm-zod',
      'tooldex context pypi-requests --format toon',
    ))
    .action(async (slug: string, flags: ClientFlags & { maxTokens?: string; project?: string }) => {
      const client = clientFrom(flags);
      const result = await withSpinner('reading package', client.get<ToolContext>(`/tools/context/${encodeURIComponent(slug)}`, { maxTokens: flags.maxTokens, project: flags.project }));
      writeResult(result, outputFormat(flags), renderContext, (whole) => projectContext(whole, flags.detail ?? 'compact'));
    });
}
