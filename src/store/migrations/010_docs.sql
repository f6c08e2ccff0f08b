-- Docs (owned by src/docs): indexed passages per (tool, version), the registry's version list per tool,
-- and one row per ingestion that doubles as a cross-instance lease (several servers over one PostgreSQL).

create table docs_releases (
  slug        text primary key,
  latest      text not null,
  versions    jsonb not null default '[]'::jsonb,
  tags        jsonb not null default '{}'::jsonb,
  checked_at  timestamptz not null default now()
);

create table docs_versions (
  slug         text not null,
  version      text not null,
  status       text not null,
  lease_until  timestamptz,
  docs_url     text,
  facts        jsonb not null default '{}'::jsonb,
  passages     int not null default 0,
  site_status  text not null default 'none',
  error        text,
  indexed_at   timestamptz,
  primary key (slug, version)
);

create table docs_passages (
  id           bigserial primary key,
  slug         text not null,
  version      text not null,
  ord          int not null,
  url          text not null,
  title        text,
  headings     text[] not null default '{}',
  content      text not null,
  source       text not null,
  identifiers  text[] not null default '{}',
  search       tsvector not null
);

create index docs_passages_version on docs_passages (slug, version);
create index docs_passages_search on docs_passages using gin (search);
