// Input of the project capability, shared by REST and MCP: the files to resolve, and the `project` parameter that
// docs, context and test calls take.
import { z } from 'zod';
import { PROJECT_FILES_MAX } from './index.ts';

export const resolveRequestSchema = z.object({
  files: z.array(z.object({
    name: z.string().trim().min(1).max(255)
      .describe('The file\'s name, which says its format: package-lock.json, pnpm-lock.yaml, yarn.lock, bun.lock, package.json, poetry.lock, uv.lock, Pipfile.lock, Pipfile, requirements.txt, pyproject.toml, Cargo.lock, Cargo.toml, go.mod, go.sum, Gemfile.lock (a path is fine: only the last part counts).'),
    content: z.string().describe('The file\'s text (5 MiB in all files; more answers 413).'),
  }).strict()).min(1).max(PROJECT_FILES_MAX)
    .describe(`1–${PROJECT_FILES_MAX} lockfiles or manifests of one project (5 MiB in all). Send a manifest with its lockfile when the lockfile alone does not say which dependencies are direct (yarn.lock v1, poetry.lock, Pipfile.lock).`),
  transitive: z.boolean().default(false).describe('Also list every other package the lockfiles pin.'),
}).strict();

export type ResolveRequest = z.output<typeof resolveRequestSchema>;

export const projectParam = z.string().trim().regex(/^prj_[A-Za-z0-9_-]{8,64}$/, 'must be a project id from POST /tools/resolve (prj_…)').optional()
  .describe('A project id from POST /tools/resolve: a tool named without a version is answered at the version that project uses.');
