#!/usr/bin/env bash
# Starts Debian's PostgreSQL cluster on 127.0.0.1:5432 with a `tooldex` superuser for the test suite,
# and prints the TEST_DATABASE_URL to use. Idempotent: safe on a machine where it already ran.
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | grep -q "^$version main"; then pg_createcluster "$version" main >&2; fi
pg_ctlcluster "$version" main start >&2 2>/dev/null || true
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
# Over the local socket as the postgres superuser (peer authentication), never over TCP without a password.
exists=$(su postgres -c "psql -qtAc \"select 1 from pg_roles where rolname = 'tooldex'\"")
if [ "$exists" != "1" ]; then
  su postgres -c "psql -qc \"create role tooldex superuser login password 'tooldex'\"" >&2
fi
url="postgres://tooldex:tooldex@127.0.0.1:5432/postgres"
psql "$url" -qtAc 'select 1' >/dev/null # fail here, loudly, if the tests could not connect
echo "$url"
