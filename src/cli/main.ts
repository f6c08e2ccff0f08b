// The `tooldex` bin: parses the command line and hands each command to its module in commands/.
import { Command } from 'commander';
import { registerServe } from './commands/serve.ts';
import { runCli } from './run.ts';

const program = new Command('tooldex')
  .description('Find developer tools, read their docs and prove a snippet works — one API for coding agents.')
  .showHelpAfterError('(run with --help for usage)');

registerServe(program);

await runCli(program, process.argv);
