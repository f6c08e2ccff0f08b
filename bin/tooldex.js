#!/usr/bin/env node
// The published bin: registers the TypeScript loader (tsx), then hands over to the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
