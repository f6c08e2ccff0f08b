// The runtime adapters by name: adding a runtime is one new file plus a line here.
import type { Runtime } from '../schema.ts';
import { golangRuntime } from './golang.ts';
import { nodeRuntime } from './node.ts';
import { pythonRuntime } from './python.ts';
import { rubyRuntime } from './ruby.ts';
import { rustRuntime } from './rust.ts';
import type { RuntimeAdapter } from './types.ts';

export const RUNTIME_ADAPTERS: Record<Runtime, RuntimeAdapter> = {
  node: nodeRuntime, python: pythonRuntime, golang: golangRuntime, ruby: rubyRuntime, rust: rustRuntime,
};
export type { RuntimeAdapter, RuntimeContext, ParsedPackage, Step } from './types.ts';
