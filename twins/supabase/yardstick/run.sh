#!/usr/bin/env bash
# Runs supabase/postgrest-js's runtime test suite (jest, inline snapshots recorded against PostgREST 12;
# max-affected.test.ts against PostgREST 13) against this repository's Supabase twin, in a folder
# outside the repository, with the suite's own schema and seed. It writes nothing in the repository.
#
#   twins/supabase/yardstick/run.sh <postgrest-js: a clone, or a bare git dir> [work folder]
#       work folder: where the suite, its test dependencies and the results go
#       (default ${TMPDIR:-/tmp}/postgrest-yardstick)
#   TWIN_REF=<commit>      that commit's twins/ instead of the working tree (git archive, node_modules linked)
#   JEST_ARGS='…'          more jest arguments, e.g. JEST_ARGS='--testPathIgnorePatterns max-affected'
#
# Steps: extract the suite (src/, pristine) -> copy it (suite/) with REST_URL pointed at the proxy ->
# project/migrations from test/db/*.sql (tools/make-project.sh lists each adaptation) -> npm install
# the suite's test deps (pinned to its package-lock) -> start the twin (--memory, --port 0, 127.0.0.1)
# -> start tools/proxy.mjs (adds /rest/v1 and the service_role key, logs every exchange) -> jest --ci
# -> tools/audit.mjs (rows that show refused/rolled-back writes) -> tools/probes.mjs (a few writes the
# suite does not send, under tx=rollback) -> tools/classify.mjs (out/classification.md) -> stop both.
set -euo pipefail
KIT=$(cd "$(dirname "$0")" && pwd)
MAIN=$(cd "$KIT/../../.." && pwd)
SUITE=${1:?usage: run.sh <postgrest-js clone or bare git dir> [work folder]}
GIT_DIR=$SUITE
[ -d "$SUITE/.git" ] && GIT_DIR=$SUITE/.git
HERE=${2:-${TMPDIR:-/tmp}/postgrest-yardstick}
case "$HERE/" in "$MAIN"/*) echo "the work folder must be outside the repository" >&2; exit 2 ;; esac
mkdir -p "$HERE"
cp -r "$KIT/package.json" "$KIT/tools" "$HERE/"
NODE24=$MAIN/node_modules/.bin/node
cd "$HERE"

# 1. The suite's source, pristine, then a copy whose tests talk to the proxy.
rm -rf src suite && mkdir src
git --git-dir="$GIT_DIR" archive HEAD | tar -x -C src
git --git-dir="$GIT_DIR" rev-parse HEAD > suite-commit.txt
cp -r src suite
# S1: REST_URL (PostgREST 12 on :3000 and 13 on :3001) -> the proxy, read from the environment.
sed -i -e "s#'http://localhost:3000'#(process.env.YARDSTICK_REST_URL as string)#g" \
       -e "s#'http://localhost:3001'#(process.env.YARDSTICK_REST_URL as string)#g" suite/test/*.ts
! grep -n "localhost:300" suite/test/*.test.ts

# 2. The throwaway Supabase project: the suite's schema and seed as migrations.
tools/make-project.sh src project

# 3. The suite's test dependencies (versions from its package-lock.json).
[ -d node_modules/ts-jest ] || npm install --no-audit --no-fund

# 4. The twin and the proxy; both stopped on exit.
TWIN_PID= PROXY_PID=
cleanup() {
  [ -n "$PROXY_PID" ] && kill "$PROXY_PID" 2>/dev/null || true
  [ -n "$TWIN_PID" ] && kill "$TWIN_PID" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT
mkdir -p out && rm -f out/*
TWIN_ROOT=$MAIN
if [ -n "${TWIN_REF:-}" ]; then
  rm -rf twin-tree && mkdir twin-tree
  git -C "$MAIN" archive "$TWIN_REF" package.json twins | tar -x -C twin-tree
  ln -s "$MAIN/node_modules" twin-tree/node_modules
  TWIN_ROOT=$HERE/twin-tree
  echo "twin: $MAIN at $(git -C "$MAIN" rev-parse "$TWIN_REF") (committed tree)" > out/twin-version.txt
else
  { echo "twin: $MAIN working tree, HEAD $(git -C "$MAIN" rev-parse HEAD)"; git -C "$MAIN" status --short -- twins; } > out/twin-version.txt
fi
cat out/twin-version.txt
(cd "$TWIN_ROOT" && exec "$NODE24" twins/supabase/supabase-server.ts --memory --port 0 --host 127.0.0.1 \
  --supabase-dir "$HERE/project") > out/twin.log 2>&1 &
TWIN_PID=$!
for _ in $(seq 1 180); do grep -q 'listening on' out/twin.log && break; kill -0 $TWIN_PID || { cat out/twin.log; exit 1; }; sleep 1; done
TWIN_URL=$(grep -o 'http://127.0.0.1:[0-9]*' out/twin.log | head -1)
echo "twin: $TWIN_URL"
node tools/proxy.mjs "$TWIN_URL" out/exchanges.jsonl out/proxy.port > out/proxy.log 2>&1 &
PROXY_PID=$!
for _ in $(seq 1 30); do [ -s out/proxy.port ] && break; sleep 0.5; done
export YARDSTICK_REST_URL="http://127.0.0.1:$(cat out/proxy.port)"
export YARDSTICK_PROXY_URL=$YARDSTICK_REST_URL YARDSTICK_SUITE_DIR=$HERE/suite
echo "proxy: $YARDSTICK_REST_URL"

# 5. The suite: every *.test.ts (type-only *.test-d.ts are not jest tests), in its own order, --ci so
#    no snapshot is written.
set +e
npx jest --config tools/jest.config.js --ci --runInBand --json --outputFile=out/results.json \
  --testLocationInResults ${JEST_ARGS:-} > out/jest.txt 2>&1
JEST_RC=$?
set -e
tail -8 out/jest.txt
node tools/audit.mjs "$YARDSTICK_REST_URL" out/audit.json || echo "audit failed"
node tools/probes.mjs "$YARDSTICK_REST_URL" > out/probes.md || echo "probes failed"
node tools/classify.mjs out/results.json out/exchanges.jsonl out/audit.json > out/classification.md
sed -n '1,/^## (d) detector/p' out/classification.md | grep -v '^  - ' 
echo; echo "Beyond the suite (out/probes.md):"; cat out/probes.md
echo "jest exit $JEST_RC; details: out/jest.txt, out/results.json, out/exchanges.jsonl, out/classification.md, out/probes.md"
