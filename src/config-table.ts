// The settings table of docs/configuration.md, rendered from the config schema so the page cannot drift from the code.
// Used by `npm run config-table` and by the unit test that checks the page.
import { configSchema } from './config.ts';

/** Defaults that depend on the machine are shown by what they mean, not by this machine's value. */
const machineDependent: Record<string, string> = {
  TOOLDEX_HOME: '`~/.tooldex`',
  TOOLDEX_SANDBOX_CONCURRENCY: 'twice the number of cores (at least 2)',
  TOOLDEX_SEMANTIC_MODEL_DIR: '`data/semantic/tooldex-static-minilm-l6-v2-256-r1` (shipped)',
  TOOLDEX_SEMANTIC_ENCODER_DIR: '`data/semantic/tooldex-bge-small-en-v1.5-onnx-int8-r1` (shipped)',
};

export function configTable(): string {
  const rows = Object.entries(configSchema.shape).map(([name, schema]) => {
    const parsed = schema.safeParse(undefined);
    const fallback = parsed.success && parsed.data !== undefined && parsed.data !== '' ? `\`${String(parsed.data)}\`` : '—';
    return `| \`${name}\` | ${machineDependent[name] ?? fallback} | ${schema.description ?? ''} |`;
  });
  return ['| Setting | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
