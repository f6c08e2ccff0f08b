-- Docs (owned by src/docs): whether a passage documents something its authors mark deprecated or legacy (`@deprecated`,
-- `#[deprecated]`, zod/v3 inside zod 4, a README section headed "CancelToken (deprecated)"), so an answer says so
-- instead of handing an agent an API it should not start using.
alter table docs_passages add column deprecated boolean not null default false;
