// `npm test`: runs every test file under test/ with Node's test runner and the TypeScript loader.
// Pass paths or a substring to run fewer: `npm test -- test/unit` or `npm test -- slug`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const roots = ['test'];
const filters = process.argv.slice(2);
const files = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.test.ts')) files.push(full);
  }
};
roots.forEach(walk);
const selected = filters.length ? files.filter((file) => filters.some((f) => file.includes(f))) : files;
if (selected.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(2);
}
const result = spawnSync(process.execPath, [
  '--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=600000', ...selected.sort(),
], { stdio: 'inherit' });
process.exit(result.status ?? 1);
