-- Quickstart verification (owned by src/quickstart): one row per (tool, version) whose quickstart tooldex ran in its
-- own sandbox. The row doubles as the cross-instance claim (lease_until): several servers over one PostgreSQL never
-- verify the same version twice at once. status: pending (queued or retrying) | ran | failed | unverifiable.

create table quickstart_verifications (
  slug             text not null,
  version          text not null,
  ecosystem        text not null,
  name             text not null,
  status           text not null default 'pending',
  attempts         int not null default 0,
  next_attempt_at  timestamptz not null default now(),
  lease_until      timestamptz,
  lease_owner      text,
  result           jsonb,
  error            text,
  requested_at     timestamptz not null default now(),
  finished_at      timestamptz,
  primary key (slug, version)
);

create index quickstart_verifications_due on quickstart_verifications (status, next_attempt_at);
