// demoteLegacy: a package's older API kept inside it is ranked down and marked deprecated; names its authors mark with
// a leading underscore are internal; `$`-prefixed core names are ranked down but stay public.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoteLegacy } from '../../../src/docs/documents.ts';
import type { PassageDraft } from '../../../src/docs/extract/types.ts';

const api = (symbol: string): PassageDraft => ({ url: `https://x.test/${symbol}`, title: symbol, headings: [symbol], content: 'doc', source: 'index.d.ts', symbol, importance: 0.8 });
const labels = (p: PassageDraft) => ({ symbol: p.symbol, importance: Math.round((p.importance ?? 0) * 100) / 100, deprecated: p.deprecated ?? false, internal: p.internal ?? false });

describe('demoteLegacy', () => {
  it('labels zod 4\'s legacy namespace deprecated, its underscored helpers internal, and leaves its public API alone', () => {
    const out = demoteLegacy(['zod.string', 'zod/v3.ZodType.optional', 'zod.core._default', 'zod.core.$ZodType'].map(api), '4.6.7').map(labels);
    assert.deepEqual(out, [
      { symbol: 'zod.string', importance: 0.8, deprecated: false, internal: false },
      { symbol: 'zod/v3.ZodType.optional', importance: 0.4, deprecated: true, internal: false },
      { symbol: 'zod.core._default', importance: 0.6, deprecated: false, internal: true },
      { symbol: 'zod.core.$ZodType', importance: 0.6, deprecated: false, internal: false },
    ]);
  });
  it('does not call a namespace legacy in the major version it belongs to', () => {
    assert.deepEqual(labels(demoteLegacy([api('zod/v3.ZodType.optional')], '3.23.8')[0]!), { symbol: 'zod/v3.ZodType.optional', importance: 0.8, deprecated: false, internal: false });
  });
});
