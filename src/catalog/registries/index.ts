// The registry adapters by ecosystem. Adding an ecosystem = one new adapter file plus a line here.
import type { Ecosystem } from '../types.ts';
import { cratesAdapter } from './crates.ts';
import { goAdapter } from './gomod.ts';
import { npmAdapter } from './npm.ts';
import { pypiAdapter } from './pypi.ts';
import { rubygemsAdapter } from './rubygems.ts';
import type { RegistryAdapter } from './types.ts';

export type { RegistryAdapter, RegistryContext, SeedEntry } from './types.ts';

export const registries: Record<Ecosystem, RegistryAdapter> = {
  npm: npmAdapter, pypi: pypiAdapter, crates: cratesAdapter, go: goAdapter, rubygems: rubygemsAdapter,
};
