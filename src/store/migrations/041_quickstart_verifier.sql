-- Quickstart: which verifier made a verification's verdict (VERIFIER_VERSION in src/quickstart/verify.ts). A row made
-- by an older verifier is verified again on its next request, so a change to what "verified" means (the package-use
-- check, a new repair) reaches versions verified before it, as docs_versions.extractor does for the docs.
alter table quickstart_verifications add column verifier integer not null default 0;
