#!/usr/bin/env bash
# Builds the throwaway Supabase project folder from the suite's own test/db SQL, with the few
# adaptations PGlite and the twin's bootstrap need (each one commented in the output files).
set -euo pipefail
SRC=${1:?suite source folder}
OUT=${2:?project folder}
rm -rf "$OUT"; mkdir -p "$OUT/migrations"
SCHEMA="$OUT/migrations/20240101000000_postgrest_js_schema.sql"
SEED="$OUT/migrations/20240101000001_postgrest_js_dummy_data.sql"
{
  echo "-- test/db/00-schema.sql of supabase/postgrest-js, adapted for the twin (PGlite + bootstrap.sql):"
  echo "--  A1 'create schema extensions' -> 'create schema if not exists extensions' (bootstrap.sql creates it)"
  echo "--  A2 'create extension postgis' removed (PGlite has no PostGIS); shops.shop_geom geometry(POINT,4326) -> text"
  echo "--  A0 'CREATE PUBLICATION supabase_realtime FOR ALL TABLES' removed: the twin serves no Realtime, and on PGlite"
  echo "--     the publication makes DELETE fail on tables without a replica identity (the twin's own net.http_request_queue)"
  echo "--  A3 appended: grants on schema personal for the API roles (Supabase's default privileges cover public only)"
  sed -e 's/^CREATE PUBLICATION supabase_realtime FOR ALL TABLES;/-- A0 removed: CREATE PUBLICATION supabase_realtime FOR ALL TABLES;/' \
      -e 's/^create schema extensions;/create schema if not exists extensions; -- A1/' \
      -e 's/^create extension postgis schema extensions;/-- A2 removed: create extension postgis schema extensions;/' \
      -e 's/shop_geom extensions.geometry(POINT, 4326)/shop_geom text -- A2: was extensions.geometry(POINT, 4326)/' \
      "$SRC/test/db/00-schema.sql"
  cat <<'SQL'

-- A3: PostgREST's test config runs every request as `postgres`; the twin runs them as service_role
-- (see run.sh), which Supabase's default privileges cover in public only.
grant usage on schema personal to anon, authenticated, service_role;
grant all on all tables in schema personal to anon, authenticated, service_role;
grant all on all functions in schema personal to anon, authenticated, service_role;
SQL
} > "$SCHEMA"
{
  echo "-- test/db/01-dummy-data.sql of supabase/postgrest-js, unchanged (shops.shop_geom now holds the EWKT as text, A2)"
  cat "$SRC/test/db/01-dummy-data.sql"
  echo
} > "$SEED"
# Sanity: the adaptations must all have applied.
grep -q 'A0 removed' "$SCHEMA" && grep -q 'A1$' "$SCHEMA" && grep -q 'A2 removed' "$SCHEMA" && grep -q 'shop_geom text' "$SCHEMA"
