// Runs a commander program with tooldex's exit codes: 0 ok, 1 snippet did not run, 2 usage, 3 server/network.
// Every failure is one line on stderr: "tooldex: <code>: <cause and fix>".
import { CommanderError, type Command } from 'commander';
import { ToolDexError } from '../errors.ts';
import { ServerError } from './client.ts';

export const EXIT = { ok: 0, notOk: 1, usage: 2, server: 3 } as const;

/** Usage: a bad flag or argument, caught here or rejected by the server as invalid input (400/422). */
export function exitCodeOf(error: unknown): number {
  if (!(error instanceof ToolDexError)) return EXIT.server;
  if (error instanceof ServerError) return error.status === 400 || error.status === 422 ? EXIT.usage : EXIT.server;
  return error.status < 500 && error.status !== 409 ? EXIT.usage : EXIT.server;
}

export async function runCli(program: Command, argv: string[]): Promise<void> {
  // Subcommands registered before this call do not inherit it, so set it on every level.
  const override = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  override(program);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const message = error instanceof ToolDexError ? `${error.code}: ${error.message}` : (error as Error).message;
    process.stderr.write(`tooldex: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exitCode = exitCodeOf(error);
  }
}
