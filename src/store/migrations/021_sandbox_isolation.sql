-- Sandbox (owned by src/sandbox): sessions belong to the instance whose disk holds their volume, and keep keyed marks
-- of every secret they were given (never the secrets); runs record their queue time and which limit ended them.
alter table sandbox_sessions add column instance text;
alter table sandbox_sessions add column secret_marks jsonb not null default '[]'::jsonb;
create index sandbox_sessions_instance on sandbox_sessions (instance, last_used_at);

alter table sandbox_runs add column queue_ms integer not null default 0;
alter table sandbox_runs add column ended_by text;
