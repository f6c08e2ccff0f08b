// RubyGems: Gemfile.lock. Bundler writes a fixed indentation format (sections in capitals; in GEM, `    name (version)`
// specs with `      dep (req)` under them; DEPENDENCIES lists the Gemfile's own gems, `!` marking non-rubygems sources).
import { ManifestError, type LockedDependency, type ParsedFile } from '../types.ts';

export function parseGemfileLock(file: string, text: string): ParsedFile {
  const locked: LockedDependency[] = [];
  const requested = new Map<string, string | undefined>();
  const fromOtherSource = new Set<string>();
  let section = '';
  let inSpecs = false;
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) return;
    if (/^\S/.test(line)) {
      section = line.trim();
      inSpecs = false;
      return;
    }
    if (line.trim() === 'specs:') { inSpecs = true; return; }
    if (section === 'GEM' && inSpecs && /^ {4}\S/.test(line)) {
      const spec = /^ {4}([^\s(]+) \(([^)]+)\)$/.exec(line);
      if (!spec) throw new ManifestError(file, `expected \`name (version)\` in GEM specs: ${line.trim()}`, index + 1);
      // Platform gems are written `nokogiri (1.16.0-x86_64-linux)`: the release is the version before the platform.
      locked.push({ ecosystem: 'rubygems', name: spec[1]!, version: spec[2]!.replace(/-(?:x86|x64|arm|aarch|universal|java|mswin|mingw|darwin|linux)[^\s]*$/, '') });
    } else if ((section === 'GIT' || section === 'PATH') && inSpecs && /^ {4}\S/.test(line)) {
      const spec = /^ {4}([^\s(]+) /.exec(line);
      if (spec) fromOtherSource.add(spec[1]!);
    } else if (section === 'DEPENDENCIES' && /^ {2}\S/.test(line)) {
      const dependency = /^ {2}([^\s(!]+)(?: \(([^)]+)\))?(!)?$/.exec(line);
      if (!dependency) throw new ManifestError(file, `expected \`name (requirement)\` in DEPENDENCIES: ${line.trim()}`, index + 1);
      if (dependency[3]) fromOtherSource.add(dependency[1]!);
      requested.set(dependency[1]!, dependency[2]);
    }
  });
  if (!locked.length && !requested.size) throw new ManifestError(file, 'no GEM specs and no DEPENDENCIES: not a Gemfile.lock', 1);
  const direct: LockedDependency[] = [];
  for (const [name, requirement] of requested) {
    if (fromOtherSource.has(name)) continue;
    const version = locked.find((dependency) => dependency.name === name)?.version ?? null;
    direct.push({ ecosystem: 'rubygems', name, version, ...(requirement ? { requested: requirement } : {}) });
  }
  return { file, format: 'Gemfile.lock', ecosystem: 'rubygems', direct, locked };
}
