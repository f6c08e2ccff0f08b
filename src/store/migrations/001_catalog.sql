-- Catalog (owned by src/catalog): one row per published tool of any ecosystem.
create extension if not exists pg_trgm;

create table tools (
  slug              text primary key,
  ecosystem         text not null,
  name              text not null,
  version           text,
  description       text not null default '',
  short_description text not null default '',
  keywords          text[] not null default '{}',
  languages         text[] not null default '{}',
  frameworks        text[] not null default '{}',
  categories        text[] not null default '{}',
  license           text,
  homepage          text,
  repository        text,
  docs_url          text,
  popularity        double precision not null default 0,
  downloads         bigint,
  updated_at        timestamptz,
  ingested_at       timestamptz not null default now(),
  extra             jsonb not null default '{}'::jsonb,
  unique (ecosystem, name)
);

create index tools_name_trgm on tools using gin (lower(name) gin_trgm_ops);
create index tools_ecosystem_popularity on tools (ecosystem, popularity desc);

-- Bumped on every catalog change so each server instance knows to rebuild its in-memory search index.
create table catalog_meta (
  id       int primary key default 1 check (id = 1),
  revision bigint not null default 0,
  changed_at timestamptz not null default now()
);
insert into catalog_meta (id, revision) values (1, 0);

-- Resumable ingestion: what each registry run has done, so an interrupted run continues where it stopped.
create table ingest_progress (
  ecosystem  text not null,
  name       text not null,
  status     text not null,
  error      text,
  done_at    timestamptz not null default now(),
  primary key (ecosystem, name)
);
