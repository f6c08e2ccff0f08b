-- Sandbox (owned by src/sandbox): durable test sessions and a record of every run (slug analytics).
create table sandbox_sessions (
  id           text primary key,
  owner        text not null,
  runtime      text not null,
  packages     jsonb not null default '[]'::jsonb,
  created_at   timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  disk_bytes   bigint not null default 0,
  runs         integer not null default 0
);

create index sandbox_sessions_lru on sandbox_sessions (last_used_at);

create table sandbox_runs (
  id           bigserial primary key,
  session_id   text not null,
  owner        text not null,
  runtime      text not null,
  slug         text,
  status       text not null,
  provision_ms integer not null,
  install_ms   integer not null,
  run_ms       integer not null,
  created_at   timestamptz not null default now()
);

create index sandbox_runs_slug on sandbox_runs (slug, created_at desc);
