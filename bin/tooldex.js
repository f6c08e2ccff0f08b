#!/usr/bin/env node
// The published bin: registers the TypeScript loader, then hands over to the CLI.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
register('tsx/esm', pathToFileURL('./'));
await import('../src/cli/main.ts');
