// Inputs of the auth capability, described once: the dashboard API, the admin socket and the CLI validate with these.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email('enter an email address like name@example.com'))
  .describe('Email address (case-insensitive).')
  .meta({ pattern: z.regexes.email.source, maxLength: 254 }); // what the pipe checks, visible in JSON Schema (OpenAPI)

export const passwordSchema = z.string()
  .min(MIN_PASSWORD_LENGTH, `use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `use at most ${MAX_PASSWORD_LENGTH} characters`)
  .describe(`Password (${MIN_PASSWORD_LENGTH}–${MAX_PASSWORD_LENGTH} characters).`);

export const orgNameSchema = z.string().trim().min(2, 'use at least 2 characters').max(64, 'use at most 64 characters')
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u, 'use letters, digits, spaces, dots, dashes and underscores')
  .describe('Organisation name (unique, case-insensitive).');

export const keyNameSchema = z.string().trim().min(1, 'give the key a name').max(64, 'use at most 64 characters')
  .describe('A label for the key, e.g. "ci" or "laptop".');

export const idSchema = (kind: 'org' | 'key' | 'inv') =>
  z.string().regex(new RegExp(`^${kind}_[A-Za-z0-9_-]{12}$`), `a ${kind}_… identifier`);

export const credentialsSchema = z.object({ email: emailSchema, password: passwordSchema }).strict();
// Sign-in takes any password length: the length rule is for new passwords, and the answer must not hint at it.
export const loginSchema = z.object({ email: emailSchema, password: z.string().min(1, 'enter your password').max(MAX_PASSWORD_LENGTH) }).strict();

export const createKeyInput = z.object({
  org: orgNameSchema,
  name: keyNameSchema.default('default'),
}).strict();
export const listKeysInput = z.object({ org: orgNameSchema.optional() }).strict();
export const revokeKeyInput = z.object({ id: idSchema('key') }).strict();
