-- Ops (owned by src/store): the running tooldex instances of a fleet, each refreshing seen_at every few seconds.
-- A row whose seen_at is old belongs to a process that died; what it held (docs ingestion leases) is released.
create table instances (
  id          text primary key,
  host        text not null,
  pid         int not null,
  started_at  timestamptz not null default now(),
  seen_at     timestamptz not null default now()
);

create index instances_seen on instances (seen_at);
