// The capabilities the MCP tools call, taken from the App. A capability not built into this App yet
// answers every call with a clear `unavailable` error instead of breaking the whole MCP surface.
import type { App } from '../app.ts';
import { ToolDexError } from '../errors.ts';
import type { Capabilities } from './tools.ts';

const missing = (what: string) => async (): Promise<never> => {
  throw new ToolDexError('unavailable', 503, `The ${what} capability is not available on this tooldex server; upgrade it.`,
    { retryAfterSeconds: 60 });
};

export function capabilitiesOf(app: App): Capabilities {
  const partial = app as App & Partial<Pick<Capabilities, 'docs' | 'sandbox'>>;
  return {
    catalog: app.catalog,
    docs: partial.docs ?? { search: missing('docs'), context: missing('docs') },
    sandbox: partial.sandbox ?? { run: missing('sandbox') },
  };
}
