// Wires verification into the docs capability's tool context without changing it: context() answers as before, then
// carries quickstart.verified (and the verified program) from the quickstart capability. Every surface gets it.
import type { Config } from '../config.ts';
import type { DocsCapability } from '../docs/index.ts';
import { withVerification } from '../docs/context.ts';
import type { Logger } from '../log.ts';
import type { Quickstarts } from './index.ts';

export function withVerifiedQuickstarts(docs: DocsCapability, quickstarts: Quickstarts, config: Config, logger: Logger): DocsCapability {
  return {
    ...docs,
    async context(slugReference) {
      const context = await docs.context(slugReference);
      if (config.TOOLDEX_QUICKSTART_VERIFY === 'off') {
        return withVerification(context, { status: 'unverifiable', attempts: 0, error: null, result: {
          verified: { status: 'unverifiable', reason: 'quickstart verification is turned off on this server (TOOLDEX_QUICKSTART_VERIFY=off)' },
          quickstart: null, testRequest: null, tried: [],
        } });
      }
      try {
        const row = await quickstarts.request(
          { slug: context.slug, version: context.version, ecosystem: context.ecosystem, name: context.name }, config.TOOLDEX_QUICKSTART_WAIT_MS);
        return withVerification(context, row);
      } catch (error) {
        logger.warn({ err: error, slug: context.slug }, 'quickstart verification state unavailable');
        return withVerification(context, { status: 'pending', attempts: 1, error: 'the verification state could not be read', result: null });
      }
    },
  };
}
