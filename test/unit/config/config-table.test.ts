// docs/configuration.md must list every setting of the schema with its current default and meaning.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { configTable } from '../../../src/config-table.ts';

test('docs/configuration.md carries the table generated from src/config.ts', () => {
  const page = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/configuration.md'), 'utf8');
  const table = /<!-- config-table -->\n([\s\S]*?)\n<!-- \/config-table -->/.exec(page)?.[1];
  assert.equal(table, configTable(), 'run `npm run config-table -- --write` and commit docs/configuration.md');
});
