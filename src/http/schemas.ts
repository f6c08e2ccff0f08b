// Schema pieces shared by several route groups.
import { z } from 'zod';
import { WIRE_FORMATS } from '../format.ts';

export const formatParam = z.enum(WIRE_FORMATS).optional()
  .describe('Response encoding: json (default) or toon (text/toon). Errors are always JSON.');

export const errorBody = z.object({
  error: z.object({ status: z.number(), code: z.string(), message: z.string() }),
}).describe('Error');
