// Operator operations on API keys, described once with their input schemas: the admin socket serves them
// for a running server, and `tooldex keys` runs them directly when no server holds the embedded store.
import type { z } from 'zod';
import type { Auth } from '../auth/index.ts';
import { createKeyInput, listKeysInput, revokeKeyInput } from '../auth/schema.ts';

interface Operation<S extends z.ZodType> {
  input: S;
  run(input: z.output<S>): Promise<unknown>;
}

const operation = <S extends z.ZodType>(input: S, run: (input: z.output<S>) => Promise<unknown>): Operation<S> => ({ input, run });

export function keyOperations(auth: Auth) {
  return {
    'keys.create': operation(createKeyInput, (input) => auth.keys.createForOrgName({ ...input, createdBy: 'operator (CLI)' })),
    'keys.list': operation(listKeysInput, (input) => auth.keys.list({ org: input.org })),
    'keys.revoke': operation(revokeKeyInput, (input) => auth.keys.revoke(input.id)),
  };
}

export type KeyOperations = ReturnType<typeof keyOperations>;
export type OperationName = keyof KeyOperations;
