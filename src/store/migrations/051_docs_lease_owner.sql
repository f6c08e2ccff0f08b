-- Ops: which instance holds a docs ingestion lease, so the lease of a process that died is released at once
-- (at start on the embedded store; when its heartbeat stops on PostgreSQL) instead of after the lease expires.
alter table docs_versions add column lease_owner text;
