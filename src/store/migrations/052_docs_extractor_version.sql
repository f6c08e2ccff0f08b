-- Docs: which extractor made a version's passages. A version indexed by an older extractor is indexed again on its
-- next question, so an upgrade that extracts more (or better) reaches packages indexed before it.
alter table docs_versions add column extractor integer not null default 0;
