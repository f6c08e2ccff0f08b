// `tooldex ingest`: builds or refreshes the catalog from the registries (or pre-indexes docs with --docs).
// Registration only; the work lives in ingest-action.ts, loaded when the command runs, so other commands start fast.
import type { Command } from 'commander';
import { ECOSYSTEMS } from '../../catalog/types.ts';
import type { IngestFlags } from './ingest-action.ts';

export function registerIngest(program: Command): void {
  program
    .command('ingest')
    .description('Fetch tool metadata from npm, PyPI, crates.io, the Go proxy and RubyGems into the catalog')
    .option('-e, --ecosystem <list>', `comma-separated ecosystems (${ECOSYSTEMS.join(', ')}); default all`)
    .option('--top <n>', 'only the N most popular names of each seed list')
    .option('-c, --concurrency <n>', 'requests in flight per registry', '12')
    .option('--resume-hours <h>', 'skip names fetched within H hours (resume an interrupted run); 0 refetches all', '12')
    .option('--snapshot <file>', 'afterwards, write the whole catalog to this snapshot file (.jsonl.gz)')
    .option('--docs', 'instead of metadata, pre-index the docs of the --top N (default 100) most popular catalog tools')
    .addHelpText('after', '\nExamples:\n  tooldex ingest --ecosystem crates,go\n  tooldex ingest --top 500 --resume-hours 0\n  TOOLDEX_SNAPSHOT=/dev/null tooldex ingest --snapshot data/catalog.jsonl.gz')
    .action(async (flags: IngestFlags) => (await import('./ingest-action.ts')).runIngest(flags));
}
