// The `tooldex` bin: parses the command line and hands each command to its module in commands/.
import { Command } from 'commander';
import { registerIngest } from './commands/ingest.ts';
import { registerChanges } from './commands/changes.ts';
import { registerContext } from './commands/context.ts';
import { registerDoctor } from './commands/doctor.ts';
import { registerDocs } from './commands/docs.ts';
import { registerKeys } from './commands/keys.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerResolve } from './commands/resolve.ts';
import { registerSearch } from './commands/search.ts';
import { registerServe } from './commands/serve.ts';
import { registerTest } from './commands/test.ts';
import { PROGRAM_HELP } from './help.ts';
import { runCli } from './run.ts';

const program = new Command('tooldex')
  .description('Find developer tools, read their docs and prove a snippet works — one API for coding agents.')
  .addHelpText('after', PROGRAM_HELP);

registerSearch(program);
registerContext(program);
registerDocs(program);
registerTest(program);
registerResolve(program);
registerChanges(program);
registerServe(program);
registerMcp(program);
registerIngest(program);
registerKeys(program);
registerDoctor(program);

await runCli(program, process.argv);
