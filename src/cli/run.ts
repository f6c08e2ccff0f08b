// Runs a commander program with tooldex's exit codes: 0 ok, 1 snippet did not run, 2 usage, 3 server/network.
import { CommanderError, type Command } from 'commander';
import { ToolDexError } from '../errors.ts';

export const EXIT = { ok: 0, notOk: 1, usage: 2, server: 3 } as const;

export async function runCli(program: Command, argv: string[]): Promise<void> {
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const message = error instanceof ToolDexError ? `${error.code}: ${error.message}` : (error as Error).message;
    process.stderr.write(`tooldex: ${message}\n`);
    process.exitCode = error instanceof ToolDexError && error.status < 500 && error.status !== 409 ? EXIT.usage : EXIT.server;
  }
}
