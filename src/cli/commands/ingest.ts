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
    .option('--offline', 'no network: records from the shipped seed lists for names the store lacks (fetched records are kept)')
    .option('--discover-crates <n>', 'also ingest the N most downloaded crates by crates.io\'s ranking (when its API is reachable)')
    .option('--no-measure', 'keep the shipped popularity figures instead of asking npm\'s downloads API and crates.io\'s API')
    .option('--names <list>', 'only these names, as ecosystem:name (e.g. crates:pyo3,npm:drizzle-orm)')
    .option('--snapshot <file>', 'afterwards, write the whole catalog to this snapshot file (.jsonl.gz)')
    .option('--docs', 'instead of metadata, pre-index the docs of the --top N (default 100) most popular catalog tools')
    .option('--verify', 'with --docs: also verify each tool\'s quickstart in the sandbox (run as root, like the server)')
    .addHelpText('after', '\nExamples:\n  tooldex ingest --ecosystem crates,go\n  tooldex ingest --offline\n  tooldex ingest --names crates:jiff,npm:drizzle-orm\n  tooldex ingest --top 500 --resume-hours 0\n  tooldex ingest --docs --top 50 --verify\n  TOOLDEX_SNAPSHOT=/dev/null tooldex ingest --snapshot data/catalog.jsonl.gz')
    .action(async (flags: IngestFlags) => (await import('./ingest-action.ts')).runIngest(flags));
}
