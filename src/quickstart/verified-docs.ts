// Wires verification into the docs capability's tool context without changing it: context() answers as before, then
// carries quickstart.verified (and the verified program) from the quickstart capability. Every surface gets it.
import type { Ecosystem } from '../catalog/index.ts';
import type { Config } from '../config.ts';
import type { DocsCapability } from '../docs/index.ts';
import { withVerification } from '../docs/context.ts';
import type { Logger } from '../log.ts';
import type { Quickstarts } from './index.ts';
import { entryOf, withheldBecause } from './offer.ts';

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
        if (row.status !== 'pending' || row.result?.quickstart) return withVerification(context, row, { waitedMs: config.TOOLDEX_QUICKSTART_WAIT_MS });
        // No preview yet (the verifier is still reading the package): the docs' example only if it could run as shown.
        const entry = entryOf(context.testRequest);
        const withheld = entry ? await withheldBecause(context.ecosystem as Ecosystem, entry.code, context.quickstart?.language ?? '', entry.path) : 'no runnable test body';
        return withVerification(context, row, { waitedMs: config.TOOLDEX_QUICKSTART_WAIT_MS, ...(withheld ? { docsExampleWithheld: withheld } : {}) });
      } catch (error) {
        logger.warn({ err: error, slug: context.slug }, 'quickstart verification state unavailable');
        return withVerification(context, { status: 'pending', attempts: 1, error: 'the verification state could not be read', result: null }, { docsExampleWithheld: 'its verification state is unknown' });
      }
    },
  };
}
