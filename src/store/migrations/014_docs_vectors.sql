-- Docs (owned by src/docs): the sentence encoder's vectors of a package's passages, packed into one value per
-- (version, encoder), so a restarted server or another instance of a fleet reads them instead of embedding the package
-- again (a 4,000-passage package is ~40 s of one core). `stamp` is what the passages were when they were embedded
-- (count @ indexing time): vectors of an earlier indexing are ignored, then replaced.
create table if not exists docs_vectors (
  slug       text not null,
  version    text not null,
  encoder    text not null,
  stamp      text not null,
  dimensions integer not null,
  vectors    bytea not null,
  saved_at   timestamptz not null default now(),
  primary key (slug, version, encoder),
  foreign key (slug, version) references docs_versions (slug, version) on delete cascade
);
