// The published files a quickstart is looked for in, per ecosystem, through the docs capability's registry sources
// and archive readers. Crates and Go modules are read with a wider net (examples/, example_test.go) than docs keeps.
import { parse as parseToml } from 'smol-toml';
import type { Ecosystem } from '../catalog/index.ts';
import type { Config } from '../config.ts';
import { DEFAULT_LIMITS, readTar, readZip, refused, textOf, type ArchiveFile } from '../docs/archive.ts';
import { fetchBytes } from '../docs/fetch.ts';
import { escapeModulePath } from '../docs/sources/gomod.ts';
import { sourceFor } from '../docs/sources/index.ts';
import { isDocFile, stripTopFolder } from '../docs/sources/types.ts';

export interface ExampleFiles {
  files: ArchiveFile[];
  /** The registry's long description when the artifact has no README (PyPI). */
  readme?: { text: string; markdown: boolean };
  importName: string;
  moduleType?: string;
  requiresPython?: string;
  fileUrl(path: string, line?: number): string;
}

const SKIP_DIRS = /(^|\/)(node_modules|\.git|tests?|__tests__|testdata|vendor|benches|benchmarks?|fixtures?|\.github)\//;

export async function fetchExampleFiles(config: Config, ecosystem: Ecosystem, name: string, version: string): Promise<ExampleFiles> {
  const limits = { timeoutMs: config.TOOLDEX_FETCH_TIMEOUT_MS, maxBytes: config.TOOLDEX_DOCS_MAX_ARTIFACT_MB * 1024 * 1024 };
  switch (ecosystem) {
    case 'crates': {
      const base = config.TOOLDEX_CRATES_DOWNLOAD_URL.replace(/\/$/, '');
      const bytes = await fetchBytes(`${base}/${name}/${name}-${version}.crate`, limits);
      if (!bytes) throw refused(`static.crates.io has no ${name}-${version}.crate.`);
      const contents = await readTar(bytes, { ...DEFAULT_LIMITS, keep: (p) => {
        const rel = stripTopFolder(p);
        return rel === 'Cargo.toml' || (!SKIP_DIRS.test(rel) && isDocFile(rel, /\.rs$/));
      } });
      const files = contents.files.map((f) => ({ ...f, path: stripTopFolder(f.path) }));
      const cargo = files.find((f) => f.path === 'Cargo.toml');
      let libName: string | undefined;
      try { libName = cargo ? (parseToml(textOf(cargo)) as { lib?: { name?: string } }).lib?.name : undefined; } catch { libName = undefined; }
      return {
        files, importName: libName ?? name.replace(/-/g, '_'),
        fileUrl: (path, line) => `https://docs.rs/crate/${name}/${version}/source/${path}${line ? `#${line}` : ''}`,
      };
    }
    case 'go': {
      const base = config.TOOLDEX_GOPROXY.replace(/\/$/, '');
      const bytes = await fetchBytes(`${base}/${escapeModulePath(name)}/@v/${version}.zip`, limits);
      if (!bytes) throw refused(`The Go module proxy has no zip of ${name}@${version}.`);
      const prefix = `${name}@${version}/`;
      const contents = readZip(bytes, { ...DEFAULT_LIMITS, keep: (p) => {
        const rel = p.startsWith(prefix) ? p.slice(prefix.length) : p;
        return !/(^|\/)(vendor|testdata|\.github)\//.test(rel) && (/\.go$|^go\.mod$/.test(rel) || isDocFile(rel, /^$/));
      } });
      const files = contents.files.map((f) => ({ ...f, path: f.path.startsWith(prefix) ? f.path.slice(prefix.length) : f.path }));
      return {
        files, importName: name,
        fileUrl: (path, line) => `https://pkg.go.dev/${name}@${version}${path.includes('/') ? `/${path.slice(0, path.lastIndexOf('/'))}` : ''}${line ? `#L${line}` : ''}`,
      };
    }
    default: {
      const artifact = await sourceFor(config, ecosystem).artifact(name, version);
      return {
        files: artifact.files, readme: artifact.readme, importName: artifact.facts.importName ?? name,
        moduleType: artifact.facts.moduleType, requiresPython: artifact.facts.requirements.python,
        fileUrl: (path, line) => artifact.fileUrl(path, line ? { line } : undefined),
      };
    }
  }
}
