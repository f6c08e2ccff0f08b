// Input of the changes capability, shared by REST and MCP.
import { z } from 'zod';
import { maxTokensParam } from '../docs/schema.ts';
import { MAX_CHANGES_QUERY } from './index.ts';

const versionParam = (which: string) => z.string().trim().min(1, `${which} is required: a published version`).max(300)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters')
  .describe(`The ${which} version: exact (3.23.8), a range (3, 4.x) or a tag; for a Go major at another path, a whole reference (github.com/go-chi/chi@v1.5.5).`);

export const changesQuerySchema = z.object({
  from: versionParam('older'),
  to: versionParam('newer'),
  q: z.string().trim().min(1, 'q must not be empty').max(MAX_CHANGES_QUERY, `q is limited to ${MAX_CHANGES_QUERY} characters`).optional()
    .describe('A question about the change ("what replaced .nonempty()"): answers the changes and notes that match it first.'),
  maxTokens: maxTokensParam.optional(),
});
