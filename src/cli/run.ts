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

// Commander's error codes → ours: a usage error is a line like any other failure, with a stable code.
const USAGE_CODES: Record<string, string> = {
  'commander.unknownOption': 'unknown_option',
  'commander.unknownCommand': 'unknown_command',
  'commander.missingArgument': 'missing_argument',
  'commander.optionMissingArgument': 'missing_option_value',
  'commander.missingMandatoryOptionValue': 'missing_option',
  'commander.invalidArgument': 'invalid_argument',
  'commander.excessArguments': 'too_many_arguments',
  'commander.conflictingOption': 'conflicting_options',
};

/** The one line a usage error prints: `tooldex: <code>: <what> (Did you mean …?); see `tooldex <command> --help`.` */
export function usageLine(error: CommanderError, commandPath: string): string {
  const code = USAGE_CODES[error.code] ?? 'invalid_usage';
  const what = error.message.replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ').replace(/\.$/, '');
  return `tooldex: ${code}: ${what}; see \`${commandPath} --help\`.`;
}

export async function runCli(program: Command, argv: string[]): Promise<void> {
  // Which command failed to parse: commander reports it through that command's own output hook.
  let failed = program.name();
  // Subcommands registered before this call do not inherit these, so set them on every level.
  const override = (command: Command, path: string) => {
    command.exitOverride();
    command.configureOutput({ outputError: () => void (failed = path) });
    command.commands.forEach((sub) => override(sub, `${path} ${sub.name()}`));
  };
  override(program, program.name());
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" with exit code 0; a bare `tooldex` shows help on stderr (exit 2).
      if (error.exitCode !== 0 && !['commander.help', 'commander.helpDisplayed', 'commander.version'].includes(error.code)) {
        process.stderr.write(`${usageLine(error, failed)}\n`);
      }
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    const message = error instanceof ToolDexError ? `${error.code}: ${error.message}` : (error as Error).message;
    process.stderr.write(`tooldex: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exitCode = exitCodeOf(error);
  }
}
