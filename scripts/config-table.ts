// Prints the configuration table from the config schema (src/config.ts, the single source of settings);
// `--write` puts it into docs/configuration.md between its markers (a unit test checks the page is current).
import fs from 'node:fs';
import path from 'node:path';
import { configTable } from '../src/config-table.ts';

const page = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../docs/configuration.md');
if (process.argv.includes('--write')) {
  const text = fs.readFileSync(page, 'utf8');
  const updated = text.replace(/(<!-- config-table -->\n)[\s\S]*?(<!-- \/config-table -->)/, `$1${configTable()}\n$2`);
  fs.writeFileSync(page, updated);
} else {
  console.log(configTable());
}
