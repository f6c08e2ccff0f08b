// `tooldex resolve [path]`: POST /tools/resolve with the lockfiles and manifests of a project folder (or one file) —
// its direct dependencies at the versions it uses, and a project id for docs and context calls.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ToolDexError } from '../../errors.ts';
import type { ResolveResult } from '../../project/index.ts';
import { isSupportedFile, SUPPORTED_FILES } from '../../project/parse.ts';
import { projectResolve } from '../../projection.ts';
import { addClientOptions, clientFrom, examples, outputFormat, type ClientFlags } from '../options.ts';
import { renderResolve, writeResult } from '../output.ts';
import { withSpinner } from '../spinner.ts';

/** The files of a project folder that tooldex reads (its top level: where package managers write them). */
export function projectFiles(target: string): { name: string; content: string }[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    throw new ToolDexError('file_unreadable', 400, `${target}: no such file or folder; pass a project folder or a lockfile.`);
  }
  const paths = stat.isDirectory()
    ? fs.readdirSync(target).filter((name) => isSupportedFile(name)).sort().map((name) => path.join(target, name))
    : [target];
  if (paths.length === 0) {
    throw new ToolDexError('no_project_files', 400, `${target}: no lockfile or manifest here; tooldex reads ${SUPPORTED_FILES.join(', ')}.`);
  }
  return paths.map((file) => ({ name: path.basename(file), content: fs.readFileSync(file, 'utf8') }));
}

export function registerResolve(program: Command): void {
  addClientOptions(program
    .command('resolve')
    .description('Read a project\'s lockfiles: direct dependencies at the versions it uses, and a project id for docs and context')
    .argument('[path]', 'project folder (its lockfiles and manifests are read) or one file', '.')
    .option('--transitive', 'also list every package the lockfiles pin'))
    .addHelpText('after', examples(
      'tooldex resolve',
      'tooldex resolve ../api/poetry.lock --format toon',
      'tooldex docs zod "parse without throwing" --project prj_…',
    ))
    .action(async (target: string, flags: ClientFlags & { transitive?: boolean }) => {
      const files = projectFiles(target);
      const client = clientFrom(flags);
      const result = await withSpinner(`reading ${files.map((f) => f.name).join(', ')}`,
        client.post<ResolveResult>('/tools/resolve', { files, transitive: Boolean(flags.transitive) }));
      writeResult(result, outputFormat(flags), renderResolve, (whole) => projectResolve(whole, flags.detail ?? 'compact'));
    });
}
