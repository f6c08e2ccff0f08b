-- Docs (owned by src/docs): which process is embedding a package's passages in the background, so the instances of a
-- fleet asked about the same package embed it once (a 4,000-passage package is ~40 s of one core) and the others read
-- the stored vectors. A lease is renewed while the work goes on; one left by a process that died expires.
create table if not exists docs_vector_leases (
  slug        text not null,
  version     text not null,
  encoder     text not null,
  owner       text not null,
  lease_until timestamptz not null,
  primary key (slug, version, encoder),
  foreign key (slug, version) references docs_versions (slug, version) on delete cascade
);
