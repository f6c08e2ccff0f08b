-- Sandbox (owned by src/sandbox): where each instance holding session volumes can be reached by the others (a call
-- for a session held elsewhere is forwarded there), refreshed by a heartbeat; silence for a minute means gone.
create table sandbox_instances (
  id       text primary key,
  url      text not null,
  seen_at  timestamptz not null default now()
);
