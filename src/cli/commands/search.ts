// `tooldex search <query…>`: GET /tools/search on the server, printed as a table or as json/toon.
import { Option, type Command } from 'commander';
import { ECOSYSTEMS, type ToolResult } from '../../catalog/types.ts';
import { projectSearch } from '../../projection.ts';
import { addClientOptions, clientFrom, examples, outputFormat, type ClientFlags } from '../options.ts';
import { renderSearch, writeResult } from '../output.ts';
import { withSpinner } from '../spinner.ts';

interface SearchFlags extends ClientFlags {
  limit?: string;
  language?: string;
  ecosystem?: string;
  category?: string;
}

export function registerSearch(program: Command): void {
  addClientOptions(program
    .command('search')
    .description('Find developer tools for a task described in plain words')
    .argument('<query...>', 'what the tool should do, e.g. validate typescript object schemas')
    .option('-n, --limit <n>', 'results to return (1-50, default 10)')
    .option('--language <language>', 'only tools for this language (JavaScript, TypeScript, Python, Rust, Go, Ruby)')
    .addOption(new Option('--ecosystem <ecosystem>', 'only tools of this registry').choices(ECOSYSTEMS))
    .option('--category <category>', 'only tools in this category'))
    .addHelpText('after', examples(
      'tooldex search validate typescript object schemas at runtime',
      'tooldex search http client --ecosystem pypi -n 5',
      'tooldex search "hash passwords securely" --json | jq -r ".results[0].slug"',
    ))
    .action(async (words: string[], flags: SearchFlags) => {
      const client = clientFrom(flags);
      const result = await withSpinner('searching', client.get<{ results: ToolResult[] }>('/tools/search', {
        q: words.join(' '), limit: flags.limit, language: flags.language, ecosystem: flags.ecosystem, category: flags.category,
      }));
      writeResult(result, outputFormat(flags), renderSearch, (whole) => projectSearch(whole, flags.detail ?? 'compact'));
    });
}
