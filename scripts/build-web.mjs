// Builds the web pages, explorer and dashboard (web/ → web/dist), with Vite when its sources changed since the last build.
// Runs before `npm test` (pretest) and as `npm run build:web`; a lock keeps parallel runs from clobbering dist/.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web');
const dist = path.join(web, 'dist');
const stampFile = path.join(dist, '.build-stamp');
const lockDir = path.join(web, '.build-lock');

function sourceHash() {
  const hash = crypto.createHash('sha256');
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else hash.update(path.relative(web, full)).update(fs.readFileSync(full));
    }
  };
  visit(path.join(web, 'src'));
  for (const file of ['index.html', 'dashboard/index.html', 'vite.config.ts']) hash.update(fs.readFileSync(path.join(web, file)));
  return hash.digest('hex');
}

const fresh = (hash) => fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === hash;

const hash = sourceHash();
if (!fresh(hash) || process.argv.includes('--force')) {
  const started = Date.now();
  for (let waited = 0; ; waited += 250) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch {
      // A lock older than 5 minutes belongs to a build that died.
      if (Date.now() - fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs > 300_000) fs.rmSync(lockDir, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (!fresh(hash) || process.argv.includes('--force')) {
      const { build } = await import('vite');
      await build({ configFile: path.join(web, 'vite.config.ts'), logLevel: 'warn' });
      fs.writeFileSync(stampFile, hash);
      console.error(`build-web: dashboard built into web/dist in ${Date.now() - started} ms`);
    }
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
