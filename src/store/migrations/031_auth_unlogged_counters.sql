-- Rate-limit counters are short-lived and rebuilt by traffic: no WAL for them (measured in bench/auth.ts:
-- each request's counter write was the main cost of a request on PostgreSQL). A crash merely resets them.
alter table rate_limit_counters set unlogged;
