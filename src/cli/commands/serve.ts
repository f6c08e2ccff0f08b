// `tooldex serve`: the HTTP server (REST, MCP over HTTP, dashboard) on the configured store.
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the tooldex server (embedded store in TOOLDEX_HOME, or DATABASE_URL)')
    .option('-p, --port <port>', 'port to listen on (default: PORT or 8080)')
    .option('--host <host>', 'address to listen on (default: HOST or 127.0.0.1; 0.0.0.0 serves other machines)')
    .addHelpText('after', '\nProbes: GET /livez (liveness), GET /readyz or /healthz (readiness). On SIGTERM it refuses new work, lets\n' +
      'in-flight runs and ingestions finish (up to TOOLDEX_DRAIN_TIMEOUT_MS), logs what it drained and exits 0.\n' +
      'See docs/operating.md.\n\nExamples:\n  tooldex serve\n  PORT=9000 TOOLDEX_HOME=/srv/tooldex tooldex serve\n  DATABASE_URL=postgres://localhost/tooldex tooldex serve')
    .action(async (options: { port?: string; host?: string }) => {
      const config = loadConfig({ PORT: options.port === undefined ? undefined : Number(options.port), HOST: options.host });
      const { serve } = await import('../../serve.ts'); // loaded on use: the client commands start fast
      await serve(config);
    });
}
