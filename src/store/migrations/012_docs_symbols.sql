-- Docs (owned by src/docs): what each passage documents and how much it matters, for ranking and for the caller:
-- the public symbol path (`tokio::time::timeout`), an importance prior (README and entry-point API high, internals
-- low) and whether it is internal (not reachable through the package's public API).
alter table docs_passages add column symbol text;
alter table docs_passages add column importance real not null default 0.5;
alter table docs_passages add column internal boolean not null default false;
