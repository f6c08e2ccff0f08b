-- Docs (owned by src/docs): document frequency of each lexeme per indexed version, so ranking can weigh rare
-- question words (idf) over words every passage of a package shares ("log" in a logger's docs).
create table docs_lexemes (
  slug     text not null,
  version  text not null,
  lexeme   text not null,
  df       int not null,
  primary key (slug, version, lexeme)
);
