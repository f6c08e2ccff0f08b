// Prints the README's configuration table from the config schema (src/config.ts), the single source of settings.
import { configSchema } from '../src/config.ts';

const rows = Object.entries(configSchema.shape).map(([name, schema]) => {
  const parsed = schema.safeParse(undefined);
  const fallback = parsed.success && parsed.data !== undefined && parsed.data !== "" ? `\`${String(parsed.data)}\`` : "—";
  const shown = name === 'TOOLDEX_HOME' ? '`~/.tooldex`' : name === 'TOOLDEX_SANDBOX_CONCURRENCY' ? 'number of cores' : fallback;
  return `| \`${name}\` | ${shown} | ${schema.description ?? ''} |`;
});
console.log(['| Setting | Default | Meaning |', '|---|---|---|', ...rows].join('\n'));
