-- Docs (owned by src/docs): passages are ranked in memory per package now (src/docs/lexical.ts, rank.ts), so the
-- full-text column, its index and the per-lexeme counts are no longer written: ingestion gets faster.
drop index if exists docs_passages_search;
alter table docs_passages alter column search drop not null;
drop table if exists docs_lexemes;
