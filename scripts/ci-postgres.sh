#!/usr/bin/env bash
# Installs (Debian's `postgresql`, i.e. 15 on bookworm) and starts a PostgreSQL server on 127.0.0.1,
# then prints a TEST_DATABASE_URL for the portability tests. Used by .ci/run; needs root.
# Prints nothing and exits 0 when it cannot (not root, no apt): the tests then say they did not run.
set -euo pipefail
PORT="${TEST_POSTGRES_PORT:-54329}"
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then exit 0; fi
  echo "[ci-postgres] installing Debian's postgresql package…" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null 2>&1 || {
    apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null 2>&1
  } || { echo "[ci-postgres] could not install postgresql" >&2; exit 0; }
fi
VERSION="$(ls /usr/lib/postgresql | sort -n | tail -1)"
CLUSTER=policytests
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$VERSION $CLUSTER"; then
  pg_createcluster -q "$VERSION" "$CLUSTER" -p "$PORT" -- --auth-host=scram-sha-256 --auth-local=peer >/dev/null
fi
pg_ctlcluster "$VERSION" "$CLUSTER" start >/dev/null 2>&1 || pg_ctlcluster "$VERSION" "$CLUSTER" status >/dev/null
# A throwaway local password for a loopback-only test server.
su postgres -c "psql -q -p $PORT -c \"alter user postgres password 'postgres'\"" >/dev/null
echo "postgres://postgres:postgres@127.0.0.1:$PORT/postgres"
