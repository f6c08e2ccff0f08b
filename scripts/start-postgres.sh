#!/usr/bin/env bash
# Starts Debian's PostgreSQL cluster on 127.0.0.1:5432 with a `tooldex` superuser for the test suite,
# and prints the TEST_DATABASE_URL to use. Idempotent.
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | grep -q "^$version main"; then pg_createcluster "$version" main >&2; fi
pg_ctlcluster "$version" main start >&2 2>/dev/null || true
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
su postgres -c "psql -q -h 127.0.0.1 -p 5432 -tc \"select 1 from pg_roles where rolname='tooldex'\"" 2>/dev/null | grep -q 1 ||
  su postgres -c "psql -q -c \"create role tooldex superuser login password 'tooldex'\"" >&2
echo "postgres://tooldex:tooldex@127.0.0.1:5432/postgres"
