-- Projects (owned by src/project): the dependencies a lockfile or manifest resolved to, kept for a documented time
-- (TOOLDEX_PROJECT_TTL_HOURS) and visible only to the owner that resolved them, so that docs, context and test calls
-- can answer at the versions the caller's project uses.
create table projects (
  id            text primary key,
  owner         text not null,
  created_at    timestamptz not null default now(),
  expires_at    timestamptz not null,
  files         jsonb not null,
  dependencies  jsonb not null
);

create index projects_expires_at on projects (expires_at);
