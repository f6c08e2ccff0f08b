// Options every client command shares (--url, --api-key, --format, --json) and the output-format rule:
// --format beats --json, which beats the default (human on a terminal, json when stdout is piped).
import { Option, type Command } from 'commander';
import { loadConfig } from '../config.ts';
import { DETAILS, type Detail } from '../projection.ts';
import { ToolDexClient } from './client.ts';

export const OUTPUT_FORMATS = ['human', 'json', 'toon'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ClientFlags {
  url?: string;
  apiKey?: string;
  format?: OutputFormat;
  json?: boolean;
  detail?: Detail;
}

export function addClientOptions(command: Command): Command {
  return command
    .option('--url <url>', 'tooldex server to talk to (default: TOOLDEX_URL or http://localhost:8080)')
    .option('--api-key <key>', 'API key sent as a Bearer token (default: TOOLDEX_API_KEY)')
    .addOption(new Option('--format <format>', 'output: human, json or toon (default: human on a terminal, json when piped)')
      .choices(OUTPUT_FORMATS))
    .option('--json', 'shorthand for --format json (an explicit --format wins)')
    .addOption(new Option('--detail <level>', 'json/toon fields: compact (what an agent acts on) or full (the REST result)')
      .choices(DETAILS).default('compact'));
}

export function outputFormat(flags: ClientFlags, stdoutIsTTY = Boolean(process.stdout.isTTY)): OutputFormat {
  if (flags.format) return flags.format;
  if (flags.json) return 'json';
  return stdoutIsTTY ? 'human' : 'json';
}

export function clientFrom(flags: ClientFlags): ToolDexClient {
  const config = loadConfig({ TOOLDEX_URL: flags.url, TOOLDEX_API_KEY: flags.apiKey });
  return new ToolDexClient({ url: config.TOOLDEX_URL, apiKey: config.TOOLDEX_API_KEY });
}

/** Help text block listing examples, shown after a command's options. */
export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
